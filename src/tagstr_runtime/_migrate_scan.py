"""What the migration needs to know about a module: scopes, names and tags.

The module is read as CPython reads its placeholder text (each tag string
overwritten by a call at the same positions, ``_placeholder.py``), so every
expression of every field sits at its own line and column in an ordinary
``ast`` tree.  A module that already holds t-strings is read on 3.11-3.13 with
their ``t`` prefixes swapped for ``f`` (same lengths, same fields).

Tags are judged from their definitions in the same module only: a tag
imported from elsewhere is unknown, and the command line says what it is.
"""

from __future__ import annotations

import ast
import sys
from bisect import bisect_left, bisect_right
from typing import Iterator, NamedTuple, Union

from tagstr_runtime._model import TagString
from tagstr_runtime._parser import parse
from tagstr_runtime._placeholder import placeholder_text, splice
from tagstr_runtime._source import SourceText
from tagstr_runtime.syntax._words import TEMPLATE_PREFIXES

__all__ = ["ModuleScan", "TagInfo", "scan"]

Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
              ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp]
_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: calls that only look at a tag's arguments, never keep them
_INSPECTING_CALLS = frozenset(
    ["len", "isinstance", "enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter", "any", "all", "bool"]
)


class TagInfo(NamedTuple):
    """What the module says about a tag; ``accepts_template`` None: not defined here."""

    accepts_template: bool | None
    lazy: str | None = None  # why its values may be read after it returns
    reads_raw: bool = False
    line: int = 0  # of its definition

    @property
    def known(self) -> bool:
        return self.accepts_template is not None


UNKNOWN = TagInfo(None)
LIBRARY = TagInfo(True)


class ModuleScan:
    """The tree of one module and the scopes around each tag string."""

    def __init__(self, text: str, tags: tuple[TagString, ...], filename: str) -> None:
        self.source = SourceText(text)
        analysable, swapped = _analysable(text, tags, filename)
        try:
            self.tree = ast.parse(analysable, filename)
        except SyntaxError as exc:
            if swapped and sys.version_info < (3, 12):
                exc.msg = f"{exc.msg} (3.11 cannot read these t-strings: run the migration on Python 3.12+)"
            raise
        self.scopes_at: dict[int, tuple[Scope, ...]] = {}  # tag-string start -> scopes, innermost last
        starts = {self.source.line_col_byte(t.span.start): t.span.start for top in tags for t in top.walk()}
        self.nodes: list[tuple[int, ast.AST, tuple[Scope, ...]]] = []  # (offset, node, scopes) by offset
        self._walk(self.tree, (), starts)
        self.nodes.sort(key=lambda item: item[0])
        self._offsets = [offset for offset, _, _ in self.nodes]
        self._bindings: dict[int, dict[str, list[ast.AST]]] = {}

    def _walk(self, root: ast.AST, scopes: tuple[Scope, ...], starts: dict[tuple[int, int], int]) -> None:
        todo: list[tuple[ast.AST, tuple[Scope, ...]]] = [(root, scopes)]
        while todo:
            node, around = todo.pop()
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                start = starts.get((node.lineno, node.col_offset))
                if start is not None:
                    self.scopes_at[start] = around
            if isinstance(node, (ast.Name, ast.NamedExpr, ast.Call)):
                self.nodes.append((self.source.offset(node.lineno, node.col_offset), node, around))
            inner = (*around, node) if isinstance(node, _SCOPES) else around
            for child in ast.iter_child_nodes(node):
                # decorators, defaults and a class's bases are evaluated in the enclosing scope
                outer = isinstance(node, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)) and not _in_body(node, child)
                todo.append((child, around if outer else inner))

    def nodes_in(self, start: int, end: int) -> Iterator[tuple[ast.AST, tuple[Scope, ...]]]:
        """The names, assignment expressions and calls that start in ``[start, end)``."""
        for index in range(bisect_left(self._offsets, start), bisect_right(self._offsets, end - 1)):
            _, node, scopes = self.nodes[index]
            yield node, scopes

    # -- bindings and tags ---------------------------------------------------------

    def bindings(self, scope: Scope) -> dict[str, list[ast.AST]]:
        found = self._bindings.get(id(scope))
        if found is None:
            found = self._bindings[id(scope)] = _bindings_of(scope)
        return found

    def tag_info(self, tag: TagString) -> TagInfo:
        scopes = self.scopes_at.get(tag.span.start, (self.tree,))
        return self.resolve(tag.name, scopes, self.source.pos(tag.span.start).line)

    def resolve(self, name: str, scopes: tuple[Scope, ...], line: int, depth: int = 0) -> TagInfo:
        binding = self.binding(name, scopes, line)
        if binding is None or depth > 8:
            return UNKNOWN
        node, where = binding
        if isinstance(node, _FUNCTIONS):
            decorators = {_called_name(d) for d in node.decorator_list}
            if "template_tag" in decorators:
                return LIBRARY
            return TagInfo("accepts_template" in decorators, _lazy(node), _reads_raw(node), node.lineno)
        if isinstance(node, ast.ClassDef):
            return TagInfo(False, "a class keeps its arguments in the instance", _reads_raw(node), node.lineno)
        if isinstance(node, ast.Assign):
            value = node.value
            if isinstance(value, ast.Name):
                return self.resolve(value.id, where, node.lineno, depth + 1)
            if isinstance(value, ast.Call) and len(value.args) == 1:
                called = _called_name(value.func)
                if called == "template_tag":
                    return LIBRARY
                if called == "accepts_template" and isinstance(value.args[0], ast.Name):
                    inner = self.resolve(value.args[0].id, where, node.lineno, depth + 1)
                    return inner._replace(accepts_template=True) if inner.known else TagInfo(True)
        return UNKNOWN

    def binding(self, name: str, scopes: tuple[Scope, ...], line: int) -> tuple[ast.AST, tuple[Scope, ...]] | None:
        """The statement binding ``name`` as seen from the innermost scope, and its scopes."""
        for index in range(len(scopes) - 1, -1, -1):
            scope = scopes[index]
            if isinstance(scope, ast.ClassDef) and index != len(scopes) - 1:
                continue  # a class body is not visible from the scopes inside it
            nodes = self.bindings(scope).get(name)
            if nodes:
                before = [n for n in nodes if getattr(n, "lineno", 0) <= line]
                return (before or nodes)[-1], scopes[: index + 1]
        return None


