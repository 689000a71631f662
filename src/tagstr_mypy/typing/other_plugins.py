"""Another plugin's hooks on a tag, applied to a tag string as to the call it stands for.

mypy looks hooks up by the callee's name, and a tag string's callee is
``tag_call``: another plugin that hooks ``pkg.tag`` (or ``pkg.Tag.__call__``)
would never see ``tag"..."``.  Our hooks ask the chained plugin (``api.plugin``)
for the tag's own hooks and apply them with what they would get for
``tag(...)``: the arguments without the leading tag, each as an expression
of the type the tag is passed (a ``Decoded``, an ``Interpolation[<type>]``),
never the generated ones: a hook that checks the arguments again (mypy's
``functools.partial`` hook does) must judge the values the tag receives, as
for the hand-written call, not a generated lambda.
"""

from __future__ import annotations

from typing import Any, Callable

from mypy.argmap import map_actuals_to_formals
from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, ArgKind, Context, Expression, RefExpr, TempNode
from mypy.subtypes import find_member
from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.types import CallableType, FunctionLike, Instance, Overloaded, ProperType, Type, get_proper_type

from tagstr_mypy.hooks.build_state import BuildState, remember
from tagstr_mypy.hooks.names import TAG_CALL
from tagstr_mypy.typing.signatures import call_signature, signatures


__all__ = ["other_plugins_result", "own_signature"]


def own_signature(
    state: BuildState, api: TypeChecker, tag_expr: Expression, tag_type: ProperType, args: list[Expression],
    call: Context,
) -> FunctionLike | None:
    """The tag's signature, as another plugin's signature hook makes it for ``tag(...)``."""
    formal_args = [args]
    if isinstance(tag_type, FunctionLike):
        fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
        if tag_type.is_type_obj():
            return tag_type  # mypy checks a class's own call by the class's name
        hook = _hook(state, api, "get_function_signature_hook", fullname) if fullname else None
        if hook is None:
            return tag_type
        return apply_each(tag_type, lambda sig: hook(FunctionSigContext(formal_args, sig, call, api)))
    if isinstance(tag_type, Instance):
        method = call_signature(tag_type)
        if not isinstance(method, FunctionLike):
            return None
        method_hook = _hook(state, api, "get_method_signature_hook", f"{tag_type.type.fullname}.__call__")
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
    api: TypeChecker,
    context: Context,
    tag_expr: Expression,
    tag_type: ProperType,
    result: Type,
    call_view: Callable[[], tuple[list[Expression], list[Type]]],
) -> Type:
    """What another plugin's function (or ``__call__`` method) hook on the tag makes
    of the call, given what it would see for ``tag(...)``: the arguments
    (``call_view``: each with what the tag is passed for it, an interpolation's
    ``Interpolation[<type>]``) grouped by the tag's parameters."""
    plugin = api.plugin
    fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
    if isinstance(tag_type, CallableType) and tag_type.is_type_obj():
        fullname = tag_type.type_object().fullname
    if isinstance(tag_type, Instance):
        method = plugin.get_method_hook(f"{tag_type.type.fullname}.__call__")
        if method is None:
            return result
        # grouped as mypy groups them for the hook: by __call__'s parameters
        call = get_proper_type(find_member("__call__", tag_type, tag_type, is_operator=True))
        grouped = _grouped(call, *call_view()) if isinstance(call, ProperType) else None
        if grouped is None:
            return result
        return method(MethodContext(tag_type, *grouped[:-1], result, grouped[-1], context, api))
    hook = plugin.get_function_hook(fullname) if fullname and fullname != TAG_CALL else None
    if hook is None:
        return result
    grouped = _grouped(tag_type, *call_view())
    if grouped is None:
        return result
    return hook(FunctionContext(*grouped[:-1], result, grouped[-1], context, api))


def has_result_hook(state: BuildState, api: TypeChecker, tag_expr: Expression, tag_type: ProperType) -> bool:
    """Whether another plugin hooks the call's result (``other_plugins_result`` calls it)."""
    if isinstance(tag_type, Instance):
        return _hook(state, api, "get_method_hook", f"{tag_type.type.fullname}.__call__") is not None
    fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
    if isinstance(tag_type, CallableType) and tag_type.is_type_obj():
        fullname = tag_type.type_object().fullname
    return bool(fullname) and fullname != TAG_CALL and _hook(state, api, "get_function_hook", fullname) is not None


def _hook(state: BuildState, api: TypeChecker, kind: str, fullname: str) -> Any:
    """The chained plugins' hook of ``kind`` for ``fullname``, asked once per build
    (mypy asks its plugins for every call it checks; a tag is called many times)."""
    key = (kind, fullname)
    if key in state.hooks:
        return state.hooks[key]
    found = getattr(api.plugin, kind)(fullname)
    remember(state.hooks, key, found)
    return found


Grouped = tuple[
    list[list[Type]], list[list[ArgKind]], list[str | None], list[list[str | None]], list[list[Expression]]
]


def _grouped(tag_type: ProperType, args: list[Expression], types: list[Type]) -> Grouped | None:
    """The call's arguments grouped by the tag's parameters, as mypy hands a hook
    ``tag(...)``'s: (types, kinds, parameter names, argument names, expressions)."""
    found = signatures(tag_type)
    if not found:
        return None
    signature = found[0]
    args = [TempNode(typ, context=arg) for arg, typ in zip(args, types)]
    groups = map_actuals_to_formals(
        [ARG_POS] * len(args), [None] * len(args), signature.arg_kinds, signature.arg_names,
        lambda index: types[index],
    )
    return (
        [[types[i] for i in group] for group in groups],
        [[ARG_POS for _ in group] for group in groups],
        list(signature.arg_names),
        [[None for _ in group] for group in groups],
        [[args[i] for i in group] for group in groups],
    )
