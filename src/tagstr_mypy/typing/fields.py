"""Each interpolation's type for the tag, from the arguments of a tag string's call.

What each argument is (a literal part, an interpolation, a format spec) is
the checker tree's record of the call (``parse/checker_tree.py``'s
``SiteRecord``), which the hooks read; an interpolation is its ``lambda: expr``.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.expandtype import expand_type
from mypy.lookup import lookup_fully_qualified
from mypy.nodes import Expression, LambdaExpr, TypeInfo
from mypy.plugin import FunctionContext
from mypy.types import AnyType, CallableType, Instance, TupleType, Type, TypeOfAny, get_proper_type

from tagstr_runtime.frontend import INTERPOLATION_TYPE

__all__ = ["flat_types", "interpolation_type", "lambda_of", "slot_type", "typeinfo"]


def lambda_of(arg: Expression) -> LambdaExpr | None:
    """An interpolation's lambda (``arg`` itself, which the record says is one), or None."""
    return arg if isinstance(arg, LambdaExpr) else None


def flat_types(ctx: FunctionContext) -> list[Type]:
    """The actual arguments' types in call order (mypy groups them by parameter)."""
    return [typ for group in ctx.arg_types for typ in group]


def slot_type(api: TypeChecker, arg: Expression, inferred: Type) -> Type:
    """What the tag is passed for ``arg``: ``Interpolation[<its value's type>]``
    for an interpolation, the value as mypy typed it in the tag's context."""
    lam = lambda_of(arg)
    if lam is None:
        return inferred
    value = api.lookup_type_or_none(lam.expr())
    if value is None:  # not typed (unreachable code): what the lambda returns
        proper = get_proper_type(inferred)
        value = proper.ret_type if isinstance(proper, CallableType) else AnyType(TypeOfAny.special_form)
    return interpolation_type(api, value)


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
