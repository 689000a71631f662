"""What desugared code calls at run time: as little as possible.

A desugared module starts with ``from tagstr_runtime._rt import table as
__tagstr__`` followed by ``__tagstr_0__, __tagstr_1__, ... =
__tagstr__(ENTRIES)`` (written by ``_emit.RuntimeEmitter``): built once per
module execution, slot 0 is the ``Interpolation`` class and every other slot
a ``Decoded`` the module's tag strings pass.  Each tag-string evaluation then
costs one global load per argument instead of constructing objects.  The
names are dunders: never exported by ``from m import *``, never mangled in
class bodies, and no user code has a reason to bind them.
"""

from __future__ import annotations

import sys

from tagstr_runtime._types import Decoded, Interpolation

__all__ = ["global_table", "table"]

_from_parts = Decoded._from_parts


def table(entries: tuple[tuple[str, str], ...]) -> tuple[object, ...]:
    """The module's table: ``(Interpolation, Decoded(cooked0, raw0), ...)``."""
    return (Interpolation, *[_from_parts(cooked, raw) for cooked, raw in entries])


def global_table(entries: tuple[tuple[str, str], ...], name: str) -> tuple[object, ...]:
    """``table(entries)``, also bound to ``name`` in the caller's globals: an
    ``eval``-mode expression reads it there from any scope (``_emit.RuntimeEmitter.eval_table``)."""
    built = sys._getframe(1).f_globals[name] = table(entries)
    return built
