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
from typing import Iterable, Iterator, NamedTuple

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.quiet import Locals, Quiet

__all__ = ["LAZY", "OBSERVABLE", "ORDER", "RAISES", "Unproven", "unproven_reading"]

LAZY, ORDER, OBSERVABLE, RAISES = "lazy", "order", "observable", "raises"
D, I = "decoded", "interpolation"  # what one argument may be
_BOTH = frozenset([D, I])
_D_NAMES = frozenset(["Decoded", "str"])
_I_NAMES = frozenset(["Interpolation", "InterpolationConcrete", "tuple", "Tuple"])
_CONSUMERS = frozenset(["join", "list", "tuple", "set", "sorted", "dict", "frozenset"])
_INSPECTING = frozenset(["len", "isinstance", "bool", "type", "hasattr", "getattr"])
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MAX_STATES = 64


class Unproven(NamedTuple):
    kind: str  # LAZY, ORDER, OBSERVABLE
    why: str  # the shape, for a message: "it is a generator", "calls print (line 9) ..."


class _Fail(Exception):
    def __init__(self, kind: str, why: str) -> None:
        super().__init__(kind, why)
        self.unproven = Unproven(kind, why)


class _State(NamedTuple):
    kinds: frozenset[str]
    reads: int


def unproven_reading(
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, module: ModuleAnalysis, quiet: Quiet,
    *, method: bool = False,
) -> Unproven | None:
    """Why ``function`` (a tag; ``method``: an instance's ``__call__``) is not proven to read
    each value once, in order, with nothing observable between; None: it is."""
    quiet.lenient = True
    try:
        _Reader(function, module, quiet, method, lenient=True).check()
    except _Fail as failure:
        return failure.unproven
    finally:
        quiet.lenient = False
    try:
        _Reader(function, module, quiet, method).check()
    except _Fail as failure:
        return Unproven(RAISES, failure.unproven.why)
    return None


