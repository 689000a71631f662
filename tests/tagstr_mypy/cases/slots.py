"""Per-slot value types: Interpolation[T] in the tag's signature (SPEC 6)."""
from typing import TypeVar

from tagstr_runtime import Decoded, Interpolation

T = TypeVar("T", int, str)
B = TypeVar("B", bound=int)


def sql(*args: Decoded | Interpolation[int | str]) -> str:
    return ""


def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


def constrained(*args: Decoded | Interpolation[T]) -> T:
    raise NotImplementedError


def bounded(*args: Decoded | Interpolation[B]) -> B:
    raise NotImplementedError


def many(*args: Decoded | Interpolation[B]) -> list[B]:
    raise NotImplementedError


n = 1
s = "x"
f = 1.5
ok = sql"SELECT {n}, {s}"
bad = sql"SELECT {n}, {f}, {[n]}"  # E:24: Interpolation "{f}" has type "float"; tag "sql" accepts "int | str"  [tagstr-interpolation]  # E:29: Interpolation "{[n]}" has type "list[int]"; tag "sql" accepts "int | str"  [tagstr-interpolation]
two = ints"{n} {s.upper()}"  # E:17: Interpolation "{s.upper()}" has type "str"; tag "ints" accepts "int"  [tagstr-interpolation]
as_int: int = constrained"{n}"
as_str: int = constrained"{s}"  # E:15: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]
mixed = constrained"{1.5}"  # E:22: Interpolation "{1.5}" has type "float"; tag "constrained" accepts "T" ("T" is one of "int", "str")  [tagstr-interpolation]
ignored = ints"{s}"  # type: ignore[tagstr-interpolation]
braces = ints"{ {'a': 1} }"  # E:17: Interpolation "{ {'a': 1} }" has type "dict[str, int]"; tag "ints" accepts "int"  [tagstr-interpolation]
lines = ints"""{
    s +
    s  # a comment
}"""  # E@42:5: Interpolation "{s + ...}" has type "str"; tag "ints" accepts "int"  [tagstr-interpolation]
above_bound = bounded"{s}"  # E:24: Interpolation "{s}" has type "str"; tag "bounded" accepts "B" ("B" is bound to "int")  [tagstr-interpolation]
within_bound: bool = bounded"{True}"
# the context solves the variable: what it was solved to is what the tag accepts
solved: list[bool] = many"{n}"  # E:28: Interpolation "{n}" has type "int"; tag "many" accepts "bool"  [tagstr-interpolation]
