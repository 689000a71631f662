"""Whether a tag may read one part of what it gets: a ``Decoded``'s ``.raw``, an interpolation's ``expr``.

A template keeps one text per literal part and the expression as 3.14
writes it; the migration keeps a tag string whose tag reads either where the
text would change (MIG002, MIG017).  ``reads_part`` looks at the tag's code
and at every function of the tree it calls, as far as they go:

- the attribute (``a.raw``, ``a.expr``), ``getattr(a, "raw")``,
  ``operator.attrgetter("expr")``;
- a ``match`` capture of that field (``case Interpolation(g, expr, ...)``,
  ``case g, e, _, _:``, ``case Interpolation(expr=e)``), an unpacking
  ``g, e, c, s = a``, an index ``a[1]`` of an argument or a parameter;
- unknown: its arguments passed to a function the tree does not hold, or
  ``getattr`` with a computed name.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.pure_names import PURE_BUILTINS, PURE_QUALIFIED

if TYPE_CHECKING:
    from tagstr_runtime.analysis.definitions import TagResolver

__all__ = ["reads_part"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_MAX_DEPTH = 6


def reads_part(
    function: ast.AST, module: ModuleAnalysis, resolver: TagResolver, attribute: str, position: int | None,
    seen: dict[int, bool | None] | None = None, depth: int = 0,
) -> bool | None:
    """Whether ``function`` (or what it calls) reads ``attribute`` of what it gets, or the field
    at ``position`` of a tuple-like argument (``expr`` is field 1 of an ``Interpolation``).
    None: it passes its arguments where the tool cannot look."""
    seen = {} if seen is None else seen
    key = id(function)
    if key in seen:
        return seen[key]
    seen[key] = False  # a cycle adds nothing
    found = _reads(function, module, resolver, attribute, position, seen, depth)
    seen[key] = found
    return found


def _reads(function: ast.AST, module: ModuleAnalysis, resolver: TagResolver, attribute: str,
           position: int | None, seen: dict[int, bool | None], depth: int) -> bool | None:
    arguments = _argument_names(function)
    loaded = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    unknown = False
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr == attribute:
            return True
        if isinstance(node, ast.Subscript) and position is not None and isinstance(node.value, ast.Name) and (
            node.value.id in arguments
        ):
            index = node.slice
            if isinstance(index, ast.Constant) and index.value == position:
                return True
            if isinstance(index, ast.Slice) or not isinstance(index, ast.Constant):
                unknown = True
        if isinstance(node, ast.pattern) and _captures(node, attribute, position, loaded):
            return True
        if isinstance(node, (ast.Assign, ast.For, ast.comprehension)) and position is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Tuple) and len(target.elts) == 4:
                    named = target.elts[position]
                    if isinstance(named, ast.Name) and named.id in loaded:
                        return True
        if isinstance(node, ast.Call):
            said = _call(node, module, resolver, attribute, position, arguments, seen, depth)
            if said is True:
                return True
            unknown = unknown or said is None
    return None if unknown else False


def _argument_names(function: ast.AST) -> set[str]:
    """The parameters of ``function`` and of the functions in it, and the names looping over them."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, _FUNCTIONS):
            args = node.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None and arg.arg not in ("self", "cls"):
                    names.add(arg.arg)
    grown = True
    while grown:
        grown = False
        for node in ast.walk(function):
            if isinstance(node, (ast.For, ast.comprehension)) and _names_in(node.iter) & names:
                for target in ast.walk(node.target):
                    if isinstance(target, ast.Name) and target.id not in names:
                        names.add(target.id)
                        grown = True
    return names


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _captures(pattern: ast.pattern, attribute: str, position: int | None, loaded: set[str]) -> bool:
    def used(sub: ast.pattern) -> bool:
        return isinstance(sub, ast.MatchAs) and sub.name is not None and sub.name in loaded

    if isinstance(pattern, ast.MatchClass):
        if attribute in pattern.kwd_attrs:
            return used(pattern.kwd_patterns[pattern.kwd_attrs.index(attribute)])
        cls = pattern.cls
        name = cls.id if isinstance(cls, ast.Name) else cls.attr if isinstance(cls, ast.Attribute) else ""
        return position is not None and name not in ("Decoded", "str") and len(pattern.patterns) > position and used(
            pattern.patterns[position]
        )
    if isinstance(pattern, ast.MatchSequence) and position is not None:
        return len(pattern.patterns) > position and used(pattern.patterns[position])
    return False


