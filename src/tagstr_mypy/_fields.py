"""The parts of an interpolation as the checker tree writes it,
``Interpolation((lambda: expr, 'expr', conv, spec))``, and its type for the tag."""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.expandtype import expand_type
from mypy.nodes import CallExpr, Expression, LambdaExpr, StrExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.types import Instance, TupleType, Type, TypeVarType, get_proper_type

from tagstr_runtime.frontend import INTERPOLATION_TYPE

__all__ = ["expr_text", "flat_types", "lambda_of", "slot_type"]

INTERPOLATION: Final = INTERPOLATION_TYPE


def lambda_of(arg: Expression) -> LambdaExpr | None:
    """``Interpolation((lambda: expr, 'expr', conv, spec))`` -> the lambda."""
    if isinstance(arg, CallExpr) and arg.args and isinstance(arg.args[0], TupleExpr):
        first = arg.args[0].items[0] if arg.args[0].items else None
        if isinstance(first, LambdaExpr):
            return first
    return None


def expr_text(arg: Expression) -> str:
    if isinstance(arg, CallExpr) and arg.args and isinstance(arg.args[0], TupleExpr):
        items = arg.args[0].items
        if len(items) > 1 and isinstance(items[1], StrExpr):
            return items[1].value
    return "?"


def flat_types(ctx: FunctionContext) -> list[Type]:
    """The actual arguments' types in call order (mypy groups them by parameter)."""
    return [typ for group in ctx.arg_types for typ in group]


def slot_type(api: TypeChecker, arg: Expression, inferred: Type) -> Type:
    """An interpolation's type as ``Interpolation[<its value's type>]``, the value as
    mypy typed it in the tag's context.  The wrapper's own type is no guide: mypy
    takes the wrapper's type argument from the context when it can, even when
    the value does not fit it."""
    lam = lambda_of(arg)
    if lam is None:
        return inferred
    value = api.lookup_type_or_none(lam.expr())
    proper = get_proper_type(inferred)
    if value is None:
        return inferred
    if isinstance(proper, Instance) and proper.type.fullname == INTERPOLATION and len(proper.args) == 1:
        return proper.copy_modified(args=[value])
    if not isinstance(proper, TupleType):
        return inferred
    # a tuple subclass: its items hold the value's type too
    fallback = proper.partial_fallback
    info = fallback.type
    if info.fullname != INTERPOLATION or len(fallback.args) != 1 or info.tuple_type is None:
        return inferred
    variable = get_proper_type(info.defn.type_vars[0]) if len(info.defn.type_vars) == 1 else None
    if not isinstance(variable, TypeVarType):
        return inferred
    expanded = get_proper_type(expand_type(info.tuple_type, {variable.id: value}))
    if not isinstance(expanded, TupleType):
        return inferred
    return expanded.copy_modified(fallback=fallback.copy_modified(args=[value]))
