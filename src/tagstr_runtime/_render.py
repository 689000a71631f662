"""The readable text form of a desugared source (``python -m tagstr_runtime --desugar``).

Only the tag strings change: each is replaced by ``ast.unparse`` of its
generated call, with the module table spelled out as
``__tagstr__.Decoded(...)`` / ``__tagstr__.Interpolation(...)`` so a reader
sees what the tag receives.  Comments and formatting elsewhere are kept, and
a multi-line tag string keeps its line count (padding newlines go inside the
call's parentheses), so every line after it keeps its number.  The result
runs on stock Python (3.12+ where a tag string sat inside an f-string and its
rendering reuses the f-string's quote).
"""

from __future__ import annotations

import ast
import copy

from tagstr_runtime._desugar import Desugaring, _prologue_index
from tagstr_runtime._escapes import cook
from tagstr_runtime._rt import TABLE_NAME, slot_name

__all__ = ["render"]

PROLOGUE = f"import tagstr_runtime as {TABLE_NAME}\n"


class _Readable(ast.NodeTransformer):
    """``__tagstr_k__`` -> ``__tagstr__.Decoded(raw)``; ``__tagstr_0__`` -> ``.Interpolation``."""

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        self.entries = entries
        self.slots = {slot_name(index): index for index in range(len(entries) + 1)}

    def visit_Name(self, node: ast.Name) -> ast.AST:
        index = self.slots.get(node.id)
        if index is None:
            return node
        table = ast.Name(TABLE_NAME, ast.Load())
        if index == 0:
            return ast.Attribute(table, "Interpolation", ast.Load())
        cooked, raw = self.entries[index - 1]
        decoded = ast.Attribute(table, "Decoded", ast.Load())
        try:
            exact = cook(raw) == cooked
        except ValueError:
            exact = False
        if exact:
            return ast.Call(decoded, [ast.Constant(raw)], [])
        return ast.Call(
            ast.Attribute(decoded, "_from_parts", ast.Load()),
            [ast.Constant(cooked), ast.Constant(raw)],
            [],
        )


def render(text: str, *, template_strings: bool | None = None) -> str:
    work = Desugaring(text, "<desugar>", template_strings=template_strings, emit_warnings=False)
    tags = work.result.tag_strings
    if not tags:
        return text
    readable = _Readable(work.generator.entries)
    out: list[str] = []
    pos = 0
    for tag in tags:
        out.append(text[pos : tag.span.start])
        call = readable.visit(copy.deepcopy(work.generator.generated[tag.span]))
        rendered = ast.unparse(call)
        extra_lines = text.count("\n", tag.span.start, tag.span.end)
        if extra_lines:
            rendered = rendered[:-1] + "\n" * extra_lines + ")"
        out.append(rendered)
        pos = tag.span.end
    out.append(text[pos:])
    body = "".join(out)
    return _insert_prologue(body, work.tree)


def _insert_prologue(body: str, tree: ast.AST) -> str:
    """After the docstring and ``from __future__`` imports, as the tree has it."""
    assert isinstance(tree, ast.Module)
    statements = [s for s in tree.body if s.lineno != 1 or s.col_offset != 0 or not _generated(s)]
    index = _prologue_index(statements)
    if index == 0:
        return PROLOGUE + body
    line = statements[index - 1].end_lineno or 1
    lines = body.splitlines(keepends=True)
    if lines and line <= len(lines) and not lines[line - 1].endswith("\n"):
        lines[line - 1] += "\n"
    return "".join(lines[:line]) + PROLOGUE + "".join(lines[line:])


def _generated(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.ImportFrom):
        return stmt.module == "tagstr_runtime._rt"
    if isinstance(stmt, ast.Assign):
        target = stmt.targets[0]
        return (
            isinstance(target, ast.Tuple)
            and isinstance(target.elts[0], ast.Name)
            and target.elts[0].id == slot_name(0)
        )
    return False
