"""The native parser's own tree of a module with tag strings, each tag string's call put in place.

mypy's native parser reads the placeholder text (``parse/hook.py``): each tag
string overwritten by ``tag(field, field, ...)``, every field's expression as
written, at its own position.  Its tree is what stock mypy makes of every
other line of the file, so it is kept: only each placeholder call becomes the
call the checker tree writes (``parse/checker_tree.py``):
``__tagstr_call__(tag, __tagstr_d__, expr, ...)``, the native parser's own
nodes for the expressions (a lambda around the few that stay closures).  The
columns outside tag strings, and inside them, are the native parser's, as for
the f-string twin, and nothing is converted.

``graft`` finds each placeholder call by its position, entering only the nodes
that hold one.  Where anything does not match what the desugarer parsed (a
call not found, another number of arguments), it changes nothing and says so:
the module's converted tree is used instead.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple

from mypy.nodes import (
    ARG_POS,
    AssignmentStmt,
    Block,
    FuncDef,
    CallExpr,
    Decorator,
    Expression,
    ImportFrom,
    LambdaExpr,
    MypyFile,
    NameExpr,
    Node,
    ReturnStmt,
    Statement,
    StrExpr,
    ExpressionStmt,
    SymbolNode,
)
from mypy.types import RawExpressionType, Type

from tagstr_mypy.parse.checker_tree import CALL_NAME, CHECKER_MODULE, DECODED, DECODED_NAME, THUNK

if TYPE_CHECKING:
    from tagstr_mypy.parse.checker_tree import CheckerTree

__all__ = ["GraftPlan", "graft", "graft_plan"]

#: (line, column) in the native parser's unit (characters)
At = tuple[int, int]
#: (line, column, end line, end column)
Span = tuple[int, int, int, int]


class _Call(NamedTuple):
    """One tag string's call, as the checker tree writes it."""

    name: str  # the tag's name
    #: each argument after the tag: (kind, the span of a literal part's name or of a lambda)
    args: tuple[tuple[int, Span | None], ...]
    #: how many fields each argument of the placeholder call holds (chained fields: more than one)
    chains: tuple[int, ...]


class GraftPlan(NamedTuple):
    calls: dict[At, _Call]
    #: where the tag strings in annotations are (their tags' names): the f-string twin's error
    #: there, without mypy's suggestion for a call (``Suggestion: use tag[...] instead of tag(...)``)
    annotations: dict[At, str]
    #: each call's position in characters (the checker tree's records) -> in the native
    #: parser's unit, where the two differ (lines with non-ASCII text)
    moved: dict[At, At]


def graft_plan(built: CheckerTree, placeholder: str) -> GraftPlan:
    """What ``graft`` needs of the checker tree (its calls, in the native parser's columns;
    ``placeholder``: the text it parses)."""
    native = None if placeholder.isascii() else _native_columns(placeholder)
    calls: dict[At, _Call] = {}
    moved: dict[At, At] = {}
    chained = built.desugaring.chained
    # a tag string nested in one in an annotation: in the native tree, inside a type
    typed = sorted((start, end) for start, (end, _) in built.annotations.items())
    records = built.sites
    for call, tag in built.calls:
        at = (call.lineno, call.col_offset)
        record = records.get(at)
        if record is None or (typed and any(start <= at < end for start, end in typed)):
            continue
        args: list[tuple[int, Span | None]] = []
        count = 0  # the fields the placeholder call passes
        for node, kind in zip(call.args[1:], record.kinds):
            if kind == DECODED or kind == THUNK:
                end_col = node.end_col_offset
                span = (node.lineno, node.col_offset, node.end_lineno or node.lineno,
                        node.col_offset if end_col is None else end_col)
                args.append((kind, span if native is None else native(span)))
            else:
                args.append((kind, None))
            count += kind != DECODED
        if chained:
            chains: list[int] = []
            for field in tag.fields():
                if chains and field.span.start in chained:
                    chains[-1] += 1
                else:
                    chains.append(1)
        else:
            chains = [1] * count
        there = at if native is None else native((*at, *at))[:2]
        if there != at:
            moved[at] = there
        calls[there] = _Call(tag.name, tuple(args), tuple(chains))
    annotations = {
        (start if native is None else native((*start, *start))[:2]): name
        for start, (_, name) in built.annotations.items()
    }
    return GraftPlan(calls, annotations, moved)


def _native_columns(text: str) -> Callable[[Span], Span]:
    """Character columns to the native parser's on ``text``: on a line with non-ASCII text,
    mypy 2.4's native parser reports a column short by the extra UTF-8 bytes before it (as
    for the f-string twin, and any code, on that line)."""
    lines = text.split("\n")

    def column(line: int, col: int) -> int:
        if not 0 < line <= len(lines):
            return col
        before = lines[line - 1][:col]
        return col if before.isascii() else 2 * col - len(before.encode("utf-8"))

    def native(span: Span) -> Span:
        return (span[0], column(span[0], span[1]), span[2], column(span[2], span[3]))

    return native


