"""Interpolations typed with the tag's signature as context, as in the call (SPEC 3)."""
from typing import Callable, Literal, TypeVar, overload

from tagstr_runtime import Decoded, Interpolation

T = TypeVar("T")
S = TypeVar("S", int, str)


def floats(*args: Decoded | Interpolation[list[float]]) -> str:
    return ""


def order(*args: Decoded | Interpolation[Literal["asc", "desc"]]) -> str:
    return ""


def cb(*args: Decoded | Interpolation[Callable[[int], int]]) -> str:
    return ""


def listed(*args: Decoded | Interpolation[list[T]]) -> T:
    raise NotImplementedError


def valued(*args: Decoded | Interpolation[S]) -> S:
    raise NotImplementedError


def pick(a: Decoded, b: Interpolation[int], c: Decoded, d: Interpolation[str], /, *rest: Decoded | Interpolation[object]) -> str:
    return ""


names = ["a"]
ok = floats"{[1, 2]}"
ordered = order"BY name {'asc'}"
wrong_order = order"BY name {'up'}"  # E:30: Interpolation "{'up'}" has type "Literal['up']"; tag "order" accepts "Literal['asc', 'desc']"  [tagstr-interpolation]
missed = cb"{(lambda x: x.foo)}"  # E:25: "int" has no attribute "foo"  [attr-defined]
typed_lambda = cb"{(lambda x: x + 1)}"
not_floats = floats"{names}"  # E:22: Interpolation "{names}" has type "list[str]"; tag "floats" accepts "list[float]"  [tagstr-interpolation]
item = floats"{['a']}"  # E:17: List item 0 has incompatible type "str"; expected "float"  [list-item]
reveal_type(listed"{[1]} {[]}")  # N:13: Revealed type is "int"
together = listed"{[1]} {['a']}"  # E:12: Cannot infer value of type parameter "T" of "listed"  [misc]
values = valued"{1} {'a'}"  # E:10: Value of type variable "S" of "valued" cannot be "object"  [type-var]
picked = pick"a {1} b {2}"  # E:10: Tag "pick" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "def pick(Decoded, Interpolation[int], Decoded, Interpolation[str], /, *rest: Decoded | Interpolation[object]) -> str"  [tagstr-signature]
# N@45:10: This tag string calls pick(Decoded, Interpolation[int], Decoded, Interpolation[int]), which fails:
# N@45:10:     Interpolation "{2}" has incompatible type "Interpolation[int]"; expected "Interpolation[str]"


# issue 38: mypy's own message about a type variable, in the tag's name, where only the
# combination fails; a value narrowed before the tag string is the narrowed type there
F = TypeVar("F", str, int)


def fmt(*args: Decoded | Interpolation[F]) -> str:
    return ""


def narrowed(a: str, b: str | None) -> None:
    fmt"{a} {b}"  # E:5: Value of type variable "F" of "fmt" cannot be "str | None"  [type-var]
    if b is not None:
        fmt"{a} {b}"
