"""Tags that read their values in another order, or not all of them, or twice."""

from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation, accepts_template


@accepts_template
def backwards(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in reversed(args))


@accepts_template
def firsts(*args: Decoded | Interpolation[object]) -> list[object]:
    """Only the values written with !r."""
    return [a.getvalue() for a in args if isinstance(a, Interpolation) and a.conv == "r"]


@accepts_template
def twice(*args: Decoded | Interpolation[object]) -> tuple[list[object], list[object]]:
    values = [a.getvalue() for a in args if isinstance(a, Interpolation)]
    again = [a.getvalue() for a in args if isinstance(a, Interpolation)]
    return values, again


@accepts_template
def spec(*args: Decoded | Interpolation[object]) -> list[object]:
    """What a tag sees of each format spec."""
    return [a if isinstance(a, Decoded) else (a.getvalue(), a.format_spec) for a in args]


@accepts_template
def first_three(*args: Decoded | Interpolation[object]) -> list[object]:
    out: list[object] = []
    for arg in args:
        if len(out) == 3:
            break
        if isinstance(arg, Interpolation):
            out.append(arg.getvalue())
    return out
