# mypy: enable-error-code="possibly-undefined, truthy-bool"
"""Interpolations checked where their f-string twins are evaluated (issue 38), and the
closures kept where a closure means something else."""
from typing import Any, TypeVarTuple, Unpack, overload, reveal_type

from tagstr_runtime import Decoded, Interpolation


def fmt(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


def lazy(*args: Decoded | Interpolation[object]) -> tuple[Decoded | Interpolation[object], ...]:
    return args  # passes its arguments on: their values are read later


class Box:
    a: str | None = None


data: dict[str, int | None] = {}


def narrowed(box: Box, x: int | None) -> None:
    if box.a is not None:
        fmt"{box.a.upper()}"
        lazy"{box.a.upper()}"  # E:15: Item "None" of "str | None" has no attribute "upper"  [union-attr]
    if data["k"] is not None:
        fmt"{data['k'] + 1}"
    if x is not None:
        fmt"{x + 1}"
    x = None


def definedness(flag: bool) -> None:
    if flag:
        y = 1
    fmt"{y}"  # E:10: Name "y" may be undefined  [possibly-undefined]
    fmt"{z}"  # E:10: Cannot determine type of "z"  [has-type]  # E:10: Name "z" is used before definition  [used-before-def]
    lazy"{z}"  # E:11: Cannot determine type of "z"  [has-type]
    z = 2


class Page:
    title = "Home"
    head = fmt"<h1>{title}</h1>"  # E:21: Name "title" is not defined  [name-defined]
    size = len(title)
    spec = fmt"{1:>{size}}"


def walrus() -> None:
    fmt"{(w := 1)}"
    print(w)  # E:11: Name "w" is not defined  [name-defined]


class Result:
    pass


def result(*args: Decoded | Interpolation[object]) -> Result:
    return Result()


def truthy() -> None:
    if result"{1}":  # E:8: "in_place.result" returns "Result" which does not implement __bool__ or __len__ so it could always be true in boolean context  [truthy-bool]
        pass


Ts = TypeVarTuple("Ts")


def tup(*args: Unpack[Ts]) -> tuple[Unpack[Ts]]:
    return args


reveal_type(tup"")  # N:13: Revealed type is "tuple[()]"
reveal_type(tup"{1}")  # N:13: Revealed type is "tuple[tuple[def () -> int, str, Literal['a'] | Literal['r'] | Literal['s'] | None, str | None, fallback=tagstr_runtime._types.Interpolation[int]]]"


@overload
def over(*args: Decoded | Interpolation[int]) -> int: ...  # type: ignore[overload-overlap]
@overload
def over(*args: Decoded | Interpolation[list[str]]) -> str: ...
def over(*args: Decoded | Interpolation[Any]) -> object:
    return 0


reveal_type(over"{1}")  # N:13: Revealed type is "int"
reveal_type(over"{[]}")  # N:13: Revealed type is "str"
over"{1.5}"  # E:7: Interpolation "{1.5}" has type "float"; tag "over" accepts "int | list[str]"  [tagstr-interpolation]
