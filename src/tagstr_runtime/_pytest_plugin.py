"""pytest plugin (entry point ``pytest11: tagstr``): tag strings in tests and conftest files.

Importing this module changes nothing; pytest *activates* it through
``pytest_load_initial_conftests`` (``tryfirst``): the earliest hook pytest
calls on an entry-point or ``-p`` plugin after loading it, and the last one
before any ``conftest.py`` or test module is imported.  ``pytest_configure``
activates it too, for a plugin registered later (``pytest_plugins`` in a
conftest); activation is idempotent.

Activation installs the import hook.  That alone is not enough: pytest
imports test modules and conftest files through its own assertion-rewriting
loader, which parses them with ``ast.parse`` and so rejects tag strings.
``_rewrite_test`` is therefore wrapped: when the standard parse fails, the
desugared tree (every node at its original position) goes through pytest's
own ``rewrite_asserts``, so a failing ``assert html"..." == ...`` gets
pytest's usual introspection.  Wrapping goes through ``wrap_once``: a pytest
that moved one of these internals runs as stock, with one warning.

pytest caches rewritten code in ``__pycache__/m.<tag>-pytest-<version>.pyc``.
Desugared code goes to ``...-pytest-<version>.tagstr-<fingerprint>.pyc``
instead (read only after the standard one proved stale), for the reasons
given in ``_importhook``: a run without this plugin, or with another
desugarer, must never execute it.  So ``_rewrite_test`` is wrapped only when
both ``_read_pyc`` and ``_write_pyc`` were, and ``_write_pyc``'s cache key is
one this module knows.
"""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING, Any

import _pytest.assertion.rewrite as _rewrite
import pytest

# Imported now, not lazily as elsewhere: pytest rewrites this package's modules
# too (it is a plugin's package), and a lazy import from inside the patched
# _read_pyc below would re-enter it while _fingerprint is half imported.
from tagstr_runtime.desugarer import fingerprint as _fingerprint  # noqa: F401
from tagstr_runtime._importhook import _tag_code_runs, _tag_name, install
from tagstr_runtime.support.patching import wrap_once

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from types import CodeType

__all__ = ["pytest_configure", "pytest_load_initial_conftests", "pytest_runtest_setup"]

_TOOL = "tagstr_runtime (pytest plugin)"
_FEATURE = "tag strings in test modules and conftest.py under assertion rewriting (--assert=plain keeps them)"
_CACHE_KEYS = ("source_stat", "source_hash")  # _write_pyc's 3rd parameter: see _rewrite_desugared
_desugared_files: set[str] = set()  # co_filename of rewritten code that was desugared


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    _activate()


def pytest_configure(config: pytest.Config) -> None:
    _activate()


def _activate() -> None:
    install()
    cache = all(
        [  # both attempted, so that each missing one is named
            wrap_once(_rewrite, "_read_pyc", _make_read_pyc, tool=_TOOL, feature=_FEATURE),
            wrap_once(_rewrite, "_write_pyc", _make_write_pyc, tool=_TOOL, feature=_FEATURE),
        ]
    )
    if cache:
        wrap_once(_rewrite, "_rewrite_test", _make_rewrite_test, tool=_TOOL, feature=_FEATURE)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if type(item).__name__ == "DoctestItem":
        _doctest_compiles_tag_strings()


def _doctest_compiles_tag_strings() -> None:
    """Give doctest's runner a ``compile`` that also accepts tag strings.

    ``DocTestRunner`` compiles each example with the name ``compile``, looked
    up in the ``doctest`` module's globals before the builtins: binding it
    there reaches doctest alone, where replacing ``builtins.compile`` (as the
    runner does) would reach every caller in the test session.  The
    replacement calls the builtin first and gets its result unchanged (an
    example without tag strings compiles, or fails, exactly as without us).
    """
    import doctest

    from tagstr_runtime.run import compile_hook as _compile_hook

    if doctest.__dict__.get("compile") is not _compile_hook.compile:
        doctest.compile = _compile_hook.compile  # type: ignore[attr-defined]


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
    from tagstr_runtime.run.compile import compile_desugared, desugar_ast

    stat = os.stat(fn)
    source = fn.read_bytes()
    write_pyc = _rewrite._write_pyc
    if getattr(write_pyc, "__wrapped__", write_pyc).__code__.co_varnames[2] == "source_stat":
        key: object = stat
    else:
        import importlib.util

        key = importlib.util.source_hash(source)
    strfn = str(fn)
    tree = desugar_ast(source, strfn, "exec", standard_error=standard_error)
    assert isinstance(tree, ast.Module)
    _rewrite.rewrite_asserts(tree, source, strfn, config)
    code = compile_desugared(tree, strfn, "exec", 0, True, -1, source)
    _desugared_files.add(strfn)
    _tag_code_runs()  # pdb at a failure (--pdb, breakpoint()) evaluates tag strings in the test's frame
    return key, code


def _make_read_pyc(original: Callable[..., CodeType | None]) -> Any:
    def _read_pyc(source: Path, pyc: Path, trace: Callable[[str], None] = lambda x: None) -> CodeType | None:
        code = original(source, pyc, trace)
        if code is None:
            code = original(source, pyc.with_name(_tag_name(pyc.name)), trace)
            if code is not None:
                _tag_code_runs()
        return code

    return _read_pyc


def _make_write_pyc(original: Callable[..., bool]) -> Any:
    key = original.__code__.co_varnames[2]
    if key not in _CACHE_KEYS:  # a pytest this plugin does not know: no tag strings
        raise TypeError(f"unknown cache key {key!r}")

    def _write_pyc(state: Any, co: CodeType, source_key: object, pyc: Path) -> bool:
        if co.co_filename in _desugared_files:
            pyc = pyc.with_name(_tag_name(pyc.name))
        return original(state, co, source_key, pyc)

    return _write_pyc
