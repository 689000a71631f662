"""What nearly every tag does with an interpolation's value: treat it as an f-string would.

``conv`` and ``format_spec`` are handed to the tag uninterpreted (the tag
decides), but most tags want f-string behaviour for them; these two helpers
spell it once (``convert`` has the signature of Python 3.14's
``string.templatelib.convert``).
"""

from __future__ import annotations

__all__ = ["convert", "format_value"]


def convert(value: object, conv: str | None) -> object:
    """``value`` after ``!r``, ``!s`` or ``!a`` (unchanged for ``None``)."""
    if conv is None:
        return value
    if conv == "r":
        return repr(value)
    if conv == "s":
        return str(value)
    if conv == "a":
        return ascii(value)
    raise ValueError(f"invalid conversion {conv!r}: expected 's', 'r', 'a' or None")


def format_value(value: object, conv: str | None = None, format_spec: str | None = None) -> str:
    """``value`` as the f-string field ``{value!conv:format_spec}`` would render it."""
    return format(convert(value, conv), format_spec or "")
