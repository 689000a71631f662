"""What desugared code calls at run time: as little as possible.

A desugared module starts with ``from tagstr_runtime._rt import table as
__tagstr__`` followed by ``__tagstr__ = __tagstr__(ENTRIES)``: one tuple,
built once per module execution, holding the ``Interpolation`` class at index
0 and every ``Decoded`` the module's tag strings pass.  Each tag-string
evaluation then costs a global load and a constant-index subscript per
argument instead of constructing objects.  The name is a dunder so that it is
never exported by ``from m import *`` and no user code has a reason to bind it.
"""

from __future__ import annotations

from tagstr_runtime._types import Decoded, Interpolation

__all__ = ["TABLE_NAME", "table"]

TABLE_NAME = "__tagstr__"

_from_parts = Decoded._from_parts


def table(entries: tuple[tuple[str, str], ...]) -> tuple[object, ...]:
    """The module's table: ``(Interpolation, Decoded(cooked0, raw0), ...)``."""
    return (Interpolation, *[_from_parts(cooked, raw) for cooked, raw in entries])
