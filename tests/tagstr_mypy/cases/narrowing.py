"""Narrowing in a tag's body: the forms that keep Interpolation[T]'s value type under mypy.

Narrowing *away* Decoded keeps T exactly.  A positive check on Interpolation does not,
whatever its declaration, as for every generic tuple subclass in mypy 2.0-2.4 (the
isinstance target is Interpolation[Any], and mypy's meet of two tuple types keeps the
target's fallback; a class pattern's target keeps the class's own type variable:
python/mypy#21050, #17099).  The last function pins that: a mypy that keeps T fails here,
and docs/mypy.md ("Narrowing in a tag's body") must then say so.
"""
from typing import TypeVar

from tagstr_runtime import Decoded, Interpolation, is_interpolation

T = TypeVar("T")


def by_isinstance(*args: Decoded | Interpolation[int]) -> None:
    for a in args:
        if isinstance(a, Decoded):
            reveal_type(a)  # N:25: Revealed type is "tagstr_runtime._types.Decoded"
        else:
            reveal_type(a.getvalue())  # N:25: Revealed type is "int"
            reveal_type(a.getvalue)  # N:25: Revealed type is "def () -> int"
            reveal_type(a.expr)  # N:25: Revealed type is "str"
            reveal_type(a.conv)  # N:25: Revealed type is "Literal['a'] | Literal['r'] | Literal['s'] | None"
            reveal_type(a.format_spec)  # N:25: Revealed type is "str | None"
            getvalue, expr, conv, spec = a
            reveal_type(getvalue)  # N:25: Revealed type is "def () -> int"
            reveal_type(a[0]())  # N:25: Revealed type is "int"


def by_match(*args: Decoded | Interpolation[int]) -> None:
    for a in args:
        match a:
            case Decoded():
                reveal_type(a)  # N:29: Revealed type is "tagstr_runtime._types.Decoded"
            case (getvalue, expr, conv, spec):
                reveal_type(getvalue)  # N:29: Revealed type is "def () -> int"
                reveal_type(expr)  # N:29: Revealed type is "str"
                reveal_type(conv)  # N:29: Revealed type is "Literal['a'] | Literal['r'] | Literal['s'] | None"
                reveal_type(spec)  # N:29: Revealed type is "str | None"
        match a:
            case getvalue, _, _, _:  # a Decoded, a str, never matches a sequence pattern
                reveal_type(getvalue())  # N:29: Revealed type is "int"
            case _:
                reveal_type(a)  # N:29: Revealed type is "tagstr_runtime._types.Decoded"
        match a:
            case Decoded():
                pass
            case _:
                reveal_type(a.getvalue())  # N:29: Revealed type is "int"


def several(*args: Decoded | Interpolation[int] | Interpolation[str]) -> None:
    for a in args:
        if not isinstance(a, Decoded):
            reveal_type(a.getvalue())  # N:25: Revealed type is "int | str"
        match a:
            case getvalue, _, _, _:
                reveal_type(getvalue())  # N:29: Revealed type is "int | str"


def generic(*args: Decoded | Interpolation[T]) -> list[T]:
    values = []
    for a in args:
        match a:
            case getvalue, _, _, _:
                values.append(getvalue())
    reveal_type(values)  # N:17: Revealed type is "list[T]"
    return [a.getvalue() for a in args if not isinstance(a, Decoded)]


def strict(*args: Decoded | Interpolation[object]) -> None:
    for a in args:
        if not isinstance(a, Decoded):
            reveal_type(a.getvalue())  # N:25: Revealed type is "object"


def positive(*args: Decoded | Interpolation[int]) -> None:
    for a in args:
        if isinstance(a, Interpolation):
            reveal_type(a.getvalue())  # N:25: Revealed type is "Any"
        match a:
            case Interpolation(getvalue, expr, conv, spec):
                reveal_type(getvalue)  # N:29: Revealed type is "def () -> Any"
                reveal_type(expr)  # N:29: Revealed type is "str"
        match a:
            case Interpolation() as i:
                getvalue, expr, conv, spec = i
                reveal_type(getvalue)  # N:29: Revealed type is "def () -> T_co"


def with_type_is(*args: Decoded | Interpolation[int] | Interpolation[str]) -> None:
    for a in args:
        if is_interpolation(a):
            reveal_type(a.getvalue())  # N:25: Revealed type is "int | str"
        else:
            reveal_type(a)  # N:25: Revealed type is "tagstr_runtime._types.Decoded"


def generic_type_is(*args: Decoded | Interpolation[T]) -> list[T]:
    return [a.getvalue() for a in args if is_interpolation(a)]