def graft(file: MypyFile, plan: GraftPlan) -> bool:
    """Put each tag string's call in place in ``file`` (the native parser's tree of the
    placeholder text); False, with ``file`` unchanged, where the tree is not the one the plan
    was made for."""
    targets = sorted(plan.calls)
    found: dict[At, CallExpr] = {}
    _find(file.defs, targets, found, plan)
    if len(found) != len(targets):
        # mypy drops the statements after an ``assert sys.platform == ...`` that is false for
        # the target (the stdlib-ast path does the same): their tag strings are not checked
        last = file.defs[-1] if file.defs else None
        end = (last.end_line or last.line, last.end_column or 0) if last is not None else (0, 0)
        if any(at <= end for at in targets if at not in found):
            return False
    new_args: dict[At, list[Expression]] = {}
    for at, call in found.items():
        args = _arguments(call, plan.calls[at])
        if args is None:
            return False
        new_args[at] = args
    for at, call in found.items():  # nothing changes before everything matched
        line, col = at
        hook = NameExpr(CALL_NAME)
        hook.set_line(line, col, line - 1, col)  # encloses no position (``checker_tree._out_of_reach``)
        call.callee = hook
        call.args = new_args[at]
        call.arg_kinds = [ARG_POS] * len(call.args)
        call.arg_names = [None] * len(call.args)
    if plan.annotations:
        _annotations_as_fstrings(file, plan.annotations)
    _import_checker(file)
    return True


def _arguments(call: CallExpr, plan: _Call) -> list[Expression] | None:
    """The arguments of the tag string's call: the tag, then each part (None: not the placeholder)."""
    callee = call.callee
    if not isinstance(callee, NameExpr) or callee.name != plan.name or len(call.args) != len(plan.chains):
        return None
    if any(kind != ARG_POS for kind in call.arg_kinds):
        return None
    fields: list[Expression] = []
    for arg, chain in zip(call.args, plan.chains):
        group: list[Expression] = []
        for _ in range(chain - 1):  # (a)(b)(c): Call(Call(a, [b]), [c])
            if not isinstance(arg, CallExpr) or len(arg.args) != 1:
                return None
            group.append(arg.args[0])
            arg = arg.callee
        group.append(arg)
        fields.extend(reversed(group))
    values = iter(fields)
    args: list[Expression] = [callee]
    for kind, span in plan.args:
        if kind == DECODED:
            assert span is not None
            name = NameExpr(DECODED_NAME)
            name.set_line(*span)
            args.append(name)
            continue
        value = next(values, None)
        if value is None:
            return None
        if kind == THUNK:
            assert span is not None
            value = _thunk(value, span)
        args.append(value)
    if next(values, None) is not None:
        return None
    return args


def _thunk(value: Expression, span: Span) -> LambdaExpr:
    """``lambda: value``, as mypy's parsers build a lambda."""
    ret = ReturnStmt(value)
    ret.set_line(value)
    body = Block([ret])
    body.set_line(value)
    lam = LambdaExpr([], body)
    lam.set_line(*span)
    return lam


def _import_checker(file: MypyFile) -> None:
    """``from tagstr_runtime._checker import tag_call as __tagstr_call__, decoded as __tagstr_d__``
    after the docstring and the ``__future__`` imports, on the line of the statement it precedes
    (as ``CheckerEmitter.finish`` writes it)."""
    defs = file.defs
    index = 0
    if defs and isinstance(defs[0], ExpressionStmt) and isinstance(defs[0].expr, StrExpr):
        index = 1
    while index < len(defs):
        statement = defs[index]
        if not isinstance(statement, ImportFrom) or statement.id != "__future__":
            break
        index += 1
    line = defs[index].line if index < len(defs) else 1
    imp = ImportFrom(CHECKER_MODULE, 0, [("tag_call", CALL_NAME), ("decoded", DECODED_NAME)])
    imp.set_line(line, 0, line, 0)
    imp.is_top_level = True
    defs.insert(index, imp)
    file.imports.append(imp)


# -- finding the placeholder calls -------------------------------------------------------------

#: attributes that hold no node of the tree (symbols, types, flags, positions, derived lists)
_NOT_CHILDREN = frozenset([
    "line", "column", "end_line", "end_column", "__match_args__", "info", "_fullname", "node", "analyzed",
    "variable", "type", "unanalyzed_type", "var", "original_def", "original_decorators", "expanded",
    "def_or_infer_vars", "removed_base_type_exprs", "removed_statements", "unanalyzed_items", "subject_dummy",
    "type_args", "type_vars",
])
_CHILD_ATTRIBUTES: dict[type, tuple[str, ...]] = {}


