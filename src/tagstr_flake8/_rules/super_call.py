"""TAG011: ``super()`` without arguments in an interpolation.

Zero-argument ``super()`` finds its arguments in the frame of the function
that calls it: the method's ``__class__`` cell and its first argument.  An
interpolation runs in a lambda of its own, which has no argument, so
reading its value always raises ``RuntimeError: super(): no arguments``
(checked on 3.11 to 3.13).  Format specs are evaluated eagerly, in the
method itself, and are not concerned; neither is ``super(Cls, self)``.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._analysis import Interp, TagFile, TagSite
from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import ArgumentlessSuper, TagMessage


def _bare_super_calls(tagfile: TagFile, interp: Interp) -> Iterator[ast.Call]:
    """Calls of ``super()`` evaluated by the interpolation's own lambda (not in a lambda
    written inside it, nor in a nested tag string: a site of its own)."""
    todo: list[ast.AST] = [interp.func.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "super"
            and not node.args
            and not node.keywords
        ):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _class_name(site: TagSite) -> str:
    for node in reversed(site.chain):
        if isinstance(node, ast.ClassDef):
            return node.name
    return "Cls"


def check_tag011(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    scopes = ctx.scopes
    assert scopes is not None
    for site in tagfile.sites():
        for interp in site.interpolations():
            if "super" not in interp.field.expr:  # the text tells, without a walk
                continue
            for call in _bare_super_calls(tagfile, interp):
                assert isinstance(call.func, ast.Name)
                if not scopes.is_bound(call.func):
                    yield ArgumentlessSuper.at(call, expr=interp.field.expr, owner=_class_name(site))
