"""What one scope of a desugared tree binds, and where: the tables ``scopes`` resolves names with.

A scope is a node and a kind (``Step``): the module, a function or a lambda
the user wrote, a class body, a comprehension, or the annotation scope of
type parameters (3.12+; a generic def or class has two scopes).  Its table
lists each name it binds with the position of the binding (the target name,
the ``def``, the import statement, the parameter...) and from where a read in
the same scope sees it: the end of the statement, ``for`` target, ``with``
item or assignment expression that binds, so that ``x = x + 1`` and a class
body reading a name it assigns further down read an earlier binding.

Lambdas the desugaring generated for interpolations are transparent: their
bodies belong to the scope around the tag string (the interpolation read
eagerly, in place, as in the file's f-string twin).  Everything else follows
CPython's symbol table: nested defs, classes, lambdas and comprehensions are
not entered, except for what they evaluate where they stand (decorators,
defaults, annotations, bases, a comprehension's first iterable) and for an
assignment expression in a comprehension, which binds here (PEP 572).
``del`` makes a name local without binding it; ``global`` and ``nonlocal``
move the scope's bindings of the name to the scope they declare.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Iterator, NamedTuple

from tagstr_runtime.syntax.source import SourceText

__all__ = [
    "ANNOTATION", "CLASS", "COMPREHENSION", "FUNCTION", "MODULE", "Bound", "Position", "ScopeTable",
    "Step", "collect", "end", "paths_to_declarations", "start", "type_params",
]

MODULE, FUNCTION, CLASS, COMPREHENSION, ANNOTATION = "module", "function", "class", "comprehension", "annotation"
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_IMPORTS = (ast.Import, ast.ImportFrom)
TYPE_ALIAS: tuple[type[ast.AST], ...] = tuple(getattr(ast, name) for name in ("TypeAlias",) if hasattr(ast, name))

Position = tuple[int, int]  # (line, byte column), as ``ast`` has them
_ALWAYS: Position = (0, 0)  # parameters, comprehension targets: seen by every read of the scope


class Step(NamedTuple):
    """A scope: the node that makes it and its kind."""

    node: ast.AST
    kind: str


class Bound(NamedTuple):
    at: Position  # where the binding is written
    visible: Position  # from where a read in the same scope sees it
    #: what binds: the assignment, ``for``, ``with`` item, assignment expression or type
    #: alias holding the target, the def, class, import, parameter, handler or pattern
    node: ast.AST


class ScopeTable:
    """The names one scope binds."""

    __slots__ = ("kind", "names", "local", "declared_global", "declared_nonlocal", "moved")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.names: dict[str, list[Bound]] = {}
        self.local: set[str] = set()  # made local by a ``del``, which binds nothing
        self.declared_global: set[str] = set()
        self.declared_nonlocal: set[str] = set()
        #: this scope's bindings of the names it declares global or nonlocal
        self.moved: dict[str, list[Bound]] = {}

    def binds(self, name: str) -> bool:
        return name in self.names or name in self.local

    def add(self, name: str, at: Position, visible: Position, node: ast.AST) -> None:
        self.names.setdefault(name, []).append(Bound(at, visible, node))


def collect(step: Step, source: SourceText | None, generated: Callable[[ast.AST], bool]) -> ScopeTable:
    """The table of ``step``; ``generated`` tells the desugaring's lambdas from the user's."""
    table = ScopeTable(step.kind)
    node = step.node
    walker = _Walker(table, source, generated)
    if step.kind == ANNOTATION:
        for param in type_params(node):
            table.add(param.name, start(param), start(param), param)  # type: ignore[attr-defined]
        return table
    if step.kind == COMPREHENSION:
        assert isinstance(node, COMPREHENSIONS)
        walker.walk([(generator.target, _ALWAYS, generator) for generator in node.generators])
        return table
    if step.kind == FUNCTION:
        assert isinstance(node, (*FUNCTIONS, ast.Lambda))
        arguments = node.args
        for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                    arguments.vararg, arguments.kwarg):
            if arg is not None:
                table.add(arg.arg, start(arg), _ALWAYS, arg)
        body = [node.body] if isinstance(node, ast.Lambda) else node.body
        walker.walk([(statement, None, None) for statement in body])
    else:  # the module, a class body
        walker.walk([(statement, None, None) for statement in getattr(node, "body", ())])
    for name in table.declared_global | table.declared_nonlocal:
        moved = table.names.pop(name, None)
        if moved:
            table.moved[name] = moved
        table.local.discard(name)
    return table


class _Walker:
    def __init__(self, table: ScopeTable, source: SourceText | None, generated: Callable[[ast.AST], bool]) -> None:
        self.table = table
        self.source = source
        self.generated = generated

    def walk(self, roots: list[tuple[ast.AST, Position | None, ast.AST | None]]) -> None:
        """Record the bindings ``roots`` make in the table, not entering nested scopes.

        Each node comes with where the bindings it makes become visible (None:
        at the end of the name itself) and what binds them (None: the name
        itself), both set by the statement or expression that binds.
        """
        table = self.table
        todo = roots[::-1]
        while todo:
            node, visible, owner = todo.pop()
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Store):
                    table.add(node.id, (node.lineno, node.col_offset), visible or end(node), owner or node)
                elif isinstance(node.ctx, ast.Del):
                    table.local.add(node.id)
                continue
            children: list[ast.AST] | None = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                visible = end(node)
                owner = node
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                todo.append((node.target, end(node.target), node))
                children = [node.iter, *node.body, *node.orelse]
            elif isinstance(node, ast.withitem):
                if node.optional_vars is not None:
                    todo.append((node.optional_vars, end(node.optional_vars), node))
                children = [node.context_expr]
            elif isinstance(node, (*FUNCTIONS, ast.ClassDef)):
                table.add(node.name, (node.lineno, node.col_offset), end(node), node)
                children = _outside_parts(node)
            elif isinstance(node, ast.Lambda):
                children = [node.body] if self.generated(node) else _outside_parts(node)
            elif isinstance(node, COMPREHENSIONS):
                todo.extend((named.target, end(named), named) for named in self._walrus_in(node))
                children = [node.generators[0].iter]
            elif isinstance(node, _IMPORTS):
                for alias in node.names:
                    if alias.name != "*":
                        table.add((alias.asname or alias.name).partition(".")[0], start(node), end(node), node)
                continue
            elif isinstance(node, ast.Global):
                table.declared_global.update(node.names)
                continue
            elif isinstance(node, ast.Nonlocal):
                table.declared_nonlocal.update(node.names)
                continue
            elif TYPE_ALIAS and isinstance(node, TYPE_ALIAS):
                todo.append((node.name, end(node), node))  # type: ignore[attr-defined]
                continue  # its parameters and value are in an annotation scope
            elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping)):
                name = node.rest if isinstance(node, ast.MatchMapping) else node.name
                if name is not None:
                    at = self._written_at(node, name)
                    table.add(name, at, (at[0], at[1] + len(name.encode("utf-8"))), node)
            if children is None:
                children = list(ast.iter_child_nodes(node))
            todo.extend((child, visible, owner) for child in reversed(children))

    def _walrus_in(self, comprehension: ast.AST) -> Iterator[ast.NamedExpr]:
        """Assignment expressions in a comprehension (nested ones too): they bind outside it."""
        todo = [comprehension]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.NamedExpr):
                yield node
            if isinstance(node, (*FUNCTIONS, ast.ClassDef)) or (
                isinstance(node, ast.Lambda) and not self.generated(node)
            ):
                continue
            todo.extend(ast.iter_child_nodes(node))

    def _written_at(self, node: ast.AST, name: str) -> Position:
        """Where the name of an ``except ... as`` or a ``match`` capture is written (a str in ``ast``)."""
        source = self.source
        if source is None:
            return start(node)
        if isinstance(node, ast.ExceptHandler):
            after = node.type if node.type is not None else node
            first = source.offset(*end(after))
        else:
            first = source.offset(*start(node))
        last = source.offset(*end(node))
        written = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", source.text[first:last])]
        if not written:
            return start(node)
        # ``except E as name``: the first after the type; a pattern ends with the name it binds
        offset = written[0] if isinstance(node, ast.ExceptHandler) else written[-1]
        return source.line_col_byte(first + offset)


def paths_to_declarations(tree: ast.AST) -> Iterator[list[ast.AST]]:
    """The path from the module to each ``global`` / ``nonlocal`` statement."""
    path: list[ast.AST] = []

    def visit(node: ast.AST) -> Iterator[list[ast.AST]]:
        path.append(node)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            yield list(path)
        elif isinstance(node, (ast.stmt, ast.Module, ast.ExceptHandler, ast.match_case)):
            for child in ast.iter_child_nodes(node):
                yield from visit(child)
        path.pop()

    return visit(tree)


def end(node: ast.AST) -> Position:
    return node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]


def start(node: ast.AST) -> Position:
    """Where the text of a node starts: a decorated def or class starts at its first decorator."""
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        first = decorators[0]
        return min((first.lineno, first.col_offset), (node.lineno, node.col_offset))  # type: ignore[attr-defined]
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def type_params(node: ast.AST) -> list[ast.AST]:
    params: list[ast.AST] = getattr(node, "type_params", None) or []
    return params


def _outside_parts(node: ast.AST) -> list[ast.AST]:
    """What a def, class or lambda evaluates in the scope it stands in."""
    parts: list[ast.AST] = list(getattr(node, "decorator_list", ()))
    if isinstance(node, ast.ClassDef):
        if not type_params(node):
            parts += [*node.bases, *node.keywords]
        return parts
    assert isinstance(node, (*FUNCTIONS, ast.Lambda))
    arguments = node.args
    parts += [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
    if not isinstance(node, ast.Lambda) and not type_params(node):
        every = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg)
        parts += [arg.annotation for arg in every if arg is not None and arg.annotation is not None]
        if node.returns is not None:
            parts.append(node.returns)
    return parts
