"""Whether a tag reads each value exactly once, in order, with nothing observable in between.

Only then does it behave the same given a t-string's eager ``Template``
(``@accepts_template``): a tag string evaluates a value when the tag reads
it, a t-string evaluates them all, in order, before the tag runs.  The
shapes proven here, from the tag's body alone:

- ``return "".join(... a.getvalue() ... for a in args)`` (a list, a tuple or
  a join consuming a comprehension or generator over ``args``), or
- a ``for a in args:`` loop (``enumerate(args)`` too) at the top of the
  body whose every path reads an ``Interpolation`` once (``a.getvalue()``,
  ``a[0]()``, a ``getvalue`` taken by ``match``/unpacking) and a ``Decoded``
  never, telling them apart with ``isinstance``, ``match`` class or sequence
  patterns or ``type(a) is``;

where everything that runs before the last read is quiet (``quiet``): no
``try``/``with`` around a read, no early exit, no filter, no reversed or
indexed reads, no print, write, ``contextvars`` or global state, no raise.
Anything else is judged unproven, with the shape named: ``LAZY`` (it may
read later, or keeps or passes on what it got: MIG001), ``ORDER`` (not each
value once, in order: MIG013), ``OBSERVABLE`` (something runs between
reads: MIG014), ``RAISES`` (it would be proven but for a ``raise`` or
``assert`` between reads: a tag string then stops before the later values,
a t-string has evaluated them; only a tag string whose values do nothing
observable, names and constants, cannot tell).
"""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.quiet import Quiet
from tagstr_runtime.analysis.read_paths import (
    BOTH, COMPREHENSIONS, INTERP, INSPECTING, LAZY, OBSERVABLE, ORDER, RAISES, PathReader, State, Unprovable, Unproven,
    name_of,
)

__all__ = ["LAZY", "OBSERVABLE", "ORDER", "RAISES", "Unproven", "unproven_reading"]

_CONSUMERS = frozenset(["join", "list", "tuple", "set", "sorted", "dict", "frozenset"])
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_TRY_STAR: tuple[type[ast.AST], ...] = tuple(getattr(ast, name) for name in ("TryStar",) if hasattr(ast, name))


def unproven_reading(
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, module: ModuleAnalysis, quiet: Quiet,
    *, method: bool = False,
) -> Unproven | None:
    """Why ``function`` (a tag; ``method``: an instance's ``__call__``) is not proven to read
    each value once, in order, with nothing observable between; None: it is."""
    quiet.lenient = True
    try:
        _Reader(function, module, quiet, method, lenient=True).check()
    except Unprovable as failure:
        return failure.unproven
    finally:
        quiet.lenient = False
    try:
        _Reader(function, module, quiet, method).check()
    except Unprovable as failure:
        return Unproven(RAISES, failure.unproven.why)
    return None


