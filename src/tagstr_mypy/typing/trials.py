"""The tag called with argument *types* (``TempNode``s), as the plugin tries it.

``--disallow-any-expr`` judges expressions, and a ``TempNode`` is none: the
tag string's own expressions were judged when mypy typed them.  A trial with
``Interpolation[Any]`` must not fail, nor report, because of that flag.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from mypy.checker import TypeChecker

__all__ = ["values_only"]


@contextmanager
def values_only(api: TypeChecker) -> Iterator[None]:
    options = api.options
    saved = options.disallow_any_expr
    options.disallow_any_expr = False
    try:
        yield
    finally:
        options.disallow_any_expr = saved
