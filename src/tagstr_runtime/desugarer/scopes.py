"""Which binding a name refers to: CPython's scope rules on a desugared tree.

The one scope index of the project: the flake8 rules, the hazard findings
(``findings``) and the migration ask it.  An interpolation's names resolve
as if it were evaluated eagerly, in place (as in the file's f-string twin):
the lambdas the desugaring generated are *transparent* (``generated``;
``interpolation_call.is_thunk`` tells them from the source's), and an
interpolation's names resolve in the scope around the tag string.  Every
other scope follows CPython's rules: functions and lambdas, class bodies
(invisible from the scopes nested in them), comprehensions (the first
iterable evaluated outside, an assignment expression binding in the
enclosing function), ``global`` / ``nonlocal``, the annotation scopes of
type parameters (3.12+), and every binding statement (assignments,
``for``/``with``/``except`` targets, imports, ``def``/``class``, ``match``
captures, ``del``).

A function's name refers to every binding of it in the function (a loop
sees the later ones on its next pass); the module and a class body run
once, top to bottom, so there a read sees the bindings written before it
(see ``ScopeIndex.bindings``).  It is lazy: only the scopes around the names
asked about are looked at, each once (``scope_tables``).  It replaced
libcst's ``ScopeProvider`` on the placeholder text, which cost several times
all of flake8's other checks on a large module and knew less of CPython's
rules (docs/decisions/0104-scope-analysis-from-the-lint-tree.md).  Over 400 lines and not split: every question it
answers walks the same path and the same lazily built tables (the tables'
construction is in ``scope_tables``, what reaches a read in ``reaching``).
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from typing import Callable, Iterable, Iterator, NamedTuple

from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.desugarer.scope_tables import (
    ANNOTATION, CLASS, COMPREHENSION, COMPREHENSIONS, FUNCTION, FUNCTIONS, MODULE, TYPE_ALIAS, Bound,
    Position, ScopeTable, Step, collect, paths_to_declarations, start, type_params,
)

__all__ = ["Binding", "ReadScope", "ScopeIndex"]

_STATEMENT_LISTS = frozenset(["body", "orelse", "finalbody", "handlers"])


class Binding(NamedTuple):
    """One assignment a name may refer to."""

    line: int
    col: int  # byte column of the node that binds (the target name, the def, the import...)
    in_class: bool  # bound in a class body
    same_scope: bool  # bound in the scope the name is read in (eagerly)
    #: what binds (``scope_tables.Bound.node``): the assignment, def, class, import...
    node: ast.AST
    module_level: bool = False  # bound in the module's own scope


class ReadScope(NamedTuple):
    """Where a read of a name is looked up, with every binding there (``ScopeIndex.read_scope``):
    what ``analysis.reaching`` needs to tell which bindings may reach the read at run time."""

    name: str
    path: tuple[ast.AST, ...]  # from the module down to the node read
    scope: ast.AST  # the node of the scope the name is found in
    kind: str  # its kind (``scope_tables.MODULE``, ``FUNCTION``, ``CLASS``...)
    same_scope: bool  # read in that scope itself (else from a nested one, when that one runs)
    bindings: tuple[Binding, ...]  # every binding of the name in that scope, in source order
    #: the binding nodes written in other scopes (``global`` / ``nonlocal``): they may run any time
    moved: frozenset[int]
    #: from where a read in the scope sees each binding (``scope_tables.Bound.visible``), by binding
    visible: tuple[tuple[int, int], ...] = ()


def _nothing_generated(node: ast.AST) -> bool:
    return False


class ScopeIndex:
    """Resolves the names of one desugared tree; each scope's table is built on first use.

    ``generated``: whether a node is a lambda the desugaring made for an
    interpolation (transparent: its body is read in the scope around it).
    ``source``: the tree's text, for the exact positions of the names
    ``except ... as`` and ``match`` bind (without it: their statements').
    """

    def __init__(
        self, tree: ast.AST, source: SourceText | None = None,
        generated: Callable[[ast.AST], bool] = _nothing_generated,
    ) -> None:
        self._tree = tree
        self._source = source
        self._generated = generated
        self._tables: dict[tuple[int, str], ScopeTable] = {}
        self._starts: dict[int, list[Position]] = {}  # statement list -> start positions
        self._moved_to: dict[tuple[int, str], dict[str, list[Bound]]] | None = None

    # the API of the rules ------------------------------------------------------------

    def bindings(self, line: int, col_byte: int) -> list[Binding]:
        """The assignments the name read at (line, byte column) may refer to.

        A function's local refers to each binding in the function (a loop
        sees the later ones on its next pass).  A class body or the module
        runs once, top to bottom, and looks each name up when it reads it:
        there only the bindings written before the read count, and with none
        (a class body reading a name it assigns further down) the name is
        looked up outside, as the class body does at run time.
        """
        read = (line, col_byte)
        path = self._path_to(read, _reads_name)
        if path is None:
            return []
        name = path[-1]
        assert isinstance(name, ast.Name)
        return self._lookup(name.id, path, read)

    def bindings_of(self, name: str, line: int, col_byte: int) -> list[Binding]:
        """The assignments ``name`` would refer to, read by the expression that starts at
        (line, byte column), looked up as ``bindings`` does: which ``R`` or ``t`` a string
        written ``R"..."`` or ``t"..."`` there was meant to call.  Empty: no expression
        starts there, or ``name`` is a builtin or unbound."""
        read = (line, col_byte)
        path = self._path_to(read, _is_expression)
        return [] if path is None else self._lookup(name, path, read)

    def read_binding(self, line: int, col_byte: int, name: str | None = None) -> Binding | None:
        """The one binding a read at (line, byte column) is followed to (the tag resolver's
        choice): the last one written before the read, else the last one (a loop's later
        binding).  ``name``: read by the expression there (``bindings_of``), else the name
        read there (``bindings``).  None: a builtin, or nothing."""
        found = self.bindings(line, col_byte) if name is None else self.bindings_of(name, line, col_byte)
        before = [b for b in found if (b.line, b.col) <= (line, col_byte)]
        return (before or found)[-1] if found else None

    def enclosing(self, line: int, col_byte: int) -> tuple[str, ...]:
        """The names of the functions and classes whose scopes hold the node (a statement,
        an expression, a parameter) that starts at (line, byte column), outermost first
        (``<lambda>`` for a lambda the user wrote): the path of a qualified name
        (``views.render.html``)."""
        path = self._path_to((line, col_byte), _is_statement_or_expression)
        if path is None:
            return ()
        steps = self._chain(path)
        if isinstance(path[-1], ast.arg) and len(path) >= 3:  # a parameter: of the function's scope
            steps.append(Step(path[-3], FUNCTION))
        return tuple(getattr(step.node, "name", "<lambda>") for step in steps if step.kind in (FUNCTION, CLASS))

    def read_scope(self, line: int, col_byte: int, name: str | None = None) -> ReadScope | None:
        """The scope a read at (line, byte column) finds its name in, with all its bindings
        (``bindings`` keeps the ones a module or class body has written so far).  ``name``:
        read by the expression there, as ``bindings_of``.  None: a builtin, or nothing."""
        read = (line, col_byte)
        path = self._path_to(read, _reads_name if name is None else _is_expression)
        if path is None:
            return None
        if name is None:
            last = path[-1]
            assert isinstance(last, ast.Name)
            name = last.id
        chain = self._chain(path)
        innermost = len(chain) - 1
        found = self._resolve(name, chain, innermost)
        if found is None:
            return None
        if found == chain[innermost] and found.kind in (CLASS, MODULE):
            if not any(b.visible <= read for b in self._bound(found, name)):
                found = self._resolve(name, chain, innermost - 1)  # looked up outside, as ``bindings``
                if found is None:
                    return None
        moved = frozenset(id(b.node) for b in self._moved_into(found).get(name, ()))
        bound = sorted(self._bound(found, name), key=_at)
        same = found == chain[innermost]
        bindings = tuple(Binding(*b.at, found.kind == CLASS, same, b.node, found.kind == MODULE) for b in bound)
        return ReadScope(name, tuple(path), found.node, found.kind, same, bindings, moved,
                         tuple(b.visible for b in bound))

    def _lookup(self, name: str, path: list[ast.AST], read: Position) -> list[Binding]:
        chain = self._chain(path)
        innermost = len(chain) - 1
        found = self._resolve(name, chain, innermost)
        if found is None:
            return []
        bound = self._bound(found, name)
        if found == chain[innermost] and found.kind in (CLASS, MODULE):
            earlier = [b for b in bound if b.visible <= read]
            if not earlier and bound:
                found = self._resolve(name, chain, innermost - 1)
                if found is None:
                    return []
                earlier = self._bound(found, name)
            bound = earlier
        same = found == chain[innermost]
        in_class = found.kind == CLASS
        module_level = found.kind == MODULE
        return [Binding(*b.at, in_class, same, b.node, module_level) for b in bound]

    def module_scope(self, name: str) -> ReadScope:
        """The module's own scope as a read from outside sees it (``from module import name``):
        every binding of ``name`` there, in source order, as ``read_scope`` gives them."""
        step = Step(self._tree, MODULE)
        moved = frozenset(id(b.node) for b in self._moved_into(step).get(name, ()))
        bound = sorted(self._bound(step, name), key=_at)
        bindings = tuple(Binding(*b.at, False, False, b.node, True) for b in bound)
        return ReadScope(name, (self._tree,), self._tree, MODULE, False, bindings, moved,
                         tuple(b.visible for b in bound))

    def module_bindings(self, name: str) -> list[Binding]:
        """Every binding of ``name`` in the module's own scope (``global`` declarations
        included), in source order: what ``from module import name`` may get."""
        step = Step(self._tree, MODULE)
        return [Binding(*b.at, False, True, b.node, True) for b in sorted(self._bound(step, name), key=_at)]

    def is_bound(self, name: ast.Name) -> bool:
        """Whether the name read by ``name`` refers to a binding of this file
        (False: the builtin, or nothing), looked up as ``bindings`` does."""
        return bool(self.bindings(name.lineno, name.col_offset))

    def function_locals(self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
        """The names ``function`` makes its own locals: its parameters and what its
        body binds, not the names it declares ``global`` or ``nonlocal``."""
        table = self._scope(Step(function, FUNCTION))
        return frozenset(table.names) | frozenset(table.local)

    def enclosing_names(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
        """The names a read in ``function``'s body finds in ``function`` or its type
        parameters' scope: its locals and cells (``function_locals``) and its type
        parameters (3.12+).  What the runtime emitter's hoisting must not read."""
        return self.function_locals(function) | {getattr(p, "name", "") for p in type_params(function)}

    def _bound(self, step: Step, name: str) -> list[Bound]:
        return [*self._scope(step).names.get(name, ()), *self._moved_into(step).get(name, ())]

    # finding the name ----------------------------------------------------------------

    def _path_to(self, target: Position, wanted: Callable[[ast.AST, Position], bool]) -> list[ast.AST] | None:
        """The nodes from the module down to the first node ``wanted`` at ``target`` (the
        ``Name`` read there, the outermost expression that starts there...).

        Depth first with a stack of its own: an expression may nest deeper
        than Python's recursion limit allows a recursive walk.
        """
        path: list[ast.AST] = []
        todo: list[tuple[ast.AST, int]] = [(self._tree, 0)]
        while todo:
            node, depth = todo.pop()
            del path[depth:]
            path.append(node)
            if wanted(node, target):
                return path
            if isinstance(node, ast.Name):
                continue
            children = list(self._children_around(node, target))
            todo.extend((child, depth + 1) for child in reversed(children))
        return None

    def _children_around(self, node: ast.AST, target: Position) -> Iterator[ast.AST]:
        """The children of ``node`` whose text may hold ``target``."""
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                if field in _STATEMENT_LISTS and len(value) > 4:
                    # statements are in source order: only the last one starting before
                    # ``target`` can hold it
                    index = bisect_right(self._statement_starts(value), target) - 1
                    if index >= 0:
                        yield from _if_around(value[index], target)
                    continue
                for child in value:
                    if isinstance(child, ast.AST):
                        yield from _if_around(child, target)
            elif isinstance(value, ast.AST):
                yield from _if_around(value, target)

    def _statement_starts(self, statements: list[ast.AST]) -> list[Position]:
        starts = self._starts.get(id(statements))
        if starts is None:
            starts = self._starts[id(statements)] = [start(s) for s in statements]
        return starts

    # the scopes around it ------------------------------------------------------------

    def _chain(self, path: list[ast.AST]) -> list[Step]:
        """The scopes the last node of ``path`` is evaluated in, outermost first."""
        chain = [Step(path[0], MODULE)]
        for index in range(len(path) - 1):
            node, child = path[index], path[index + 1]
            after = path[index + 2] if index + 2 < len(path) else None
            chain.extend(self._entered(node, child, after))
        return chain

    def _entered(self, node: ast.AST, child: ast.AST, after: ast.AST | None) -> list[Step]:
        """The scopes one enters going from ``node`` to its ``child`` (``after``: the next node)."""
        if isinstance(node, FUNCTIONS):
            annotation = [Step(node, ANNOTATION)] if type_params(node) else []
            if _in(child, node.body):
                return [*annotation, Step(node, FUNCTION)]
            if child is node.returns or _in(child, type_params(node)):
                return annotation
            if child is node.args and isinstance(after, ast.arg):  # an annotation
                return annotation
            return []  # decorators, defaults: evaluated where the def stands
        if isinstance(node, ast.Lambda):
            if child is node.body and not self._generated(node):
                return [Step(node, FUNCTION)]
            return []  # a generated lambda is transparent; defaults are evaluated outside
        if isinstance(node, ast.ClassDef):
            annotation = [Step(node, ANNOTATION)] if type_params(node) else []
            if _in(child, node.body):
                return [*annotation, Step(node, CLASS)]
            if _in(child, node.bases) or _in(child, node.keywords) or _in(child, type_params(node)):
                return annotation
            return []  # decorators
        if isinstance(node, COMPREHENSIONS):
            first = node.generators[0]
            if child is first and after is first.iter:  # the only part evaluated outside
                return []
            return [Step(node, COMPREHENSION)]
        if TYPE_ALIAS and isinstance(node, TYPE_ALIAS):
            return [] if child is getattr(node, "name", None) else [Step(node, ANNOTATION)]
        return []

    def _resolve(
        self, name: str, chain: list[Step], first: int, *, nonlocal_only: bool = False
    ) -> Step | None:
        """The scope ``name`` refers to, looked up from ``chain[first]`` outwards (None: a builtin).

        The name is read in ``chain[-1]``: every other class body is invisible,
        except to an annotation scope right inside it (a generic method's).
        ``nonlocal_only``: looked up as a ``nonlocal`` declaration does.
        """
        innermost = len(chain) - 1
        for index in range(first, -1, -1):
            step = chain[index]
            if step.kind == CLASS and index != innermost:
                if not (index == innermost - 1 and chain[innermost].kind == ANNOTATION):
                    continue
            if nonlocal_only and step.kind in (CLASS, MODULE):
                continue
            scope = self._scope(step)
            if name in scope.declared_global:
                return chain[0]
            if name in scope.declared_nonlocal:
                nonlocal_only = True
                continue
            if scope.binds(name):
                return step
        return None

    def _scope(self, step: Step) -> ScopeTable:
        key = (id(step.node), step.kind)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = collect(step, self._source, self._generated)
        return table

    # global / nonlocal ---------------------------------------------------------------

    def _moved_into(self, step: Step) -> dict[str, list[Bound]]:
        """Bindings made elsewhere, in scopes that declare the name global or nonlocal."""
        if self._moved_to is None:
            self._moved_to = self._declarations()
        return self._moved_to.get((id(step.node), step.kind), {})

    def _declarations(self) -> dict[tuple[int, str], dict[str, list[Bound]]]:
        moved: dict[tuple[int, str], dict[str, list[Bound]]] = {}
        if self._source is not None and "global" not in self._source.text and "nonlocal" not in self._source.text:
            return moved
        done: set[tuple[int, str]] = set()
        for path in paths_to_declarations(self._tree):
            chain = self._chain(path)
            key = (id(chain[-1].node), chain[-1].kind)
            if key in done:  # a second declaration in the same scope
                continue
            done.add(key)
            declaring = self._scope(chain[-1])
            for name, bound in declaring.moved.items():
                if name in declaring.declared_global:
                    target: Step | None = chain[0]
                else:
                    target = self._resolve(name, chain[:-1], len(chain) - 2, nonlocal_only=True)
                if target is not None and target != chain[-1]:
                    moved.setdefault((id(target.node), target.kind), {}).setdefault(name, []).extend(bound)
        return moved


def _if_around(node: ast.AST, target: Position) -> Iterable[ast.AST]:
    """``node`` if its text may hold ``target`` (nodes without a position always may)."""
    if "lineno" not in node._attributes:  # arguments, comprehension, withitem, match_case...
        return (node,)
    end = (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
    if start(node) <= target and (end[0] is None or target < end):
        return (node,)
    return ()


def _reads_name(node: ast.AST, target: Position) -> bool:
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and (
        node.lineno, node.col_offset) == target


def _is_expression(node: ast.AST, target: Position) -> bool:
    return isinstance(node, ast.expr) and (node.lineno, node.col_offset) == target


def _is_statement_or_expression(node: ast.AST, target: Position) -> bool:
    return isinstance(node, (ast.stmt, ast.expr, ast.arg)) and (node.lineno, node.col_offset) == target


def _in(node: ast.AST, nodes: Iterable[ast.AST]) -> bool:
    return any(item is node for item in nodes)


def _at(bound: Bound) -> Position:
    return bound.at
