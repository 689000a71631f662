"""TAG013 (off by default): an interpolation reading the name of an enclosing ``except ... as``.

When an ``except E as err:`` clause ends, Python deletes ``err`` (so that
the traceback it holds does not keep the frame alive).  The interpolation
is a closure over ``err``: a tag that keeps it and calls ``getvalue`` after
the clause has ended, even after a ``return`` from inside it, gets
``NameError: cannot access free variable 'err'``.  Tags that read every
value at once are safe, which is why the rule is off by default; pyflakes'
F821/F841 for those closures are dropped (the f-string twin has none).
The file's scope analysis confirms the name refers to the clause's own.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage
from tagstr_flake8.rules.common import in_body, in_same_scope, reads


class ExceptTarget(RuleMessage):
    template = (
        "interpolation reads {name!r}, the name of the enclosing 'except ... as', which Python "
        "deletes when the clause ends: a tag that reads it later gets NameError; bind it to "
        "another name first"
    )


def _names_at(handler: ast.ExceptHandler) -> tuple[tuple[int, int], tuple[int, int]]:
    """From the clause's start to its body's: where its ``as`` name is written."""
    first = handler.body[0]
    return (handler.lineno, handler.col_offset), (first.lineno, first.col_offset)


def check_tag013(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile, scopes = ctx.tagfile, ctx.scopes
    assert tagfile is not None and scopes is not None
    for site in tagfile.sites():
        handlers = {
            node.name: _names_at(node)
            for node, child in in_same_scope(tagfile, site)
            if isinstance(node, ast.ExceptHandler) and node.name and in_body(node, child)
        }
        if not handlers:
            continue
        for interp in site.interpolations():
            for name in reads(tagfile, interp):
                span = handlers.get(name.id)
                if span is None:
                    continue
                start, end = span
                if any(start <= (b.line, b.col) < end for b in scopes.bindings(name.lineno, name.col_offset)):
                    yield ExceptTarget.at(name, name=name.id)
