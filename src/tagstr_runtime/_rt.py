"""What desugared code calls at run time: as little as possible.

A desugared module starts with ``from tagstr_runtime._rt import table as
__tagstr__`` followed by ``__tagstr_0__, __tagstr_1__, ... =
__tagstr__(ENTRIES)`` (written by ``_emit.RuntimeEmitter``): built once per
module execution, slot 0 is the ``Interpolation`` class and every other slot
a ``Decoded`` the module's tag strings pass, or a format spec with a backslash
(a ``RawSpec``, or for one with nested fields the function that builds it
from their formatted texts).  Each tag-string evaluation then
costs one global load per argument instead of constructing objects.  The
names are dunders: never exported by ``from m import *``, never mangled in
class bodies, and no user code has a reason to bind them.
"""

from __future__ import annotations

from typing import Union

from tagstr_runtime._types import Decoded, Interpolation, RawSpec

__all__ = ["Entry", "table"]

_from_parts = Decoded._from_parts

#: ``(cooked, raw)`` of a ``Decoded``, or ``(raws, cooked)`` of a format spec with
#: a backslash: its literal texts around its nested fields, and what ``t"..."``
#: makes of each (``str`` instead: the reason ``t"..."`` rejects them).
Entry = Union[tuple[str, str], tuple[tuple[str, ...], Union[tuple[str, ...], str]]]


def table(entries: tuple[Entry, ...]) -> tuple[object, ...]:
    """The module's table: ``(Interpolation, Decoded(cooked0, raw0), ...)``."""
    return (Interpolation, *[_entry(first, second) for first, second in entries])


def _entry(first: str | tuple[str, ...], second: str | tuple[str, ...]) -> object:
    if isinstance(first, str):
        assert isinstance(second, str)
        return _from_parts(first, second)
    if len(first) == 1:
        return _raw_spec(first, second, ())
    return lambda *formatted: _raw_spec(first, second, formatted)


def _raw_spec(raws: tuple[str, ...], cooked: tuple[str, ...] | str, formatted: tuple[str, ...]) -> RawSpec:
    """The spec: each literal text, then the formatted text of the field after it."""
    raw = _join(raws, formatted)
    if isinstance(cooked, str):
        return RawSpec._from_parts(raw, None, cooked)
    return RawSpec._from_parts(raw, _join(cooked, formatted))


def _join(texts: tuple[str, ...], formatted: tuple[str, ...]) -> str:
    out = [texts[0]]
    for value, text in zip(formatted, texts[1:]):
        out += (value, text)
    return "".join(out)
