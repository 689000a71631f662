"""TAG005: an interpolation in a class body naming a class-body variable.

An interpolation is a lambda, and no function defined in a class body sees
the class's names (SPEC 3): ``table = "users"; q = sql"FROM {table}"`` in a
class body reads a *global* ``table`` (or raises ``NameError``) when the tag
calls ``getvalue``.  Resolved with the file's scope analysis (``ctx.scopes``):
the name must refer to a binding of that very class body.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import ClassVariable, TagMessage
from tagstr_flake8._rules._common import in_body, in_same_scope, name_ids, reads


def _class_body_names(node: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        else:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
                    names.update(name_ids(sub))
    return names


def check_tag005(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    candidates: list[ast.Name] = []
    for site in tagfile.sites():
        *_, (scope, child) = in_same_scope(tagfile, site)
        if not isinstance(scope, ast.ClassDef) or not in_body(scope, child):
            continue
        names = _class_body_names(scope)
        for interp in site.interpolations():
            candidates.extend(n for n in reads(tagfile, interp) if n.id in names)
    if not candidates or ctx.scopes is None:
        return
    for name in candidates:
        if any(b.in_class and b.same_scope for b in ctx.scopes.bindings(name.lineno, name.col_offset)):
            yield ClassVariable.at(name, name=name.id)