def _in_body(node: ast.AST, child: ast.AST) -> bool:
    if isinstance(node, ast.Lambda):
        return child is node.body
    return child in getattr(node, "body", ())


def _bindings_of(scope: Scope) -> dict[str, list[ast.AST]]:
    found: dict[str, list[ast.AST]] = {}
    todo: list[ast.AST] = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            found.setdefault(node.name, []).append(node)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        found.setdefault(name.id, []).append(node)
            todo.append(node.value)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.setdefault((alias.asname or alias.name).split(".")[0], []).append(node)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr)) or (
            isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        ):
            for name in ast.walk(node) if not isinstance(node, ast.Name) else (node,):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    found.setdefault(name.id, []).append(node)
        todo.extend(ast.iter_child_nodes(node))
    for nodes in found.values():
        nodes.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    return found


def _called_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _reads_raw(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "raw" for n in ast.walk(node))


def _lazy(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """Why the tag's values may be read after it returns, or None.

    A heuristic: the ``*args`` may only be looped over, indexed, unpacked,
    measured or tested; a nested function or lambda may not touch them or a
    ``getvalue``.
    """
    vararg = function.args.vararg.arg if function.args.vararg else None
    if vararg is None:
        return "it has no *args"
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(function):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for statement in function.body:
        for node in ast.walk(statement):
            if isinstance(node, (*_FUNCTIONS, ast.Lambda, ast.ClassDef)) and any(
                (isinstance(n, ast.Name) and n.id in (vararg, "getvalue"))
                or (isinstance(n, ast.Attribute) and n.attr == "getvalue")
                for n in ast.walk(node)
            ):
                return f"a nested function or class uses {vararg!r} or getvalue"
            if isinstance(node, ast.Name) and node.id == vararg and isinstance(node.ctx, ast.Load):
                if not _inspected(node, parents.get(id(node))):
                    return f"it passes on or keeps {vararg!r} (line {node.lineno})"
    return None


def _inspected(node: ast.Name, parent: ast.AST | None) -> bool:
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is node
    if isinstance(parent, ast.Subscript):
        return parent.value is node
    if isinstance(parent, ast.Call):
        return _called_name(parent.func) in _INSPECTING_CALLS and node in parent.args
    if isinstance(parent, ast.Assign):
        return all(isinstance(t, (ast.Tuple, ast.List)) for t in parent.targets)
    return isinstance(parent, (ast.If, ast.While, ast.BoolOp, ast.UnaryOp, ast.Compare, ast.Assert, ast.IfExp))


def _analysable(text: str, tags: tuple[TagString, ...], filename: str) -> tuple[str, bool]:
    """The placeholder text; before 3.14 with each t-string's prefix swapped for f
    (and whether there was one)."""
    templates: list[TagString] = []
    if sys.version_info < (3, 14):
        templates = [t for t in parse(text, filename, template_strings=False).tag_strings for t in t.walk()
                     if t.tag.lower() in TEMPLATE_PREFIXES]
        templates.sort(key=lambda t: t.tag_span.start)
        text = splice(text, templates, lambda t: t.tag_span, lambda t: t.tag.replace("t", "f").replace("T", "F"))
    return placeholder_text(text, tags), bool(templates)


def scan(text: str, tags: tuple[TagString, ...], filename: str) -> ModuleScan:
    return ModuleScan(text, tags, filename)
