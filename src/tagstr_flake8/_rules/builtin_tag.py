"""TAG004: a builtin that is not a tag function used as a tag (``print"x"``, ``str"x"``).

Reported only where the module binds no name of that spelling anywhere (a
module may define its own ``html``-like tag called ``format``).
"""

from __future__ import annotations

import ast
import builtins
from typing import Iterator

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import BuiltinTag, TagMessage

BUILTIN_NAMES = frozenset(name for name in dir(builtins) if not name.startswith("_"))


def _bound_anywhere(tree: ast.AST) -> set[str]:
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
    return bound


def check_tag004(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    suspects = [tag for tag in tagfile.tags if tag.tag in BUILTIN_NAMES]
    if not suspects:
        return
    bound = _bound_anywhere(ctx.tree)
    for tag in suspects:
        if tag.tag not in bound:
            line, col = tagfile.position(tag.span.start)
            yield BuiltinTag(line, col, tag=tag.tag)
