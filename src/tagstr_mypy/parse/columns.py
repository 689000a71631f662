"""The checker tree's columns as mypy's native parser counts them (characters, fields at their
expressions), for the trees a native-parser build converts with mypy's stdlib-``ast`` converter:
a module the native parser's own tree cannot take (``parse.native_graft``), or parsed in a
parallel worker (``parse.hook.use_stdlib_parser_in_worker``)."""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import Callable, Sequence

from tagstr_runtime.frontend import SourceText

__all__ = ["fields_at_their_expressions", "to_char_columns"]

#: statements decorated: their lines start at their first decorator
_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def fields_at_their_expressions(roots: Sequence[ast.AST]) -> None:
    """Give each f-string field the position of its expression.

    mypy's stdlib-``ast`` converter moves a field's expression to the field's
    position; its native parser keeps the expression's own, which is right.
    Format specs of interpolations are f-strings we generate; the whole tree
    is walked only when the runtime's parser saw a standard f-string.
    """
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, ast.FormattedValue):
                ast.copy_location(node, node.value)


def to_char_columns(tree: ast.Module, source: SourceText) -> Callable[[int, int], int]:
    """Byte columns (``ast``) to character columns, on lines with non-ASCII text;
    returns the conversion (line, byte column) -> character column.

    Only statements that reach such a line are walked (a statement's lines hold
    all of it, a decorated one's from its first decorator on): one accented
    letter in a docstring must not cost a walk of the whole tree."""
    cache: dict[tuple[int, int], int] = {}
    non_ascii = source.non_ascii_lines()
    lines = sorted(non_ascii)

    def convert(line: int, col_byte: int) -> int:
        if line not in non_ascii:
            return col_byte
        key = (line, col_byte)
        found = cache.get(key)
        if found is None:
            if line < 1 or line > source.line_count:
                found = col_byte
            else:
                found = source.offset(line, col_byte) - source.line_start(line)
            cache[key] = found
        return found

    def reaches(stmt: ast.stmt) -> bool:
        first = stmt.lineno
        if isinstance(stmt, _DECORATED) and stmt.decorator_list:
            first = min(first, stmt.decorator_list[0].lineno)
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (stmt.end_lineno or stmt.lineno)

    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if "col_offset" in node._attributes:
            lineno = node.lineno  # type: ignore[attr-defined]
            if lineno in non_ascii:
                node.col_offset = convert(lineno, node.col_offset)  # type: ignore[attr-defined]
            end = getattr(node, "end_lineno", None)
            if end is not None and end in non_ascii and node.end_col_offset is not None:  # type: ignore[attr-defined]
                node.end_col_offset = convert(end, node.end_col_offset)  # type: ignore[attr-defined]
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST) and (not isinstance(item, ast.stmt) or reaches(item)):
                        todo.append(item)
            elif isinstance(value, ast.AST):
                todo.append(value)
    return convert
