"""TAG009 (off by default): an interpolation reading the target of an enclosing ``with``.

``with open(p) as f: msg = log"{f.read()}"``: a tag that calls ``getvalue``
after the block has exited finds ``f`` closed.  libcst's scope analysis
confirms that the name refers to the ``with`` statement's own target.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._rules import FileContext, Report, rule
from tagstr_flake8._rules._common import in_body, in_same_scope, name_ids, name_positions, reads


@rule("TAG009")
def check_tag009(ctx: FileContext) -> Iterator[Report]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    candidates: list[tuple[ast.Name, set[tuple[int, int]]]] = []
    for site in tagfile.sites():
        targets = [
            item.optional_vars
            for node, child in in_same_scope(tagfile, site)
            if isinstance(node, (ast.With, ast.AsyncWith)) and in_body(node, child)
            for item in node.items
            if item.optional_vars is not None
        ]
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
            yield Report(name.lineno, name.col_offset, "TAG009", (name.id,))
