"""Type-checked (mypy --strict) by the `typecheck` tox env: the public types as users write them."""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import assert_type

from tagstr_runtime import (
    Decoded,
    DecodedConcrete,
    Interpolation,
    InterpolationConcrete,
    TagFunction,
    is_interpolation,
)


def upper(*args: Decoded | Interpolation[str]) -> str:
    out: list[str] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                assert_type(decoded.raw, str)
                out.append(decoded)
            case Interpolation() as interpolation:
                assert_type(interpolation.expr, str)
                out.append(interpolation.getvalue().upper())
    return "".join(out)


def narrowed(*args: Decoded | Interpolation[str]) -> list[str]:
    return [arg.getvalue() for arg in args if isinstance(arg, Interpolation)]


def narrowed_keeping_the_value(*args: Decoded | Interpolation[int]) -> int:
    total = 0
    for arg in args:
        if is_interpolation(arg):
            assert_type(arg.getvalue(), int)
            total += arg.getvalue()
        else:
            assert_type(arg, Decoded)
    return total


def value_type(arg: Interpolation[int]) -> None:
    assert_type(arg.getvalue(), int)
    assert_type(arg.conv, "Literal['a', 'r', 's'] | None")
    assert_type(arg.format_spec, "str | None")


def unpack(*args: Decoded | Interpolation[int]) -> list[int]:
    values: list[int] = []
    for arg in args:
        match arg:
            case Decoded():
                pass
            case getvalue, _, _, _:
                values.append(getvalue())
    return values


tag: TagFunction[str] = upper
i: Interpolation[str] = Interpolation((lambda: "x", "x", None, None))
c: Interpolation[Any] = InterpolationConcrete(lambda: 1, "1", "r", ">3")
d: Decoded = DecodedConcrete("a\\n")
assert_type(tag(d, i), str)