class _Reader:
    def __init__(self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, module: ModuleAnalysis,
                 quiet: Quiet, method: bool, lenient: bool = False) -> None:
        self.lenient = lenient  # a raise ends a path (``RAISES`` is judged apart)
        self.function = function
        self.module = module
        self.quiet = quiet
        self.method = method
        self.locals: Locals = quiet.locals_of(module, function)
        self.args = function.args.vararg.arg if function.args.vararg else ""
        self.items: set[str] = set()  # names of one argument (loop targets over *args)
        self.getters: set[str] = set()  # names of an interpolation's getvalue
        self.ends: list[_State] = []
        self.loops = 0  # nested loops entered in the reading loop

    # -- the body -------------------------------------------------------------------------

    def check(self) -> None:
        function = self.function
        if isinstance(function, ast.AsyncFunctionDef):
            raise _Fail(LAZY, "it is an async def: its body runs when the coroutine is awaited")
        if isinstance(function, ast.Lambda):
            body: list[ast.stmt] = [ast.copy_location(ast.Return(function.body), function.body)]
        else:
            body = function.body
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own(body)):
            raise _Fail(LAZY, "it is a generator: its body runs when it is iterated")
        if not self.args:
            raise _Fail(ORDER, "it has no *args")
        positional = [*function.args.posonlyargs, *function.args.args][1 if self.method else 0:]
        if positional:
            raise _Fail(ORDER, f"it takes parameters before *{self.args}")
        candidates = list(self._uses(body))
        self._nested_scopes(body)
        reading = [(node, statement) for node, statement in candidates if self._reads(node)]
        if not reading:
            raise _Fail(ORDER, "it never reads a value")
        if len(reading) > 1:
            lines = ", ".join(str(getattr(node, "lineno", "?")) for node, _ in reading)
            raise _Fail(ORDER, f"it reads its values more than once (lines {lines})")
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
                if isinstance(parent, ast.Call) and _name_of(parent.func) == "enumerate" and parent.args[:1] == [node]:
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
            raise _Fail(ORDER, f"it unpacks its arguments in a loop header (line {target.lineno})")

    def _other_use(self, node: ast.Name, parent: ast.AST | None, parents: dict[int, ast.AST]) -> None:
        line = f"line {node.lineno}"
        if isinstance(parent, ast.Call) and _name_of(parent.func) in _INSPECTING and node in parent.args:
            return
        if isinstance(parent, (ast.If, ast.While, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Assert)):
            return
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if isinstance(parent.slice, ast.Slice):
                raise _Fail(ORDER, f"it reads a slice of its arguments ({line})")
            grand = parents.get(id(parent))
            if isinstance(grand, ast.Call) and _name_of(grand.func) in ("isinstance", "type"):
                return
            raise _Fail(ORDER, f"it picks its arguments by index ({line})")
        if isinstance(parent, ast.Call) and _name_of(parent.func) in ("reversed", "sorted"):
            raise _Fail(ORDER, f"it reads its arguments in another order ({line})")
        raise _Fail(LAZY, f"it passes on or keeps {self.args!r} ({line})")

    def _nested_scopes(self, body: list[ast.stmt]) -> None:
        watched = {self.args, *self.items, "getvalue"}
        for node in _all(body):
            if isinstance(node, _SCOPES):
                for sub in ast.walk(node):
                    if (isinstance(sub, ast.Name) and sub.id in watched) or (
                        isinstance(sub, ast.Attribute) and sub.attr == "getvalue"
                    ):
                        raise _Fail(LAZY, f"a nested function, lambda or class uses {getattr(sub, 'id', 'getvalue')!r} "
                                          f"(line {node.lineno})")

    def _reads(self, node: ast.AST) -> bool:
        """Judge one loop or comprehension over ``*args``: whether it reads the values (each once,
        on every path, else it fails) or reads none (and keeps no interpolation)."""
        self.ends = []
        start = [_State(_BOTH, 0)]
        if isinstance(node, (ast.For, ast.AsyncFor)):
            if isinstance(node, ast.AsyncFor):
                raise _Fail(LAZY, f"it iterates asynchronously (line {node.lineno})")
            self.ends.extend(self._statements(node.body, start))
            self._statements(node.orelse, [_State(frozenset(), 0)])
        else:
            assert isinstance(node, _COMPREHENSIONS)
            if len(node.generators) > 1 or node.generators[0].is_async:
                if self._has_read(node):
                    raise _Fail(ORDER, f"it reads its values in a nested loop (line {node.lineno})")
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
            wanted = 1 if I in state.kinds else 0
            if state.kinds and (state.reads != wanted or state.kinds == _BOTH):
                if state.reads == 0 and I in state.kinds:
                    raise _Fail(ORDER, f"it reads values only on some paths (line {node.lineno}): some are never read")
                raise _Fail(ORDER, f"it does not read each value exactly once (line {node.lineno})")
        return True

    def _has_read(self, node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and self._is_read(n) for n in ast.walk(node))

    def _before(self, body: list[ast.stmt], statement: ast.stmt, node: ast.AST) -> None:
        """What runs before the reads must be quiet, and the reads must always run."""
        index = next(i for i, s in enumerate(body) if s is statement)
        for earlier in body[:index]:
            for sub in _own([earlier]):
                if isinstance(sub, ast.Return):
                    raise _Fail(ORDER, f"it may return before it reads its values (line {sub.lineno})")
            why = self.quiet.statement(self.module, earlier, self.locals, self._is_read)
            if why:
                raise _Fail(OBSERVABLE, f"it {why} before it reads its values")
        path = _path(statement, node)
        for parent, child in zip(path, path[1:]):
            if isinstance(parent, (ast.Try, ast.With, ast.AsyncWith)) or (
                hasattr(ast, "TryStar") and isinstance(parent, getattr(ast, "TryStar"))
            ):
                raise _Fail(OBSERVABLE, f"it reads its values inside a {'try' if 'Try' in type(parent).__name__ else 'with'}"
                                        f" block (line {parent.lineno}): what a value raises happens before the tag runs "
                                        f"in a t-string")
            if isinstance(parent, (ast.If, ast.IfExp, ast.BoolOp, ast.While, ast.For, ast.AsyncFor, ast.match_case,
                                   ast.Match, *_COMPREHENSIONS, ast.Lambda)):
                raise _Fail(ORDER, f"it reads its values only when a condition holds or a loop runs "
                                   f"(line {getattr(parent, 'lineno', statement.lineno)})")
            for sibling in _evaluated_before(parent, child):
                why = self.quiet.expression(self.module, sibling, self.locals, self._is_read) if isinstance(
                    sibling, ast.expr) else None
                if why:
                    raise _Fail(OBSERVABLE, f"it {why} before it reads its values")
            if isinstance(parent, ast.Call) and isinstance(child, ast.GeneratorExp):
                if _name_of(parent.func) not in _CONSUMERS:
                    raise _Fail(LAZY, f"it passes a generator over its values to {_name_of(parent.func) or 'a call'} "
                                      f"(line {parent.lineno})")
        if isinstance(node, ast.GeneratorExp) and len(path) > 1 and not isinstance(path[-2], ast.Call):
            raise _Fail(LAZY, f"it keeps a generator over its values (line {node.lineno})")

    # -- one pass of the reading loop ------------------------------------------------------------

    def _statements(self, statements: Iterable[ast.stmt], states: list[_State]) -> list[_State]:
        for statement in statements:
            if not states:
                return []
            states = self._statement(statement, states)
        return states

    def _statement(self, node: ast.stmt, states: list[_State]) -> list[_State]:
        line = f"line {node.lineno}"
        live = [s for s in states if s.kinds]
        if isinstance(node, ast.Expr):
            return self._expression(node.value, states)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if node.value is None:
                return states
            if not (isinstance(node.value, ast.Name) and node.value.id in self.items):  # unpacked or aliased
                states = self._expression(node.value, states)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self._bind(target, node.value, states)
            return states
        if isinstance(node, ast.If):
            true, false = self._condition(node.test, states)
            return _merge(self._statements(node.body, true), self._statements(node.orelse, false))
        if isinstance(node, ast.Match):
            return self._match(node, states)
        if isinstance(node, ast.Continue):
            if self.loops == 0:
                self.ends.extend(states)
            return []
        if isinstance(node, ast.Break):
            if self.loops == 0 and live:
                raise _Fail(ORDER, f"it may stop before it reads every value ({line})")
            return []
        if isinstance(node, ast.Return):
            if live:
                raise _Fail(ORDER, f"it may return before it reads every value ({line})")
            return []
        if isinstance(node, ast.Raise):
            if live and not self.lenient:
                raise _Fail(OBSERVABLE, f"it may raise while it reads its values ({line})")
            return []
        if isinstance(node, ast.Assert):
            true, false = self._condition(node.test, states)
            if any(s.kinds for s in false) and not _narrows(node.test) and not self.lenient:
                raise _Fail(OBSERVABLE, f"it asserts while it reads its values ({line})")
            return true
        if isinstance(node, (ast.Pass, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            return states
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)) or type(
            node
        ).__name__ == "TryStar":
            return self._block(node, states)
        why = self.quiet.statement(self.module, node, self.locals, self._is_read)
        if why:
            raise _Fail(OBSERVABLE, f"it {why} while it reads its values")
        return states

    def _block(self, node: ast.stmt, states: list[_State]) -> list[_State]:
        """A nested loop, ``try`` or ``with``: no read inside; quiet."""
        line = f"line {node.lineno}"
        if self._has_read(node):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
                raise _Fail(ORDER, f"it reads values in a nested loop ({line})")
            raise _Fail(OBSERVABLE, f"it reads a value inside a {'with' if 'With' in type(node).__name__ else 'try'} "
                                    f"block ({line}): what a value raises happens before the tag runs in a t-string")
        if isinstance(node, (ast.With, ast.AsyncWith)):
            raise _Fail(OBSERVABLE, f"it enters a with block while it reads its values ({line})")
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and any(
            isinstance(n, (ast.Return, ast.Continue, ast.Break)) for n in ast.walk(node)
        ):
            raise _Fail(ORDER, f"it may skip a value from a try block ({line})")
        self.loops += 1
        try:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._expression(child, states)
                elif isinstance(child, ast.stmt):
                    self._statements([child], states)
                elif isinstance(child, ast.ExceptHandler):
                    self._statements(child.body, states)
        finally:
            self.loops -= 1
        why = self.quiet.statement(self.module, node, self.locals, self._is_read)
        if why:
            raise _Fail(OBSERVABLE, f"it {why} while it reads its values")
        return states

    def _match(self, node: ast.Match, states: list[_State]) -> list[_State]:
        subject = node.subject
        on_item = isinstance(subject, ast.Name) and subject.id in self.items
        if not on_item:
            states = self._expression(subject, states)
        remaining = states
        out: list[_State] = []
        for case in node.cases:
            if on_item:
                kinds, sure = self._pattern(case.pattern)
            else:
                kinds, sure = _BOTH, isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None
            taken = [_State(s.kinds & kinds, s.reads) for s in remaining if s.kinds & kinds]
            if case.guard is not None:
                taken, _ = self._condition(case.guard, taken)
                sure = False
            out = _merge(out, self._statements(case.body, taken))
            if sure:
                remaining = [_State(s.kinds - kinds, s.reads) for s in remaining if s.kinds - kinds]
        return _merge(out, remaining)

    def _pattern(self, pattern: ast.pattern) -> tuple[frozenset[str], bool]:
        """What a case pattern on one argument matches, and whether it matches every such argument;
        binds its captures (``getvalue``)."""
        if isinstance(pattern, ast.MatchAs):
            if pattern.pattern is None:
                if pattern.name:
                    self.items.add(pattern.name)
                return _BOTH, True
            kinds, sure = self._pattern(pattern.pattern)
            if pattern.name and kinds == frozenset([D]):
                self.items.add(pattern.name)  # a name of the string: any use is fine
            elif pattern.name:
                self.items.add(pattern.name)
            return kinds, sure
        if isinstance(pattern, ast.MatchOr):
            found = [self._pattern(p) for p in pattern.patterns]
            return frozenset().union(*(k for k, _ in found)), any(s for _, s in found)
        if isinstance(pattern, ast.MatchClass):
            name = _name_of(pattern.cls)
            kinds = frozenset([D]) if name in _D_NAMES else frozenset([I]) if name in _I_NAMES else _BOTH
            fields = list(pattern.patterns) + list(pattern.kwd_patterns)
            names = ["getvalue", "expr", "conv", "format_spec"][: len(pattern.patterns)] + list(pattern.kwd_attrs)
            sure = kinds != _BOTH and all(_captures(p) for p in fields)
            for field, sub in zip(names, fields):
                if field == "getvalue" and isinstance(sub, ast.MatchAs) and sub.name:
                    self.getters.add(sub.name)
            return kinds, sure
        if isinstance(pattern, ast.MatchSequence):
            elements = pattern.patterns
            sure = len(elements) == 4 and all(_captures(p) for p in elements)
            if elements and isinstance(elements[0], ast.MatchAs) and elements[0].name:
                self.getters.add(elements[0].name)
            return frozenset([I]), sure
        if isinstance(pattern, ast.MatchMapping):
            return frozenset(), True
        return _BOTH, False  # a value or a singleton: may or may not match

    def _bind(self, target: ast.expr, value: ast.expr, states: list[_State]) -> None:
        line = f"line {target.lineno}"
        why = self.quiet.target(target, self.locals)
        if why:
            raise _Fail(OBSERVABLE, f"it {why} while it reads its values ({line})")
        if isinstance(value, ast.Name) and value.id in self.items:
            if isinstance(target, ast.Tuple) and len(target.elts) == 4:
                if any(D in s.kinds for s in states if s.kinds):
                    raise _Fail(ORDER, f"it unpacks an argument that may be a string ({line})")
                first = target.elts[0]
                if isinstance(first, ast.Name):
                    self.getters.add(first.id)
            elif isinstance(target, ast.Name):
                self.items.add(target.id)
        elif _is_getter(value, self.items) and isinstance(target, ast.Name):
            self.getters.add(target.id)

    def _condition(self, test: ast.expr, states: list[_State]) -> tuple[list[_State], list[_State]]:
        """The states where ``test`` is true and where it is false, narrowed when it tells a
        string from an interpolation."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            true, false = self._condition(test.operand, states)
            return false, true
        if isinstance(test, ast.BoolOp):
            first, *rest = test.values
            true, false = self._condition(first, states)
            for value in rest:
                if isinstance(test.op, ast.And):
                    true, more = self._condition(value, true)
                    false = _merge(false, more)
                else:
                    more, false = self._condition(value, false)
                    true = _merge(true, more)
            return true, false
        kinds = self._kinds_tested(test)
        states = self._expression(test, states)
        if kinds is None:
            return states, states
        return ([_State(s.kinds & kinds, s.reads) for s in states if s.kinds & kinds],
                [_State(s.kinds - kinds, s.reads) for s in states if s.kinds - kinds])

    def _kinds_tested(self, test: ast.expr) -> frozenset[str] | None:
        """``isinstance(a, Decoded)``, ``type(a) is str``, ``is_interpolation(a)``: what a true test means."""
        if isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Name):
            if test.args[0].id not in self.items:
                return None
            name = _name_of(test.func)
            if name == "is_interpolation":
                return frozenset([I])
            if name == "isinstance" and len(test.args) == 2:
                return _class_kinds(test.args[1])
            if name == "hasattr" and len(test.args) == 2 and isinstance(test.args[1], ast.Constant):
                return frozenset([I]) if test.args[1].value in ("getvalue", "expr", "conv", "format_spec") else None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
            left = test.left
            if isinstance(left, ast.Call) and _name_of(left.func) == "type" and left.args and isinstance(
                left.args[0], ast.Name
            ) and left.args[0].id in self.items:
                return _class_kinds(test.comparators[0])
        return None

    def _expression(self, node: ast.expr, states: list[_State]) -> list[_State]:
        """The states after evaluating ``node`` (its reads counted); fails on a use of an
        interpolation that keeps or passes it on, or on something observable."""
        if len(states) > _MAX_STATES:
            raise _Fail(ORDER, f"it reads its values in a way too intricate to follow (line {node.lineno})")
        line = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.IfExp):
            true, false = self._condition(node.test, states)
            return _merge(self._expression(node.body, true), self._expression(node.orelse, false))
        if isinstance(node, ast.BoolOp):
            true, false = self._condition(node, states)
            return _merge(true, false)
        if isinstance(node, ast.Call):
            if self._is_read(node):
                return [_State(s.kinds, s.reads + 1) for s in states]
            name = _name_of(node.func)
            inspecting = name in _INSPECTING and node.args
            func = node.func
            if isinstance(func, ast.Attribute):
                states = self._operand(func.value, states, method=True)
            elif not isinstance(func, ast.Name):
                states = self._expression(func, states)
            for arg in (*node.args, *(k.value for k in node.keywords)):
                if inspecting and isinstance(arg, ast.Name) and arg.id in self.items:
                    continue
                states = self._expression(arg, states)
            why = self.quiet.call(self.module, node, self.locals)
            if why:
                raise _Fail(OBSERVABLE, f"it {why} while it reads its values")
            return states
        if isinstance(node, ast.Name):
            if node.id in self.getters:
                raise _Fail(LAZY, f"it passes on or keeps an interpolation's getvalue ({line})")
            if node.id in self.items and any(I in s.kinds for s in states):
                raise _Fail(LAZY, f"it passes on or keeps an interpolation ({line})")
            return states
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            return self._operand(node.value, states, part=node)
        if isinstance(node, ast.Lambda):
            return states  # nested scopes are judged apart
        if isinstance(node, _COMPREHENSIONS):
            if self._has_read(node):
                raise _Fail(ORDER, f"it reads values in a nested loop ({line})")
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom)):
            raise _Fail(LAZY, f"it awaits or yields ({line})")
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                states = self._expression(child, states)
            elif isinstance(child, ast.comprehension):
                for part in (child.iter, *child.ifs):
                    states = self._expression(part, states)
        return states

    def _operand(self, value: ast.expr, states: list[_State], *, method: bool = False,
                 part: ast.Attribute | ast.Subscript | None = None) -> list[_State]:
        """``value.attr``, ``value[k]`` or ``value.method(...)``: an argument's parts are fine to
        read, its ``getvalue`` only to call."""
        if isinstance(value, ast.Name) and value.id in self.items:
            if isinstance(part, ast.Attribute) and part.attr == "getvalue" or (
                isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant) and part.slice.value == 0
            ):
                raise _Fail(LAZY, f"it passes on or keeps an interpolation's getvalue (line {value.lineno})")
            if isinstance(part, ast.Subscript) and not isinstance(part.slice, ast.Constant):
                if any(I in s.kinds for s in states):
                    raise _Fail(ORDER, f"it reads an interpolation's parts by a computed index (line {value.lineno})")
            if part is not None and isinstance(part, ast.Subscript):
                return self._expression(part.slice, states)
            return states
        states = self._expression(value, states)
        if isinstance(part, ast.Subscript):
            states = self._expression(part.slice, states)
        return states

    def _is_read(self, call: ast.Call) -> bool:
        """``a.getvalue()``, ``a[0]()`` or ``getvalue()`` of one argument."""
        if call.args or call.keywords:
            return False
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in self.getters
        return _is_getter(func, self.items)


# -- the parts ---------------------------------------------------------------------------------


def _is_getter(node: ast.expr, items: set[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "getvalue" and isinstance(node.value, ast.Name) and node.value.id in items
    if isinstance(node, ast.Subscript):
        return (isinstance(node.value, ast.Name) and node.value.id in items
                and isinstance(node.slice, ast.Constant) and node.slice.value == 0)
    return False


def _class_kinds(node: ast.expr) -> frozenset[str] | None:
    names = [_name_of(e) for e in node.elts] if isinstance(node, ast.Tuple) else [_name_of(node)]
    kinds: set[str] = set()
    for name in names:
        if name in _D_NAMES:
            kinds.add(D)
        elif name in _I_NAMES:
            kinds.add(I)
        else:
            return None
    return frozenset(kinds)


def _narrows(test: ast.expr) -> bool:
    return isinstance(test, ast.Call) and _name_of(test.func) in ("isinstance", "is_interpolation")


def _captures(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchAs) and pattern.pattern is None


def _merge(first: list[_State], second: list[_State]) -> list[_State]:
    return list(dict.fromkeys([*first, *second]))


def _name_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _own(body: Iterable[ast.AST], comprehensions: bool = False) -> Iterator[ast.AST]:
    """The nodes of a function body, not in nested scopes (comprehensions entered if asked)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES) or (not comprehensions and isinstance(child, _COMPREHENSIONS)):
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
