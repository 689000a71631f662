"""TAG006 (off by default): an interpolation capturing a loop variable.

The interpolation is a closure: a tag that keeps it and calls ``getvalue``
after the loop has moved on reads the variable's *current* value, as every
lambda does (bugbear's B023, which this rule replaces on tag strings).  Most
tags read every value at once, which is why the rule is off by default.
Loops are ``for`` statements (the tag string in their body) and
comprehensions in the same scope; libcst's scope analysis confirms that the
name refers to the loop's own target.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._rules import FileContext, Report, rule
from tagstr_flake8._rules._common import (
    COMPREHENSIONS, in_body, in_same_scope, name_ids, name_positions, reads,
)


def _loop_targets(node: ast.AST, child: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.For, ast.AsyncFor)) and in_body(node, child):
        return [node.target]
    if isinstance(node, COMPREHENSIONS):
        return [gen.target for gen in node.generators]
    return []


@rule("TAG006")
def check_tag006(ctx: FileContext) -> Iterator[Report]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    candidates: list[tuple[ast.Name, set[tuple[int, int]]]] = []
    for site in tagfile.sites():
        targets = [t for node, child in in_same_scope(tagfile, site) for t in _loop_targets(node, child)]
        if not targets:
            continue
        ids = set().union(*(name_ids(t) for t in targets))
        positions = set().union(*(name_positions(t) for t in targets))
        for interp in site.interpolations():
            candidates.extend((n, positions) for n in reads(tagfile, interp) if n.id in ids)
    if not candidates or ctx.scopes is None:
        return
    for name, positions in candidates:
        if any((b.line, b.col) in positions for b in ctx.scopes.bindings(name.lineno, name.col_offset)):
            yield Report(name.lineno, name.col_offset, "TAG006", (name.id,))
