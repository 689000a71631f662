"""One pass of a tag's reading loop, path by path: what each path reads, and what else it does.

``tag_reads`` finds the loop (or comprehension) over a tag's ``*args``;
``PathReader`` follows one pass of it through every branch, with what the
argument may be on each path (``DECODED``, ``INTERP``, narrowed by
``isinstance``, ``type(a) is``, ``match`` class and sequence patterns) and how many times the path reads the value
(``a.getvalue()``, ``a[0]()``, a ``getvalue`` captured).  A use that keeps
or passes on an interpolation, or anything observable between the reads
(``quiet``), ends the proof (``Unprovable``).
"""

from __future__ import annotations

import ast
from typing import Iterable, NamedTuple

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.pure_names import last_name as name_of
from tagstr_runtime.analysis.quiet import Locals, Quiet

__all__ = [
    "BOTH", "COMPREHENSIONS", "DECODED", "INSPECTING", "INTERP", "LAZY", "OBSERVABLE", "ORDER", "RAISES",
    "PathReader", "State", "Unprovable", "Unproven", "name_of",
]

LAZY, ORDER, OBSERVABLE, RAISES = "lazy", "order", "observable", "raises"
DECODED, INTERP = "decoded", "interpolation"  # what one argument may be
BOTH = frozenset([DECODED, INTERP])
_D_NAMES = frozenset(["Decoded", "str"])
_I_NAMES = frozenset(["Interpolation", "InterpolationConcrete", "tuple", "Tuple"])
INSPECTING = frozenset(["len", "isinstance", "bool", "type", "hasattr", "getattr"])
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_MAX_STATES = 64


class Unproven(NamedTuple):
    kind: str  # LAZY, ORDER, OBSERVABLE
    why: str  # the shape, for a message: "it is a generator", "calls print (line 9) ..."


class Unprovable(Exception):
    def __init__(self, kind: str, why: str) -> None:
        super().__init__(kind, why)
        self.unproven = Unproven(kind, why)


class State(NamedTuple):
    kinds: frozenset[str]
    reads: int


