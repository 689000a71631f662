"""TAG003: a tag function bound to a name that is a string prefix (``f``, ``r``, ``b``, ``rb``...).

``f"..."`` is an f-string and ``rb"..."`` a bytes literal whatever ``f`` or
``rb`` is bound to (SPEC 1.2), so such a tag can never be used as one.  A
binding counts as a tag function when it is written as one: a function (or
a class's ``__call__``, or a lambda assigned to the name) taking ``*args``
whose signature or body mentions ``Decoded``, ``Interpolation`` or
``getvalue``, or a name annotated with ``TagFunction``.

This rule runs on every file (a module defining tags may have no tag string),
so it visits statements only, never expressions, and looks closer only at a
definition or an assignment of a prefix name.
"""

from __future__ import annotations

import ast
import sys
from typing import Iterator

from tagstr_runtime.frontend import STRING_PREFIXES, TEMPLATE_PREFIXES

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import PrefixBinding, TagMessage

# lower case, as the runtime lists them; template prefixes are prefixes from 3.14 on (SPEC 1.4)
PREFIXES = (STRING_PREFIXES - {""}) | (TEMPLATE_PREFIXES if sys.version_info >= (3, 14) else frozenset())
_EVIDENCE = frozenset(["Decoded", "Interpolation", "getvalue", "TagFunction"])


def _mentions_tag_types(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in _EVIDENCE:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in _EVIDENCE:
            return True
    return False


def _is_tag_function(node: ast.AST) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return node.args.vararg is not None and _mentions_tag_types(node)
    if isinstance(node, ast.ClassDef):
        return any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            and item.name == "__call__"
            and _is_tag_function(item)
            for item in node.body
        )
    return False


def _is_prefix(name: str) -> bool:
    return name.lower() in PREFIXES


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones included, without visiting expressions."""
    todo = [body]
    while todo:
        for stmt in todo.pop():
            yield stmt
            for field in ("body", "orelse", "finalbody"):
                nested = getattr(stmt, field, None)
                if isinstance(nested, list):
                    todo.append(nested)
            for holder in getattr(stmt, "handlers", ()) or getattr(stmt, "cases", ()):
                todo.append(holder.body)


def check_tag003(ctx: FileContext) -> Iterator[TagMessage]:
    # this rule runs on every file: visit statements only (no expressions),
    # and look closer only at a definition or assignment of a prefix name
    if not isinstance(ctx.tree, ast.Module):
        return
    for node in _statements(ctx.tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if _is_prefix(node.name) and _is_tag_function(node):
                yield PrefixBinding.at(node, name=node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t for t in targets if isinstance(t, ast.Name) and _is_prefix(t.id)]
            if not named:
                continue
            tagged = (node.value is not None and _is_tag_function(node.value)) or (
                isinstance(node, ast.AnnAssign) and _mentions_tag_types(node.annotation)
            )
            if tagged:
                for target in named:
                    yield PrefixBinding.at(target, name=target.id)
