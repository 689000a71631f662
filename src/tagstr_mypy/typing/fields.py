"""Each interpolation's type for the tag, from the arguments of a tag string's call.

What each argument is (a literal part, an interpolation in place or as its
lambda, a format spec's field) is the checker tree's record of the call
(``parse/checker_tree.py``'s ``SiteRecord``), which the hooks read.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.expandtype import expand_type
from mypy.lookup import lookup_fully_qualified
from mypy.nodes import Context, Expression, LambdaExpr, TypeInfo
from mypy.plugin import FunctionContext
from mypy.types import AnyType, CallableType, Instance, TupleType, Type, TypeOfAny, get_proper_type

from tagstr_runtime.frontend import INTERPOLATION_TYPE

from tagstr_mypy.parse.checker_tree import INTERPOLATION, THUNK

__all__ = [
    "flat_types", "interpolation_type", "slot_type", "typeinfo", "value_context", "value_of", "value_type",
]


def value_of(arg: Expression, kind: int) -> Expression | None:
    """An interpolation's expression (``kind``: what the record says ``arg`` is): the
    argument itself in place, the body of its lambda; None for anything else."""
    if kind == INTERPOLATION:
        return arg
    if kind == THUNK and isinstance(arg, LambdaExpr):
        return arg.expr()
    return None


def value_context(value: Expression, start: tuple[int, int] | None) -> Context:
    """Where the plugin reports about an interpolation's ``value``: the expression, from its own
    ``start`` when the tree placed it at the f-string twin's field (``SiteRecord.starts``)."""
    if start is None:
        return value
    context = Context(start[0], start[1])
    context.end_line, context.end_column = value.end_line, value.end_column
    return context


def flat_types(ctx: FunctionContext) -> list[Type]:
    """The actual arguments' types in call order (mypy groups them by parameter)."""
    return [typ for group in ctx.arg_types for typ in group]


def slot_type(api: TypeChecker, arg: Expression, kind: int, inferred: Type) -> Type:
    """What the tag is passed for ``arg``: ``Interpolation[<its value's type>]`` for an
    interpolation (the value as mypy typed it in the tag's context), else ``inferred``.
    As the wrapper's constructor solves its type variable, a literal's value is forgotten
    (``Interpolation[int]`` for ``{1}``), a literal type the context asked for stays."""
    value = value_type(api, arg, kind, inferred)
    if value is None:
        return inferred
    proper = get_proper_type(value)
    if isinstance(proper, Instance) and proper.last_known_value is not None:
        value = proper.copy_modified(last_known_value=None)
    return interpolation_type(api, value)


def value_type(api: TypeChecker, arg: Expression, kind: int, inferred: Type) -> Type | None:
    """An interpolation's value as mypy typed it (a literal's value kept), or None."""
    if kind == INTERPOLATION:
        return inferred
    if kind != THUNK or not isinstance(arg, LambdaExpr):
        return None
    found = api.lookup_type_or_none(arg.expr())
    if found is None:  # not typed (unreachable code): what the lambda returns
        proper = get_proper_type(inferred)
        found = proper.ret_type if isinstance(proper, CallableType) else AnyType(TypeOfAny.special_form)
    return found


def interpolation_type(api: TypeChecker, value: Type) -> Type:
    """``Interpolation[value]`` as mypy builds it for a tuple subclass (a TupleType)."""
    info = typeinfo(api, INTERPOLATION_TYPE)
    base = None if info is None else info.tuple_type
    if info is None or base is None or not info.defn.type_vars:
        return AnyType(TypeOfAny.special_form)
    variable = info.defn.type_vars[0]
    expanded = get_proper_type(expand_type(base, {variable.id: value}))
    assert isinstance(expanded, TupleType)
    return expanded.copy_modified(fallback=Instance(info, [value]))


def typeinfo(api: TypeChecker, fullname: str) -> TypeInfo | None:
    """A class of the runtime by full name (its private module is not a name of the package)."""
    found = lookup_fully_qualified(fullname, api.modules)
    return found.node if found is not None and isinstance(found.node, TypeInfo) else None
