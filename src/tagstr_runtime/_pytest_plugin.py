"""pytest plugin (entry point ``pytest11: tagstr``): tag strings in tests and conftest files.

The import hook is installed when pytest imports this module, which happens
before any ``conftest.py`` or test module is imported.  That alone is not
enough: pytest imports test modules and conftest files through its own
assertion-rewriting loader, which parses them with ``ast.parse`` and so
rejects tag strings.  ``_rewrite_test`` is therefore wrapped: when the
standard parse fails, the desugared tree (every node at its original
position) goes through pytest's own ``rewrite_asserts``, so a failing
``assert html"..." == ...`` gets pytest's usual introspection.

pytest caches rewritten code in ``__pycache__/m.<tag>-pytest-<version>.pyc``.
Desugared code goes to ``...-pytest-<version>.tagstr-<fingerprint>.pyc``
instead (read only after the standard one proved stale), for the reasons
given in ``_importhook``: a run without this plugin, or with another
desugarer, must never execute it.
"""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING, Any

import _pytest.assertion.rewrite as _rewrite

# Imported now, not lazily as elsewhere: pytest rewrites this package's modules
# too (it is a plugin's package), and a lazy import from inside the patched
# _read_pyc below would re-enter it while _fingerprint is half imported.
from tagstr_runtime import _fingerprint  # noqa: F401
from tagstr_runtime._importhook import _tag_name, install

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from types import CodeType

__all__: list[str] = []

install()

_desugared_files: set[str] = set()  # co_filename of rewritten code that was desugared
_CACHE_KEY: str = getattr(_rewrite._write_pyc, "_tagstr_original", _rewrite._write_pyc).__code__.co_varnames[2]


def _patch(name: str, make: Callable[[Any], Any]) -> None:
    original = getattr(_rewrite, name)
    if getattr(original, "_tagstr_original", None) is None:  # idempotent across re-imports
        wrapper = make(original)
        wrapper._tagstr_original = original
        setattr(_rewrite, name, wrapper)


def _make_rewrite_test(original: Callable[[Path, Any], tuple[object, CodeType]]) -> Any:
    def _rewrite_test(fn: Path, config: Any) -> tuple[object, CodeType]:
        __tracebackhide__ = True
        try:
            result = original(fn, config)
        except SyntaxError as exc:
            standard_error = exc
        else:
            _desugared_files.discard(str(fn))
            return result
        try:
            return _rewrite_desugared(fn, config, standard_error)
        except SyntaxError as exc:
            error = exc
        raise error.with_traceback(None)  # the error's own position is what matters

    return _rewrite_test


def _rewrite_desugared(fn: Path, config: Any, standard_error: SyntaxError) -> tuple[object, CodeType]:
    """What pytest's ``_rewrite_test`` returns, from the desugared tree.

    Its first item is what ``_write_pyc`` validates the cache with: the
    source's ``os.stat`` up to pytest 9.0, the source hash since 9.1
    (hash-based pycs); ``_write_pyc``'s parameter name tells which.
    """
    from tagstr_runtime._compile import compile_desugared, desugar_ast

    stat = os.stat(fn)
    source = fn.read_bytes()
    if _CACHE_KEY == "source_stat":
        key: object = stat
    elif _CACHE_KEY == "source_hash":
        import importlib.util

        key = importlib.util.source_hash(source)
    else:  # a pytest this plugin does not know: tag strings stay unsupported
        raise standard_error
    strfn = str(fn)
    tree = desugar_ast(source, strfn, "exec", standard_error=standard_error)
    assert isinstance(tree, ast.Module)
    _rewrite.rewrite_asserts(tree, source, strfn, config)
    code = compile_desugared(tree, strfn, "exec", 0, True, -1, source)
    _desugared_files.add(strfn)
    return key, code


def _make_read_pyc(original: Callable[..., CodeType | None]) -> Any:
    def _read_pyc(source: Path, pyc: Path, trace: Callable[[str], None] = lambda x: None) -> CodeType | None:
        code = original(source, pyc, trace)
        if code is None:
            code = original(source, pyc.with_name(_tag_name(pyc.name)), trace)
        return code

    return _read_pyc


def _make_write_pyc(original: Callable[..., bool]) -> Any:
    def _write_pyc(state: Any, co: CodeType, source_key: object, pyc: Path) -> bool:
        if co.co_filename in _desugared_files:
            pyc = pyc.with_name(_tag_name(pyc.name))
        return original(state, co, source_key, pyc)

    return _write_pyc


_patch("_rewrite_test", _make_rewrite_test)
_patch("_read_pyc", _make_read_pyc)
_patch("_write_pyc", _make_write_pyc)
