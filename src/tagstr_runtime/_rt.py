"""What desugared code calls at run time: as little as possible.

A desugared module starts with ``from tagstr_runtime._rt import table as
__tagstr__`` followed by ``__tagstr_0__, __tagstr_1__, ... =
__tagstr__(TEXTS, RAWS)`` (written by ``_emit.RuntimeEmitter``): built once per
module execution, slot 0 is the ``Interpolation`` class and every other slot
a ``Decoded`` the module's tag strings pass.  Each tag-string evaluation then
costs one global load per argument instead of constructing objects.  The
names are dunders: never exported by ``from m import *``, never mangled in
class bodies, and no user code has a reason to bind them.
"""

from __future__ import annotations

import sys
from itertools import repeat

from tagstr_runtime._types import Decoded, Interpolation

__all__ = ["global_table", "table"]

_new = str.__new__
_set = object.__setattr__


def table(texts: tuple[str, ...], raws: tuple[tuple[int, str], ...] = ()) -> list[object]:
    """The module's table: ``[Interpolation, Decoded(texts[0]), ...]``.

    ``texts`` are the cooked texts; ``raws`` pairs the index of each whose raw
    text differs with that text.  The others have no instance ``__dict__``
    (``Decoded.raw`` is then the text): half the cost of each object, and none
    for the cyclic collector to visit again.
    """
    built: list[object] = [Interpolation, *map(_new, repeat(Decoded), texts)]
    for index, raw in raws:
        _set(built[index + 1], "_raw", raw)
    return built


def global_table(name: str, texts: tuple[str, ...], raws: tuple[tuple[int, str], ...] = ()) -> list[object]:
    """``table(texts, raws)``, also bound to ``name`` in the caller's globals: an
    ``eval``-mode expression reads it there from any scope (``_emit.RuntimeEmitter.eval_table``)."""
    built = sys._getframe(1).f_globals[name] = table(texts, raws)
    return built
