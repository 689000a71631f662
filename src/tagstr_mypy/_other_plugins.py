"""Another plugin's hooks on a tag, applied to a tag string as to the call it stands for.

mypy looks hooks up by the callee's name, and a tag string's callee is
``tag_call``: another plugin that hooks ``pkg.tag`` (or ``pkg.Tag.__call__``)
would never see ``tag"..."``.  Our hooks ask the chained plugin (``api.plugin``)
for the tag's own hooks and apply them with what they would get for
``tag(...)``: the arguments without the leading tag.
"""

from __future__ import annotations

from typing import Callable

from mypy.checker import TypeChecker
from mypy.nodes import Context, Expression, RefExpr
from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.subtypes import find_member
from mypy.types import CallableType, FunctionLike, Instance, Overloaded, ProperType, Type, get_proper_type

from tagstr_mypy._names import TAG_CALL


__all__ = ["has_own_signature", "other_plugins_result", "own_signature"]


def has_own_signature(tag_type: ProperType) -> bool:
    """Whether the signature hook gives mypy the tag's own signature for the call."""
    if isinstance(tag_type, (CallableType, Overloaded)):
        return True
    if isinstance(tag_type, Instance):
        call = get_proper_type(find_member("__call__", tag_type, tag_type, is_operator=True))
        return isinstance(call, (CallableType, Overloaded))
    return False


def own_signature(
    api: TypeChecker, tag_expr: Expression, tag_type: ProperType, args: list[Expression], call: Context
) -> FunctionLike | None:
    """The tag's signature, as another plugin's signature hook makes it for ``tag(...)``."""
    plugin = api.plugin
    formal_args = [args]
    if isinstance(tag_type, FunctionLike):
        fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
        if tag_type.is_type_obj():
            return tag_type  # mypy checks a class's own call by the class's name
        hook = plugin.get_function_signature_hook(fullname) if fullname else None
        if hook is None:
            return tag_type
        return apply_each(tag_type, lambda sig: hook(FunctionSigContext(formal_args, sig, call, api)))
    if isinstance(tag_type, Instance):
        method = get_proper_type(find_member("__call__", tag_type, tag_type, is_operator=True))
        if not isinstance(method, FunctionLike):
            return None
        method_hook = plugin.get_method_signature_hook(f"{tag_type.type.fullname}.__call__")
        if method_hook is None:
            return method
        return apply_each(
            method, lambda sig: method_hook(MethodSigContext(tag_type, formal_args, sig, call, api))
        )
    return None


def apply_each(typ: FunctionLike, hook: Callable[[CallableType], FunctionLike]) -> FunctionLike:
    items = []
    for item in typ.items:
        items.extend(hook(item).items)
    return items[0] if len(items) == 1 else Overloaded(items)


def other_plugins_result(
    api: TypeChecker, ctx: FunctionContext, tag_expr: Expression, tag_type: ProperType, result: Type
) -> Type:
    """What another plugin's function (or ``__call__`` method) hook on the tag makes
    of the call, given what it would see for ``tag(...)``: the arguments without the tag."""
    plugin = api.plugin
    fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
    if isinstance(tag_type, CallableType) and tag_type.is_type_obj():
        fullname = tag_type.type_object().fullname
    if isinstance(tag_type, Instance):
        method = plugin.get_method_hook(f"{tag_type.type.fullname}.__call__")
        if method is None:
            return result
        return method(MethodContext(
            tag_type, ctx.arg_types[1:], ctx.arg_kinds[1:], ctx.callee_arg_names[1:],
            ctx.arg_names[1:], result, ctx.args[1:], ctx.context, api,
        ))
    hook = plugin.get_function_hook(fullname) if fullname and fullname != TAG_CALL else None
    if hook is None:
        return result
    return hook(FunctionContext(
        ctx.arg_types[1:], ctx.arg_kinds[1:], ctx.callee_arg_names[1:], ctx.arg_names[1:],
        result, ctx.args[1:], ctx.context, api,
    ))
