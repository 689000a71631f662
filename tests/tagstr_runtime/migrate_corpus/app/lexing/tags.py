"""Eager, quiet tags that show what they receive."""

from tagstr_runtime import Decoded, Interpolation, accepts_template


@accepts_template
def lit(*args: Decoded | Interpolation[object]) -> list[object]:
    """The literal texts and the values (with their conversion and spec)."""
    return [a if isinstance(a, Decoded) else (a.getvalue(), a.conv, a.format_spec) for a in args]


@accepts_template
def cat(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else format(a.getvalue(), a.format_spec or "") for a in args)


@accepts_template
def width(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


@accepts_template
def text(*args: Decoded | Interpolation[object]) -> str:
    """The text, each value shown with its conversion and spec: a plain string (no Decoded leaves)."""
    return "".join(a if isinstance(a, Decoded) else f"<{a.getvalue()!r}|{a.conv}|{a.format_spec}>" for a in args)
