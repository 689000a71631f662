"""TAG003: a tag bound to a name that is a string prefix (``f``, ``r``, ``b``, ``rb``...).

``f"..."`` is an f-string and ``rb"..."`` a bytes literal whatever ``f`` or
``rb`` is bound to (SPEC 1.2), so such a tag can never be used as one.

What counts as a tag is what ``name"..."`` would call with the tag string's
arguments: a function or lambda taking ``*args`` written as a tag function;
a class whose ``__init__`` (or ``__new__``) is one (a *class tag*: the tag
string constructs it); an instance of a class whose ``__call__`` is one
(``r = Render()``, ``f: Render = ...``: the instance is the tag, not the
class); another name for a tag defined here (``rb = html``); a name annotated
``TagFunction``.  A function is written as a tag function when its ``*args``
annotation mentions a tag's argument types (``Decoded``, ``Interpolation``,
``TagFunction``, whoever defines them, or the module's look-alikes and
aliases: ``_tag_types``), or, with ``*args`` unannotated or annotated with
the PEP draft's widened ``str | tuple``, when its body does (or calls
``getvalue``): an annotation that names anything else (``*buffers:
io.BytesIO``, whose items have an io ``getvalue``) says it is not one.

This rule runs on every file (a module defining tags may have no tag string),
so it visits statements only, never expressions, and looks closer only at a
definition, or an assignment of a prefix name.
"""

from __future__ import annotations

import ast
import sys
from functools import cached_property
from typing import Iterator

from tagstr_runtime.frontend import STRING_PREFIXES, TEMPLATE_PREFIXES

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import PrefixBinding, TagMessage
from tagstr_flake8._rules._tag_types import is_widened, names_in, tag_types

# lower case, as the runtime lists them; template prefixes are prefixes from 3.14 on (SPEC 1.4)
PREFIXES = (STRING_PREFIXES - {""}) | (TEMPLATE_PREFIXES if sys.version_info >= (3, 14) else frozenset())


def _mentions(node: ast.AST, names: frozenset[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in names:
            return True
    return False


def _is_tag_function(node: ast.AST, module: _Module) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    vararg = node.args.vararg
    if vararg is None:
        return False
    words = module.words  # only now: most functions have no *args
    if vararg.annotation is not None:  # the annotation says what *args holds
        said = names_in(vararg.annotation)
        if said & words:
            return True
        if not is_widened(said):
            return False
    return _mentions(node, words | {"getvalue"})


def _method(node: ast.ClassDef, names: tuple[str, ...], module: _Module) -> bool:
    """A method of ``node`` among ``names`` is written as a tag function."""
    return any(
        isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
        and item.name in names
        and _is_tag_function(item, module)
        for item in node.body
    )


class _Tags:
    """The tags the module defines, by name: what a later ``rb = name`` or
    ``r = Name()`` makes a tag."""

    def __init__(self, module: _Module) -> None:
        self.module = module
        self.tags: set[str] = set()  # functions and class tags
        self.callable_classes: set[str] = set()  # classes whose instances are tags
        for node in module.statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_tag_function(node, module):
                self.tags.add(node.name)
            elif isinstance(node, ast.ClassDef):
                if _method(node, ("__init__", "__new__"), module):
                    self.tags.add(node.name)
                if _method(node, ("__call__",), module):
                    self.callable_classes.add(node.name)

    def is_tag_value(self, value: ast.expr) -> bool:
        if _is_tag_function(value, self.module):
            return True
        if isinstance(value, ast.Name):
            return value.id in self.tags
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in self.callable_classes
        )

    def is_tag_annotation(self, annotation: ast.expr) -> bool:
        if "TagFunction" in names_in(annotation):
            return True
        return isinstance(annotation, ast.Name) and annotation.id in self.callable_classes


def _is_prefix(name: str) -> bool:
    return name.lower() in PREFIXES


# the statements that hold statements: only these are looked into (this rule runs on every file)
_COMPOUND = tuple(
    getattr(ast, name) for name in (
        "FunctionDef", "AsyncFunctionDef", "ClassDef", "For", "AsyncFor", "While", "If", "With", "AsyncWith",
        "Try", "TryStar", "Match",
    ) if hasattr(ast, name)
)


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement, nested ones included, without visiting expressions."""
    found: list[ast.stmt] = []
    todo = [body]
    while todo:
        block = todo.pop()
        found += block
        for stmt in block:
            if not isinstance(stmt, _COMPOUND):
                continue
            for field in ("body", "orelse", "finalbody"):
                nested = getattr(stmt, field, None)
                if nested:
                    todo.append(nested)
            for holder in getattr(stmt, "handlers", ()) or getattr(stmt, "cases", ()):
                todo.append(holder.body)
    return found


class _Module:
    """What the rule learns about the module, each only when a prefix name asks."""

    def __init__(self, statements: list[ast.stmt]) -> None:
        self.statements = statements

    @cached_property
    def words(self) -> frozenset[str]:
        return tag_types(self.statements)

    @cached_property
    def tags(self) -> _Tags:
        return _Tags(self)


def check_tag003(ctx: FileContext) -> Iterator[TagMessage]:
    # this rule runs on every file: visit statements only (no expressions),
    # and look closer only at a definition or assignment of a prefix name
    if not isinstance(ctx.tree, ast.Module):
        return
    statements = _statements(ctx.tree.body)
    module = _Module(statements)
    for node in statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if _is_prefix(node.name) and _is_tag_function(node, module):
                yield PrefixBinding.at(node, name=node.name)
        elif isinstance(node, ast.ClassDef):
            if _is_prefix(node.name) and _method(node, ("__init__", "__new__"), module):
                yield PrefixBinding.at(node, name=node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t for t in targets if isinstance(t, ast.Name) and _is_prefix(t.id)]
            if not named:
                continue
            tags = module.tags
            tagged = (node.value is not None and tags.is_tag_value(node.value)) or (
                isinstance(node, ast.AnnAssign) and tags.is_tag_annotation(node.annotation)
            )
            if tagged:
                for target in named:
                    yield PrefixBinding.at(target, name=target.id)
