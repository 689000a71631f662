# A tag string where a type belongs: mypy's verdict on the f-string twin (or, as
# a base class, on the call), never a name only the checker tree has.
from tagstr_runtime import Decoded, Interpolation


def html(*args: Decoded | Interpolation[object]) -> str:
    return ""


n = 1
x: html"a {n}"  # E:4: Invalid type comment or annotation  [valid-type]
y: f"a {n}"  # E:4: Invalid type comment or annotation  [valid-type]
z: list[html"a"]  # E:9: Invalid type comment or annotation  [valid-type]


def f(a: html"{n}") -> None:  # E:10: Invalid type comment or annotation  [valid-type]
    pass


def g() -> html"b":  # E:12: Invalid type comment or annotation  [valid-type]
    return ""


class C(html"x"):  # E:9: Unsupported dynamic base class "html"  [misc]
    pass