class PathReader:
    """Follows one pass of a reading loop (``tag_reads`` sets ``items``, the names of the argument)."""

    def __init__(self, module: ModuleAnalysis, quiet: Quiet, scope: Locals, lenient: bool = False) -> None:
        self.module = module
        self.quiet = quiet
        self.locals = scope
        self.lenient = lenient  # a raise ends a path (``RAISES`` is judged apart)
        self.items: set[str] = set()  # names of one argument (loop targets over *args)
        self.getters: set[str] = set()  # names of an interpolation's getvalue
        self.ends: list[State] = []  # the states each pass ends in
        self.loops = 0  # nested loops entered in the reading loop

    def _has_read(self, node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and self._is_read(n) for n in ast.walk(node))

    def _statements(self, statements: Iterable[ast.stmt], states: list[State]) -> list[State]:
        for statement in statements:
            if not states:
                return []
            states = self._statement(statement, states)
        return states

    def _statement(self, node: ast.stmt, states: list[State]) -> list[State]:
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
                raise Unprovable(ORDER, f"it may stop before it reads every value ({line})")
            return []
        if isinstance(node, ast.Return):
            if live:
                raise Unprovable(ORDER, f"it may return before it reads every value ({line})")
            return []
        if isinstance(node, ast.Raise):
            if live and not self.lenient:
                raise Unprovable(OBSERVABLE, f"it may raise while it reads its values ({line})")
            return []
        if isinstance(node, ast.Assert):
            true, false = self._condition(node.test, states)
            if any(s.kinds for s in false) and not _narrows(node.test) and not self.lenient:
                raise Unprovable(OBSERVABLE, f"it asserts while it reads its values ({line})")
            return true
        if isinstance(node, (ast.Pass, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            return states
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)) or type(
            node
        ).__name__ == "TryStar":
            return self._block(node, states)
        why = self.quiet.statement(self.module, node, self.locals, self._is_read)
        if why:
            raise Unprovable(OBSERVABLE, f"it {why} while it reads its values")
        return states

    def _block(self, node: ast.stmt, states: list[State]) -> list[State]:
        """A nested loop, ``try`` or ``with``: no read inside; quiet."""
        line = f"line {node.lineno}"
        if self._has_read(node):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
                raise Unprovable(ORDER, f"it reads values in a nested loop ({line})")
            block = "with" if "With" in type(node).__name__ else "try"
            raise Unprovable(OBSERVABLE, f"it reads a value inside a {block} block ({line}): what a value raises "
                                         f"happens before the tag runs in a t-string")
        if isinstance(node, (ast.With, ast.AsyncWith)):
            raise Unprovable(OBSERVABLE, f"it enters a with block while it reads its values ({line})")
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and any(
            isinstance(n, (ast.Return, ast.Continue, ast.Break)) for n in ast.walk(node)
        ):
            raise Unprovable(ORDER, f"it may skip a value from a try block ({line})")
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
            raise Unprovable(OBSERVABLE, f"it {why} while it reads its values")
        return states

    def _match(self, node: ast.Match, states: list[State]) -> list[State]:
        subject = node.subject
        on_item = isinstance(subject, ast.Name) and subject.id in self.items
        if not on_item:
            states = self._expression(subject, states)
        remaining = states
        out: list[State] = []
        for case in node.cases:
            if on_item:
                kinds, sure = self._pattern(case.pattern)
            else:
                kinds, sure = BOTH, isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None
            taken = [State(s.kinds & kinds, s.reads) for s in remaining if s.kinds & kinds]
            if case.guard is not None:
                taken, _ = self._condition(case.guard, taken)
                sure = False
            out = _merge(out, self._statements(case.body, taken))
            if sure:
                remaining = [State(s.kinds - kinds, s.reads) for s in remaining if s.kinds - kinds]
        return _merge(out, remaining)

    def _pattern(self, pattern: ast.pattern) -> tuple[frozenset[str], bool]:
        """What a case pattern on one argument matches, and whether it matches every such argument;
        binds its captures (``getvalue``)."""
        if isinstance(pattern, ast.MatchAs):
            if pattern.pattern is None:
                if pattern.name:
                    self.items.add(pattern.name)
                return BOTH, True
            kinds, sure = self._pattern(pattern.pattern)
            if pattern.name:  # another name of the argument, narrowed as the pattern says
                self.items.add(pattern.name)
            return kinds, sure
        if isinstance(pattern, ast.MatchOr):
            found = [self._pattern(p) for p in pattern.patterns]
            return frozenset().union(*(k for k, _ in found)), any(s for _, s in found)
        if isinstance(pattern, ast.MatchClass):
            name = name_of(pattern.cls)
            kinds = frozenset([DECODED]) if name in _D_NAMES else frozenset([INTERP]) if name in _I_NAMES else BOTH
            fields = list(pattern.patterns) + list(pattern.kwd_patterns)
            names = ["getvalue", "expr", "conv", "format_spec"][: len(pattern.patterns)] + list(pattern.kwd_attrs)
            sure = kinds != BOTH and all(_captures(p) for p in fields)
            for field, sub in zip(names, fields):
                if field == "getvalue" and isinstance(sub, ast.MatchAs) and sub.name:
                    self.getters.add(sub.name)
            return kinds, sure
        if isinstance(pattern, ast.MatchSequence):
            elements = pattern.patterns
            sure = len(elements) == 4 and all(_captures(p) for p in elements)
            if elements and isinstance(elements[0], ast.MatchAs) and elements[0].name:
                self.getters.add(elements[0].name)
            return frozenset([INTERP]), sure
        if isinstance(pattern, ast.MatchMapping):
            return frozenset(), True
        return BOTH, False  # a value or a singleton: may or may not match

    def _bind(self, target: ast.expr, value: ast.expr, states: list[State]) -> None:
        line = f"line {target.lineno}"
        why = self.quiet.target(target, self.locals)
        if why:
            raise Unprovable(OBSERVABLE, f"it {why} while it reads its values ({line})")
        if isinstance(value, ast.Name) and value.id in self.items:
            if isinstance(target, ast.Tuple) and len(target.elts) == 4:
                if any(DECODED in s.kinds for s in states if s.kinds):
                    raise Unprovable(ORDER, f"it unpacks an argument that may be a string ({line})")
                first = target.elts[0]
                if isinstance(first, ast.Name):
                    self.getters.add(first.id)
            elif isinstance(target, ast.Name):
                self.items.add(target.id)
        elif _is_getter(value, self.items) and isinstance(target, ast.Name):
            self.getters.add(target.id)

    def _condition(self, test: ast.expr, states: list[State]) -> tuple[list[State], list[State]]:
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
        return ([State(s.kinds & kinds, s.reads) for s in states if s.kinds & kinds],
                [State(s.kinds - kinds, s.reads) for s in states if s.kinds - kinds])

    def _kinds_tested(self, test: ast.expr) -> frozenset[str] | None:
        """``isinstance(a, Decoded)``, ``type(a) is str``, ``is_interpolation(a)``: what a true test means."""
        if isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Name):
            if test.args[0].id not in self.items:
                return None
            name = name_of(test.func)
            if name == "is_interpolation":
                return frozenset([INTERP])
            if name == "isinstance" and len(test.args) == 2:
                return _class_kinds(test.args[1])
            if name == "hasattr" and len(test.args) == 2 and isinstance(test.args[1], ast.Constant):
                field = test.args[1].value
                return frozenset([INTERP]) if field in ("getvalue", "expr", "conv", "format_spec") else None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
            left = test.left
            if isinstance(left, ast.Call) and name_of(left.func) == "type" and left.args and isinstance(
                left.args[0], ast.Name
            ) and left.args[0].id in self.items:
                return _class_kinds(test.comparators[0])
        return None

    def _expression(self, node: ast.expr, states: list[State]) -> list[State]:
        """The states after evaluating ``node`` (its reads counted); fails on a use of an
        interpolation that keeps or passes it on, or on something observable."""
        if len(states) > _MAX_STATES:
            raise Unprovable(ORDER, f"it reads its values in a way too intricate to follow (line {node.lineno})")
        line = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.IfExp):
            true, false = self._condition(node.test, states)
            return _merge(self._expression(node.body, true), self._expression(node.orelse, false))
        if isinstance(node, ast.BoolOp):
            true, false = self._condition(node, states)
            return _merge(true, false)
        if isinstance(node, ast.Call):
            if self._is_read(node):
                return [State(s.kinds, s.reads + 1) for s in states]
            name = name_of(node.func)
            inspecting = name in INSPECTING and node.args
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
                raise Unprovable(OBSERVABLE, f"it {why} while it reads its values")
            return states
        if isinstance(node, ast.Name):
            if node.id not in self.items and node.id not in self.getters:
                why = self.quiet.shared_read(self.module, node)
                if why:
                    raise Unprovable(OBSERVABLE, f"it {why} while it reads its values")
            if node.id in self.getters:
                raise Unprovable(LAZY, f"it passes on or keeps an interpolation's getvalue ({line})")
            if node.id in self.items and any(INTERP in s.kinds for s in states):
                raise Unprovable(LAZY, f"it passes on or keeps an interpolation ({line})")
            return states
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            return self._operand(node.value, states, part=node)
        if isinstance(node, ast.Lambda):
            return states  # nested scopes are judged apart
        if isinstance(node, COMPREHENSIONS):
            if self._has_read(node):
                raise Unprovable(ORDER, f"it reads values in a nested loop ({line})")
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom)):
            raise Unprovable(LAZY, f"it awaits or yields ({line})")
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                states = self._expression(child, states)
            elif isinstance(child, ast.comprehension):
                for part in (child.iter, *child.ifs):
                    states = self._expression(part, states)
        return states

    def _operand(self, value: ast.expr, states: list[State], *, method: bool = False,
                 part: ast.Attribute | ast.Subscript | None = None) -> list[State]:
        """``value.attr``, ``value[k]`` or ``value.method(...)``: an argument's parts are fine to
        read, its ``getvalue`` only to call."""
        if isinstance(value, ast.Name) and value.id in self.items:
            if isinstance(part, ast.Attribute) and part.attr == "getvalue" or (
                isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant) and part.slice.value == 0
            ):
                raise Unprovable(LAZY, f"it passes on or keeps an interpolation's getvalue (line {value.lineno})")
            if isinstance(part, ast.Subscript) and not isinstance(part.slice, ast.Constant):
                if any(INTERP in s.kinds for s in states):
                    raise Unprovable(ORDER, f"it reads an interpolation's parts by a computed index "
                                            f"(line {value.lineno})")
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
    names = [name_of(e) for e in node.elts] if isinstance(node, ast.Tuple) else [name_of(node)]
    kinds: set[str] = set()
    for name in names:
        if name in _D_NAMES:
            kinds.add(DECODED)
        elif name in _I_NAMES:
            kinds.add(INTERP)
        else:
            return None
    return frozenset(kinds)


def _narrows(test: ast.expr) -> bool:
    return isinstance(test, ast.Call) and name_of(test.func) in ("isinstance", "is_interpolation")


def _captures(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchAs) and pattern.pattern is None


def _merge(first: list[State], second: list[State]) -> list[State]:
    return list(dict.fromkeys([*first, *second]))
