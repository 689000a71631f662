"""``tag(t"...")`` for a tag made with ``@accepts_template``: the per-slot rule of ``tag"..."``."""
from typing import TypeVar

from tagstr_runtime import Decoded, Interpolation, accepts_template, template_tag
from tagstr_runtime.templatelib import Template

T = TypeVar("T", int, str)
V = TypeVar("V")


@accepts_template
def sql(*args: Decoded | Interpolation[int | str]) -> str:
    return ""


@accepts_template
def ints(*args: Decoded | Interpolation[int]) -> list[int]:
    return []


@accepts_template
def constrained(*args: Decoded | Interpolation[T]) -> T:
    raise NotImplementedError


@accepts_template
def values(*args: Decoded | Interpolation[V]) -> list[V]:
    return []


def plain(*args: Decoded | Interpolation[int]) -> str:
    return ""


def library(template: Template) -> bytes:
    return b""


lib = template_tag(library)

n = 1
s = "x"
f = 1.5
ok = sql(t"SELECT {n}, {s}")
bad = sql(t"SELECT {n}, {f}, {[n]}")  # E:26: Interpolation "{f}" has type "float"; tag "sql" accepts "int | str"  [tagstr-interpolation]  # E:31: Interpolation "{[n]}" has type "list[int]"; tag "sql" accepts "int | str"  [tagstr-interpolation]
two = ints(t"{n} {s.upper()}")  # E:19: Interpolation "{s.upper()}" has type "str"; tag "ints" accepts "int"  [tagstr-interpolation]
conv = ints(t"{n!r:>{s}} {s=}")  # E:27: Interpolation "{s}" has type "str"; tag "ints" accepts "int"  [tagstr-interpolation]
spec_fields_are_not_slots = ints(t"{n:{s}>{f}}")
reveal_type(ints(t"{n}"))  # N:13: Revealed type is "list[int]"
as_int: int = constrained(t"{n}")
as_str: int = constrained(t"{s}")  # E:15: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]
# mypy names the decorated function's type variable after the decorator's ("R")
mixed = constrained(t"{1.5}")  # E:24: Interpolation "{1.5}" has type "float"; tag "constrained" accepts "R" ("R" is one of "int", "str")  [tagstr-interpolation]
reveal_type(values(t"{n}{n}"))  # N:13: Revealed type is "list[int]"
ignored = ints(t"{s}")  # type: ignore[tagstr-interpolation]
lines = ints(t"""{
    s +
    s  # a comment
}""")  # E@57:5: Interpolation "{s + ...}" has type "str"; tag "ints" accepts "int"  [tagstr-interpolation]
held = t"{s}"
unchecked_without_a_literal = ints(held)
reveal_type(lib(t"{f}"))  # N:13: Revealed type is "bytes"
not_a_template_tag = plain(t"{n}")  # E:28: Argument 1 to "plain" has incompatible type "Template"; expected "Decoded | Interpolation[int]"  [arg-type]
