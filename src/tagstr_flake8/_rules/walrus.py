"""TAG007: an assignment expression in an interpolation.

``{(n := len(items))}`` runs inside the interpolation's lambda: ``n`` is
bound in the closure (when, and each time, the tag calls ``getvalue``), never
in the enclosing scope, unlike the same f-string.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._analysis import walk_interpolation
from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import AssignmentExpression, TagMessage


def check_tag007(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    for site in tagfile.sites():
        for interp in site.interpolations():
            if ":=" not in interp.field.expr:  # the text tells, without a walk
                continue
            for node in walk_interpolation(tagfile, interp.func):
                if isinstance(node, ast.NamedExpr):
                    yield AssignmentExpression.at(node, name=node.target.id)
