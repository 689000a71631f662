"""The standard-``ast`` tree mypy checks for a module with tag strings.

It is the runtime's desugared tree (``tagstr_runtime._desugar``: original
positions, one generated call per tag string) with two changes for the checker:

* every tag call ``tag(a, b)`` becomes ``__tagstr_call__(tag, a, b)``, so that one
  plugin hook (on ``tagstr_runtime._checker.tag_call``) types every tag string
  whatever the tag is, and reports in tag-string terms;
* the run-time table prologue becomes one import of typed stand-ins
  (``tagstr_runtime._checker``): ``Decoded`` constants become ``__tagstr_d__``.

Nothing here lexes: the runtime's parser found the tag strings.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from tagstr_runtime._desugar import Desugaring, _prologue_index
from tagstr_runtime._rt import TABLE_NAME, slot_name
from tagstr_runtime._source import SourceText

__all__ = ["CHECKER_MODULE", "CheckerTree", "checker_tree"]

CHECKER_MODULE = "tagstr_runtime._checker"
CALL_NAME = "__tagstr_call__"
DECODED_NAME = "__tagstr_d__"
INTERPOLATION_NAME = slot_name(0)


class CheckerTree(NamedTuple):
    tree: ast.Module
    desugaring: Desugaring


def checker_tree(
    text: str,
    filename: str,
    python_version: tuple[int, int],
    *,
    char_columns: bool,
) -> CheckerTree | None:
    """The tree for ``text``, or None when it has no tag string (SPEC 1.8).

    Raises ``SyntaxError`` (``TagSyntaxError`` for malformed tag strings) at the
    original position.  ``char_columns``: mypy's native parser counts columns in
    characters, its stdlib-``ast`` parser in UTF-8 bytes; the tree follows the
    parser mypy would have used, so positions match stock mypy either way.
    """
    desugaring = Desugaring(
        text,
        filename,
        "exec",
        flags=ast.PyCF_TYPE_COMMENTS,
        template_strings=python_version >= (3, 14),
        feature_version=python_version,
        emit_warnings=False,
    )
    if not desugaring.result.tag_strings:
        return None
    tree = desugaring.tree
    assert isinstance(tree, ast.Module)
    _retarget(tree, desugaring)
    _fields_at_their_expressions(tree, desugaring)
    if char_columns and not text.isascii():
        _to_char_columns(tree, desugaring.source)
    return CheckerTree(tree, desugaring)


def _retarget(tree: ast.Module, desugaring: Desugaring) -> None:
    at = _prologue_index(tree.body)
    prologue = tree.body[at : at + 2]
    assert isinstance(prologue[0], ast.ImportFrom) and prologue[0].names[0].asname == TABLE_NAME
    names = [
        ast.alias("tag_call", CALL_NAME),
        ast.alias("Interpolation", INTERPOLATION_NAME),
        ast.alias("decoded", DECODED_NAME),
    ]
    imp = ast.ImportFrom(CHECKER_MODULE, names, 0)
    for node in (imp, *names):
        ast.copy_location(node, prologue[0])
    tree.body[at : at + 2] = [imp]
    for call in desugaring.generator.generated.values():
        for arg in call.args:
            if isinstance(arg, ast.Name) and arg.id != INTERPOLATION_NAME and arg.id.startswith("__tagstr_"):
                arg.id = DECODED_NAME
            elif isinstance(arg, ast.Call) and arg.args and isinstance(arg.args[0], ast.Tuple):
                # the Interpolation class and the expr/conv/spec constants: no
                # span of their own, so that tools listing the expressions at a
                # position (dmypy inspect) show the user's, not these
                _zero_width(arg.func, arg)
                for item in arg.args[0].elts[1:]:
                    if isinstance(item, ast.Constant):
                        _zero_width(item, arg)
        func = ast.Name(CALL_NAME, ast.Load())
        _zero_width(func, call)
        call.args.insert(0, call.func)
        call.func = func


def _zero_width(node: ast.expr, at: ast.expr) -> None:
    node.lineno = node.end_lineno = at.lineno
    node.col_offset = node.end_col_offset = at.col_offset


def _fields_at_their_expressions(tree: ast.Module, desugaring: Desugaring) -> None:
    """Give each f-string field the position of its expression.

    mypy's stdlib-``ast`` converter moves a field's expression to the field's
    position; its native parser keeps the expression's own, which is right.
    Format specs of interpolations are f-strings we generate; the whole tree
    is walked only when the runtime's parser saw a standard f-string.
    """
    if desugaring.result.fstrings:
        roots: list[ast.AST] = [tree]
    else:
        roots = []
        for call in desugaring.generator.generated.values():
            for arg in call.args:
                if isinstance(arg, ast.Call) and arg.args and isinstance(arg.args[0], ast.Tuple):
                    spec = arg.args[0].elts[-1]
                    if isinstance(spec, ast.JoinedStr):
                        roots.append(spec)
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, ast.FormattedValue):
                ast.copy_location(node, node.value)


def _to_char_columns(tree: ast.Module, source: SourceText) -> None:
    """Byte columns (``ast``) to character columns, on lines with non-ASCII text."""
    cache: dict[tuple[int, int], int] = {}

    def convert(line: int, col_byte: int) -> int:
        key = (line, col_byte)
        found = cache.get(key)
        if found is None:
            if line < 1 or line > source.line_count:
                found = col_byte
            else:
                found = source.offset(line, col_byte) - source.line_start(line)
            cache[key] = found
        return found

    ascii_lines = {
        line for line in range(1, source.line_count + 1) if source.line_text(line).isascii()
    }
    for node in ast.walk(tree):
        if "col_offset" not in node._attributes:
            continue
        lineno = node.lineno  # type: ignore[attr-defined]
        if lineno not in ascii_lines:
            node.col_offset = convert(lineno, node.col_offset)  # type: ignore[attr-defined]
        end = getattr(node, "end_lineno", None)
        if end is not None and end not in ascii_lines and node.end_col_offset is not None:  # type: ignore[attr-defined]
            node.end_col_offset = convert(end, node.end_col_offset)  # type: ignore[attr-defined]