def _call(call: ast.Call, module: ModuleAnalysis, resolver: TagResolver, attribute: str, position: int | None,
          arguments: set[str], seen: dict[int, bool | None], depth: int) -> bool | None:
    """What a call says: True if it reads the part, None if it hands arguments where the tool
    cannot look, else False."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    values = [*call.args, *(k.value for k in call.keywords)]
    if name in ("getattr", "attrgetter", "hasattr"):
        texts = [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
        if attribute in texts:
            return True
        return None if name == "getattr" and len(values) >= 2 and not texts else False
    handed = any(_names_in(v) & arguments for v in values)
    if not handed:
        return False
    if isinstance(func, ast.Name) and name in PURE_BUILTINS and not module.scopes.is_bound(func):
        return False
    if isinstance(func, ast.Attribute) and name in ("append", "extend", "join", "add", "insert"):
        return False  # kept in a container: what reads it later reads the container, judged apart
    if depth >= _MAX_DEPTH:
        return None
    found = resolver.value(module, func, 0)
    result: bool | None = False
    for each in found.every:
        if each.kind == "function" and each.node is not None and each.module is not None:
            said = reads_part(each.node, each.module, resolver, attribute, position, seen, depth + 1)
        elif each.kind == "class" and isinstance(each.node, ast.ClassDef) and each.module is not None:
            said = reads_part(each.node, each.module, resolver, attribute, position, seen, depth + 1)
        elif each.kind == "unknown" and each.dotted in PURE_QUALIFIED:
            said = False
        else:
            said = None
        if said is True:
            return True
        if said is None:
            result = None
    return result


# -- a Decoded that leaves the tag ------------------------------------------------------------

#: calls that turn what they get into a new, plain value (a Decoded going in does not come out)
_CONSUMING = frozenset([
    "isinstance", "len", "str", "repr", "format", "type", "hasattr", "getattr", "ord", "bool", "int", "float",
    "join", "escape", "quote", "encode",
])
_KEEPING = frozenset(["append", "extend", "insert", "add", "appendleft"])


def lets_decoded_out(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> bool:
    """Whether a ``Decoded`` the tag gets may leave it as it is (returned, kept, handed on):
    whoever holds one may read its ``.raw``, or show it (its ``repr`` shows ``raw``).  A literal
    part joined into a new string, formatted or measured does not leave."""
    vararg = function.args.vararg.arg if function.args.vararg else None
    if vararg is None:
        return False
    parents = {id(child): node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
    items = {vararg}
    grown = True
    while grown:  # loop targets over *args, match captures of a string, aliases
        grown = False
        for node in ast.walk(function):
            new: set[str] = set()
            if isinstance(node, (ast.For, ast.comprehension)) and _names_in(node.iter) & items:
                target = node.target
                if isinstance(target, ast.Tuple) and len(target.elts) == 2:  # enumerate(args)
                    target = target.elts[1]
                new = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            elif isinstance(node, ast.MatchAs) and node.name and isinstance(node.pattern, ast.MatchClass):
                new = {node.name}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in items:
                new = {t.id for t in node.targets if isinstance(t, ast.Name)}
            if new - items:
                items |= new
                grown = True
    holders: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in items:
            kept = _kept_by(node, parents, holders)
            if kept:
                return True
    for node in ast.walk(function):  # a container holding one: only joined or measured
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in holders:
            parent = parents.get(id(node))
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and (
                parent.func.attr == "join" and node in parent.args
            ):
                continue
            if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _KEEPING:
                continue
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len":
                continue
            return True
    return False


def _kept_by(node: ast.expr, parents: dict[int, ast.AST], holders: set[str]) -> bool:
    """Whether the value ``node`` may be kept as it is by where it stands."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.IfExp) and node is not parent.test:
        return _kept_by(parent, parents, holders)
    if isinstance(parent, (ast.BinOp, ast.JoinedStr, ast.FormattedValue, ast.Compare, ast.BoolOp, ast.UnaryOp,
                           ast.If, ast.While, ast.Assert, ast.Attribute, ast.Subscript, ast.IfExp, ast.Match)):
        return False
    if isinstance(parent, ast.Assign) and node is parent.value:
        return not all(isinstance(t, ast.Name) for t in parent.targets)  # an alias: judged as one
    if isinstance(parent, (ast.For, ast.comprehension)):
        return False  # iterated: its items are judged where they are used
    if isinstance(parent, ast.Call):
        func = parent.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if isinstance(func, ast.Attribute) and name in _KEEPING and isinstance(func.value, ast.Name):
            holders.add(func.value.id)
            return False
        return name not in _CONSUMING
    if isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and node is parent.elt:
        outer = parents.get(id(parent))
        joined = isinstance(outer, ast.Call) and isinstance(outer.func, ast.Attribute) and outer.func.attr == "join"
        return not joined
    return True
