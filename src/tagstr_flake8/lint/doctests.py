"""pyflakes' doctest checks (``--doctests``) on examples with tag strings.

pyflakes parses each ``>>>`` example of a docstring with ``ast.parse``
(``Checker.handleDoctests``), which rejects a tag string: every such example
was ``F721 syntax error in doctest``, and nothing in it was checked.  While
``handleDoctests`` runs, the ``ast`` module that pyflakes' checker sees is a
copy whose ``parse`` falls back to the desugarer when the standard parse
fails, exactly as ``build_ast`` does for a file: the example's lint tree,
at the example's own positions (pyflakes adds the docstring's offset), or
the ``SyntaxError`` of a malformed tag string (F721 at its position).
Examples that parse never reach the desugarer.
"""

from __future__ import annotations

import ast
import functools
import types
from typing import Any, Callable

from tagstr_runtime.frontend import wrap_once

__all__ = ["install_doctests", "parse_with_tag_strings"]


def parse_with_tag_strings(source: str, filename: str = "<unknown>", *args: Any, **kwargs: Any) -> ast.AST:
    """``ast.parse``, and the lint tree of a source that fails only because of tag strings."""
    try:
        tree: ast.AST = ast.parse(source, filename, *args, **kwargs)
        return tree
    except SyntaxError as exc:
        standard = exc
    if args or kwargs or not isinstance(source, str):  # not the call pyflakes makes
        raise standard
    from tagstr_flake8.lint.tag_file import analyse  # the desugarer: only for an example that needs it

    return analyse(source.splitlines(keepends=True), filename, standard).tree


_AST = types.ModuleType(ast.__name__, ast.__doc__)
_AST.__dict__.update(vars(ast))
_AST.parse = parse_with_tag_strings  # type: ignore[attr-defined]


def _make_handle_doctests(original: Callable[..., Any]) -> Callable[..., Any]:
    from pyflakes import checker

    if checker.ast is not ast:
        raise TypeError("pyflakes.checker does not use the ast module")

    @functools.wraps(original)
    def handleDoctests(self: Any, node: Any) -> Any:  # noqa: N802 - pyflakes' name
        checker.ast = _AST  # flake8 checks files one at a time per process: no thread sees it
        try:
            return original(self, node)
        finally:
            checker.ast = ast

    return handleDoctests


def install_doctests() -> None:
    """Wrap pyflakes' ``Checker.handleDoctests`` (idempotent)."""
    try:
        from pyflakes.checker import Checker
    except ImportError:  # flake8 without pyflakes: no doctests to check
        return
    wrap_once(Checker, "handleDoctests", _make_handle_doctests, tool="tagstr_flake8",
              feature="checking doctest examples with tag strings (they get F721)")
