"""``inspect.getsource(cls)`` for classes of modules with tag strings, on Python 3.11 and 3.12.

Before 3.13 (which records ``__firstlineno__`` on classes), ``inspect``
finds a class by ``ast.parse``-ing the whole file, which a tag string makes
fail: ``inspect.getsource(cls)``, IPython's ``Cls??``, and libraries reading
class source (dataclass tooling, documentation generators) raise
``SyntaxError``.  So ``inspect``'s own reference to ``ast`` is replaced by a
proxy whose ``parse`` falls back to the desugared tree, every class at its
original lines, when the standard parse fails; every other name is the real
``ast``'s, and a source without tag strings gets the standard error.  Only
``inspect`` sees the proxy.

It is installed when the first tag string is desugared to run (``ensure``):
at once if ``inspect`` is imported, else right after ``inspect`` is (a
one-shot finder), so a program without tag strings never meets it and one
with tag strings does not import ``inspect`` for it.
"""

from __future__ import annotations

import ast
import sys
import types
from typing import Any

__all__ = ["ensure"]

_NEEDED = sys.version_info < (3, 13)
_done = False


class _AstProxy(types.ModuleType):
    """``ast`` as ``inspect`` sees it: the real module, with a tag-string-aware ``parse``."""

    def __init__(self, real: types.ModuleType) -> None:
        super().__init__(real.__name__, real.__doc__)
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def parse(self, source: Any, filename: Any = "<unknown>", mode: str = "exec",
              *args: Any, **kwargs: Any) -> ast.AST:
        try:
            tree: ast.AST = self._real.parse(source, filename, mode, *args, **kwargs)
            return tree
        except SyntaxError as exc:
            if args or kwargs or not isinstance(source, (str, bytes)):
                raise
            error = exc
        from tagstr_runtime._desugaring import Desugaring
        from tagstr_runtime._source import decode_source

        try:
            return Desugaring(decode_source(source), str(filename), mode, standard_error=error).tree
        except (SyntaxError, UnicodeDecodeError, LookupError):
            raise error from None


def _patch(inspect: types.ModuleType) -> None:
    real = inspect.__dict__.get("ast")
    if isinstance(real, types.ModuleType) and not isinstance(real, _AstProxy):
        inspect.ast = _AstProxy(real)  # type: ignore[attr-defined]


class _InspectImported:
    """A one-shot meta path finder: patches ``inspect`` right after its import."""

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "inspect":
            return None
        try:
            sys.meta_path.remove(cls)
        except ValueError:
            pass
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return None
        run = loader.exec_module

        def exec_module(module: types.ModuleType) -> None:
            run(module)
            _patch(module)

        loader.exec_module = exec_module
        return spec


def ensure() -> None:
    """Make ``inspect`` find classes in sources with tag strings (idempotent, cheap)."""
    global _done
    if _done or not _NEEDED:
        return
    _done = True
    inspect = sys.modules.get("inspect")
    if inspect is not None:
        _patch(inspect)
    else:
        sys.meta_path.insert(0, _InspectImported)