class _Reader(PathReader):
    def __init__(self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, module: ModuleAnalysis,
                 quiet: Quiet, method: bool, lenient: bool = False) -> None:
        super().__init__(module, quiet, quiet.locals_of(module, function), lenient)
        self.function = function
        self.method = method
        self.args = function.args.vararg.arg if function.args.vararg else ""

    # -- the body -------------------------------------------------------------------------

    def check(self) -> None:
        function = self.function
        if isinstance(function, ast.AsyncFunctionDef):
            raise Unprovable(LAZY, "it is an async def: its body runs when the coroutine is awaited")
        if isinstance(function, ast.Lambda):
            body: list[ast.stmt] = [ast.copy_location(ast.Return(function.body), function.body)]
        else:
            body = function.body
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own(body)):
            raise Unprovable(LAZY, "it is a generator: its body runs when it is iterated")
        if not self.args:
            raise Unprovable(ORDER, "it has no *args")
        positional = [*function.args.posonlyargs, *function.args.args][1 if self.method else 0:]
        if positional:
            raise Unprovable(ORDER, f"it takes parameters before *{self.args}")
        candidates = list(self._uses(body))
        self._nested_scopes(body)
        reading = [(node, statement) for node, statement in candidates if self._reads(node)]
        if not reading:
            raise Unprovable(ORDER, "it never reads a value")
        if len(reading) > 1:
            lines = ", ".join(str(getattr(node, "lineno", "?")) for node, _ in reading)
            raise Unprovable(ORDER, f"it reads its values more than once (lines {lines})")
        node, statement = reading[0]
        self._before(body, statement, node)

    def _uses(self, body: list[ast.stmt]) -> Iterator[tuple[ast.AST, ast.stmt]]:
        """The loops and comprehensions over ``*args`` (with the top-level statement holding
        each); any other use of ``*args`` that may read or keep it fails."""
        for statement in body:
            parents = _parents(statement)
            for node in _own([statement], comprehensions=True):
                if not (isinstance(node, ast.Name) and node.id == self.args and isinstance(node.ctx, ast.Load)):
                    continue
                parent = parents.get(id(node))
                holder = parent
                if isinstance(parent, ast.Call) and name_of(parent.func) == "enumerate" and parent.args[:1] == [node]:
                    holder = parents.get(id(parent))
                    node_iter: ast.AST = parent
                else:
                    node_iter = node
                if isinstance(holder, (ast.For, ast.AsyncFor)) and holder.iter is node_iter:
                    self._item_names(holder.target, node_iter is not node)
                    yield holder, statement
                elif isinstance(holder, ast.comprehension) and holder.iter is node_iter:
                    self._item_names(holder.target, node_iter is not node)
                    comprehension = parents.get(id(holder))
                    assert comprehension is not None
                    yield comprehension, statement
                else:
                    self._other_use(node, parent, parents)

    def _item_names(self, target: ast.expr, enumerated: bool) -> None:
        if enumerated and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[1]
        if isinstance(target, ast.Name):
            self.items.add(target.id)
        else:
            raise Unprovable(ORDER, f"it unpacks its arguments in a loop header (line {target.lineno})")

    def _other_use(self, node: ast.Name, parent: ast.AST | None, parents: dict[int, ast.AST]) -> None:
        line = f"line {node.lineno}"
        if isinstance(parent, ast.Call) and name_of(parent.func) in INSPECTING and node in parent.args:
            return
        if isinstance(parent, (ast.If, ast.While, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Assert)):
            return
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if isinstance(parent.slice, ast.Slice):
                raise Unprovable(ORDER, f"it reads a slice of its arguments ({line})")
            grand = parents.get(id(parent))
            if isinstance(grand, ast.Call) and name_of(grand.func) in ("isinstance", "type"):
                return
            raise Unprovable(ORDER, f"it picks its arguments by index ({line})")
        if isinstance(parent, ast.Call) and name_of(parent.func) in ("reversed", "sorted"):
            raise Unprovable(ORDER, f"it reads its arguments in another order ({line})")
        raise Unprovable(LAZY, f"it passes on or keeps {self.args!r} ({line})")

    def _nested_scopes(self, body: list[ast.stmt]) -> None:
        watched = {self.args, *self.items, "getvalue"}
        for node in _all(body):
            if isinstance(node, _SCOPES):
                for sub in ast.walk(node):
                    if (isinstance(sub, ast.Name) and sub.id in watched) or (
                        isinstance(sub, ast.Attribute) and sub.attr == "getvalue"
                    ):
                        used = sub.id if isinstance(sub, ast.Name) else "getvalue"
                        raise Unprovable(LAZY, f"a nested function, lambda or class uses {used!r} "
                                               f"(line {node.lineno})")

    def _reads(self, node: ast.AST) -> bool:
        """Judge one loop or comprehension over ``*args``: whether it reads the values (each once,
        on every path, else it fails) or reads none (and keeps no interpolation)."""
        self.ends = []
        start = [State(BOTH, 0)]
        if isinstance(node, (ast.For, ast.AsyncFor)):
            if isinstance(node, ast.AsyncFor):
                raise Unprovable(LAZY, f"it iterates asynchronously (line {node.lineno})")
            self.ends.extend(self._statements(node.body, start))
            self._statements(node.orelse, [State(frozenset(), 0)])
        else:
            assert isinstance(node, COMPREHENSIONS)
            if len(node.generators) > 1 or node.generators[0].is_async:
                if self._has_read(node):
                    raise Unprovable(ORDER, f"it reads its values in a nested loop (line {node.lineno})")
            states = start
            for test in node.generators[0].ifs:
                states, dropped = self._condition(test, states)
                self.ends.extend(dropped)
            parts: list[ast.expr] = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in parts:
                states = self._expression(part, states)
            self.ends.extend(states)
        reads = {state.reads for state in self.ends if state.kinds}
        if reads == {0} or not reads:
            return False
        for state in self.ends:
            wanted = 1 if INTERP in state.kinds else 0
            if state.kinds and (state.reads != wanted or state.kinds == BOTH):
                if state.reads == 0 and INTERP in state.kinds:
                    raise Unprovable(ORDER, f"it reads values only on some paths (line {node.lineno}): some are "
                                            f"never read")
                raise Unprovable(ORDER, f"it does not read each value exactly once (line {node.lineno})")
        return True

    def _before(self, body: list[ast.stmt], statement: ast.stmt, node: ast.AST) -> None:
        """What runs before the reads must be quiet, and the reads must always run."""
        index = next(i for i, s in enumerate(body) if s is statement)
        for earlier in body[:index]:
            for sub in _own([earlier]):
                if isinstance(sub, ast.Return):
                    raise Unprovable(ORDER, f"it may return before it reads its values (line {sub.lineno})")
            why = self.quiet.statement(self.module, earlier, self.locals, self._is_read)
            if why:
                raise Unprovable(OBSERVABLE, f"it {why} before it reads its values")
        path = _path(statement, node)
        for parent, child in zip(path, path[1:]):
            if isinstance(parent, (ast.Try, ast.With, ast.AsyncWith, *_TRY_STAR)):
                block = "try" if "Try" in type(parent).__name__ else "with"
                raise Unprovable(OBSERVABLE, f"it reads its values inside a {block} block (line {statement.lineno}): "
                                             f"what a value raises happens before the tag runs in a t-string")
            if isinstance(parent, (ast.If, ast.IfExp, ast.BoolOp, ast.While, ast.For, ast.AsyncFor, ast.match_case,
                                   ast.Match, *COMPREHENSIONS, ast.Lambda)):
                raise Unprovable(ORDER, f"it reads its values only when a condition holds or a loop runs "
                                        f"(line {getattr(parent, 'lineno', statement.lineno)})")
            for sibling in _evaluated_before(parent, child):
                why = self.quiet.expression(self.module, sibling, self.locals, self._is_read) if isinstance(
                    sibling, ast.expr) else None
                if why:
                    raise Unprovable(OBSERVABLE, f"it {why} before it reads its values")
            if isinstance(parent, ast.Call) and isinstance(child, ast.GeneratorExp):
                if name_of(parent.func) not in _CONSUMERS:
                    callee = name_of(parent.func) or "a call"
                    raise Unprovable(LAZY, f"it passes a generator over its values to {callee} (line {parent.lineno})")
        if isinstance(node, ast.GeneratorExp) and len(path) > 1 and not isinstance(path[-2], ast.Call):
            raise Unprovable(LAZY, f"it keeps a generator over its values (line {node.lineno})")


# -- the parts ---------------------------------------------------------------------------------


def _own(body: Iterable[ast.AST], comprehensions: bool = False) -> Iterator[ast.AST]:
    """The nodes of a function body, not in nested scopes (comprehensions entered if asked)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES) or (not comprehensions and isinstance(child, COMPREHENSIONS)):
                continue
            todo.append(child)


def _all(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    for node in body:
        yield from ast.walk(node)


def _parents(root: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(root) for child in ast.iter_child_nodes(node)}


def _path(root: ast.AST, target: ast.AST) -> list[ast.AST]:
    """The nodes from ``root`` down to ``target``."""
    parents = _parents(root)
    path = [target]
    while path[-1] is not root:
        parent = parents.get(id(path[-1]))
        if parent is None:
            break
        path.append(parent)
    return path[::-1]


def _evaluated_before(parent: ast.AST, child: ast.AST) -> Iterator[ast.AST]:
    """The children of ``parent`` evaluated before ``child`` (field order: Python's, for the
    expressions a statement holding a read is made of)."""
    if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return  # the value is evaluated first; the targets after
    for sibling in ast.iter_child_nodes(parent):
        if sibling is child:
            return
        if isinstance(sibling, ast.expr):
            yield sibling
