"""Where a desugared tree replaces its placeholder: the semantic analyzer's entry to the module.

With mypy's native parser, a module with tag strings is parsed from its
placeholder text, and its real tree waits in ``BuildState.pending``.  It
must be in place before semantic analysis, on every path mypy takes:

* no plugin hook sees every parsed tree: ``get_additional_deps`` runs only
  when mypy computes a module's dependencies, which it skips for a module
  re-checked "stale due to deps" (its dependencies come from the cache);
* mypy is compiled: ``State.parse_file``, ``load_from_raw`` and
  ``semantic_analysis_pass1`` cannot be wrapped from Python.

Every analysis of a module's top level or functions (a build, a stale
module, a dmypy update) enters ``SemanticAnalyzer.file_context(file_node,
options)`` first, with the module's tree and its own options.  That method is
a ``contextlib.contextmanager`` helper, a Python function: ``install`` gives
it a code object that first calls the plugin's ``enter``, and changes nothing
else (the same closure, the same ``contextlib`` globals, the same context
manager).  It calls it only while a tree waits (``arm``): every other entry,
in any build, costs one comparison.
"""

from __future__ import annotations

import threading
import types
from typing import Any, Callable

__all__ = ["arm", "disarm", "install", "installed"]

_lock = threading.Lock()
_MARK = "__tagstr_swap_point__"
_ENTER = "__tagstr_enter__"
#: the helper given the new code, and what it calls when armed
_installed: tuple[types.FunctionType, Callable[[tuple[Any, ...], dict[str, Any]], None]] | None = None


def _template(func: Any) -> Callable[..., Any]:
    """The helper ``contextlib.contextmanager`` makes, with a call before it: the
    code is run with the helper's own closure (``func``) and globals."""

    def helper(*args: Any, __tagstr_enter__: Any = None, **kwds: Any) -> Any:
        if __tagstr_enter__ is not None:
            __tagstr_enter__(args, kwds)
        return _GeneratorContextManager(func, args, kwds)  # type: ignore[name-defined]  # noqa: F821

    return helper


def install(enter: Callable[[tuple[Any, ...], dict[str, Any]], None]) -> bool:
    """Call ``enter(args, kwds)`` (``args[1]``: the ``MypyFile``) before each
    ``file_context`` while armed; once per process.  False: this mypy's
    ``file_context`` is not a ``contextmanager`` helper (``get_additional_deps``
    swaps alone)."""
    global _installed
    from mypy.semanal import SemanticAnalyzer

    helper = SemanticAnalyzer.__dict__.get("file_context")
    with _lock:
        if getattr(helper, _MARK, False):
            return True
        code = _template(None).__code__
        if not (
            isinstance(helper, types.FunctionType)
            and helper.__code__.co_freevars == code.co_freevars
            and helper.__globals__.get("_GeneratorContextManager") is not None
            and hasattr(helper, "__wrapped__")
        ):
            return False
        helper.__code__ = code
        helper.__kwdefaults__ = {_ENTER: None}
        setattr(helper, _MARK, True)
        _installed = (helper, enter)
    return True


def arm() -> None:
    """A tree waits: call ``enter`` at each entry."""
    if _installed is not None:
        helper, enter = _installed
        assert helper.__kwdefaults__ is not None
        helper.__kwdefaults__[_ENTER] = enter


def disarm() -> None:
    """No tree waits, in any build."""
    if _installed is not None:
        helper = _installed[0]
        assert helper.__kwdefaults__ is not None
        helper.__kwdefaults__[_ENTER] = None


def installed() -> bool:
    from mypy.semanal import SemanticAnalyzer

    return bool(getattr(SemanticAnalyzer.__dict__.get("file_context"), _MARK, False))