def _children(node: Node) -> Iterable[Node]:
    """The nodes of the tree directly under ``node``, in source order as mypy lists them."""
    cls = type(node)
    fast = _FAST.get(cls)
    if fast is not None:
        return fast(node)
    return _generic_children(node)


def _generic_children(node: Node) -> Iterator[Node]:
    cls = type(node)
    names = _CHILD_ATTRIBUTES.get(cls)
    if names is None:
        names = tuple(
            name for klass in cls.__mro__ for name in getattr(klass, "__mypyc_attrs__", ())
            if name not in _NOT_CHILDREN
        )
        _CHILD_ATTRIBUTES[cls] = names = tuple(dict.fromkeys(names))
    for name in names:
        yield from _nodes(getattr(node, name, None))


def _call_children(node: CallExpr) -> list[Node]:
    return [node.callee, *node.args]


def _function_children(node: FuncDef) -> Iterable[Node]:
    # its parameters' defaults come before its body (decorators hang off a Decorator)
    initializers = [arg.initializer for arg in node.arguments if arg.initializer is not None]
    return [*initializers, node.body] if initializers else (node.body,)


#: the node types met most on the way to a tag string, with their children
_FAST: dict[type, Callable[[Any], Iterable[Node]]] = {
    Block: lambda node: node.body,
    FuncDef: _function_children,
    Decorator: lambda node: [*node.decorators, node.func],
    ExpressionStmt: lambda node: (node.expr,),
    AssignmentStmt: lambda node: [*node.lvalues, node.rvalue],
    ReturnStmt: lambda node: () if node.expr is None else (node.expr,),
    CallExpr: _call_children,
}


def _nodes(value: object) -> Iterator[Node]:
    if isinstance(value, Node):
        if not isinstance(value, SymbolNode) or isinstance(value, Statement):
            yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes(item)


def _start(node: Node) -> At | None:
    if node.line < 0:
        return None
    start = (node.line, node.column)
    if isinstance(node, Decorator) and node.decorators:
        first = node.decorators[0]
        start = min(start, (first.line, first.column))
    return start


def _find(nodes: Iterable[Node], targets: list[At], found: dict[At, CallExpr], plan: GraftPlan) -> None:
    """The placeholder calls at ``targets`` (sorted) among ``nodes`` and below them."""
    if not targets:
        return
    first, last = targets[0], targets[-1]
    for node in nodes:
        line = node.line
        end_line = node.end_line
        if end_line is not None and 0 <= end_line < first[0] or line > last[0]:
            continue  # (most statements of a module: no tag string starts there)
        start = _start(node)
        if start is not None and end_line is not None and end_line >= 0:
            end_column = node.end_column
            end = (end_line, end_column if end_column is not None and end_column >= 0 else 1 << 30)
            low = bisect_left(targets, start)
            high = bisect_left(targets, (end[0], end[1] + 1))
            if low == high:
                continue
            inside = targets if low == 0 and high == len(targets) else targets[low:high]
        else:
            inside = targets
        if isinstance(node, CallExpr) and start in plan.calls and start in inside and _is_placeholder(node, plan):
            found[start] = node
            inside = [at for at in inside if at != start]
        if inside:
            _find(_children(node), inside, found, plan)


def _is_placeholder(call: CallExpr, plan: GraftPlan) -> bool:
    """``tag(...)`` (not a call of what it returns, ``tag"x"()``, which starts there too)."""
    callee = call.callee
    return isinstance(callee, NameExpr) and callee.name == plan.calls[(call.line, call.column)].name


# -- tag strings in annotations ---------------------------------------------------------------


def _annotations_as_fstrings(file: MypyFile, annotations: dict[At, str]) -> None:
    """Drop mypy's suggestion for a call in an annotation (``use tag[...] instead of tag(...)``)
    at the tag strings there: the f-string twin gets ``Invalid type comment or annotation`` alone."""
    todo: list[Node] = list(file.defs)
    while todo:
        node = todo.pop()
        for name in ("type", "unanalyzed_type", "type_annotation"):
            for typ in _types(getattr(node, name, None)):
                if isinstance(typ, RawExpressionType) and typ.note is not None:
                    tag = annotations.get((typ.line, typ.column))
                    if tag is not None and typ.note == f"Suggestion: use {tag}[...] instead of {tag}(...)":
                        typ.note = None
        todo.extend(_children(node))


def _types(value: object) -> Iterator[Type]:
    if isinstance(value, Type):
        yield value
        for name in getattr(type(value), "__mypyc_attrs__", ()):
            if name in ("arg_types", "ret_type", "items", "args", "type"):
                yield from _types(getattr(value, name, None))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _types(item)
