"""The type of ``tag"..."``: what the function hook on ``tag_call`` answers for a tag string.

The checker tree (``parse/checker_tree.py``) writes every tag string as
``tag_call(tag, <Decoded>, expr, ...)`` (an interpolation that stays a closure
as ``lambda: expr``).  When this hook runs, mypy has checked each argument
where it stands and, for a tag whose signature the signature hook gave it
(``hooks/signature.py``), in the tag's context, as the hand-written call: its
return type is the tag string's, and whether it failed is known.  Otherwise,
or when it failed, ``TagCall`` (``typing/tag_call.py``) says what does not fit,
in tag-string terms.
"""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.erasetype import remove_instance_last_known_values
from mypy.nodes import CallExpr, Context, Expression, NameExpr, RefExpr
from mypy.plugin import FunctionContext
from mypy.types import AnyType, CallableType, ProperType, Type, TypeOfAny, get_proper_type

from tagstr_runtime.frontend import CHECKER_MODULE

from tagstr_mypy.hooks.build_state import BuildState
from tagstr_mypy.hooks.names import TAG_CALL
from tagstr_mypy.parse.checker_tree import SPEC
from tagstr_mypy.reports.call_errors import CallErrors
from tagstr_mypy.reports.explain import ARGUMENT_MESSAGE
from tagstr_mypy.typing.fields import flat_types, slot_type
from tagstr_mypy.typing.other_plugins import has_result_hook, other_plugins_result
from tagstr_mypy.typing.signatures import signatures
from tagstr_mypy.typing.tag_call import TagCall

__all__ = ["FELL_THROUGH", "TAG_CALL", "checker_ready", "tag_call_callback"]

CHECKER: Final = CHECKER_MODULE
#: an overloaded tag's last signature returns it (``hooks.signature``): no overload of the tag fit
FELL_THROUGH: Final = AnyType(TypeOfAny.special_form)


def tag_call_callback(state: BuildState, ctx: FunctionContext) -> Type:
    api = ctx.api
    assert isinstance(api, TypeChecker)
    call = ctx.context
    if not isinstance(call, CallExpr) or not call.args or not ctx.arg_types or not ctx.arg_types[0]:
        return ctx.default_return_type
    if not checker_ready(api, state):
        # the checked environment has another version of tagstr_runtime: stay quiet
        return ctx.default_return_type
    record = state.site(api.path, call)  # what each argument is, the interpolations' texts
    if record is None:
        return ctx.default_return_type
    tag_expr = call.args[0]
    tag_type = get_proper_type(ctx.arg_types[0][0])
    if isinstance(tag_type, AnyType):
        return AnyType(TypeOfAny.from_another_any, source_any=tag_type)
    name = tag_expr.name if isinstance(tag_expr, NameExpr) else "?"
    report_untyped_call(api, tag_expr, tag_type, ctx.context)
    errors = CallErrors.install(api.msg.errors, state)
    # whether mypy checked the call against the tag's own signature (the signature
    # hook's): whether that failed is then known, and its return type is the call's
    # (mypy calls this hook once per overload it tries, after one signature hook)
    own = id(call) in errors.signed
    failed = errors.failed(api, call) if own else None
    if own and ctx.default_return_type is FELL_THROUGH:
        own = False  # no overload of the tag fits: its trial call says what mypy says of the call
    if own and failed is False and not any(record.demands):
        # the common case: the tag's own signature took every value (the signature hook gave it
        # only to a tag that passed the verdict), and its return type is the tag string's
        result = _solved(tag_type, ctx.default_return_type)
        if not has_result_hook(state, api, tag_expr, tag_type):
            return result
    pairs: list[tuple[Expression, Type, int]] = [  # the tag's arguments: not the format specs
        (arg, typ, kind) for arg, typ, kind in zip(call.args[1:], flat_types(ctx)[1:], record.kinds) if kind != SPEC
    ]
    args = [arg for arg, _, _ in pairs]
    kinds = [kind for _, _, kind in pairs]
    arg_types = [] if failed is False else [slot_type(api, arg, kind, typ) for arg, typ, kind in pairs]
    tag_call = TagCall(state, api, call, tag_expr, tag_type, name, args, arg_types, record.texts, kinds,
                       record.starts)
    if not own:
        result = tag_call.check()
    else:
        result = _solved(tag_type, tag_call.check(ctx.default_return_type, failed))
    if not tag_call.rejected and any(record.demands):  # an SQL name, HTML attributes (typing/hole_types.py)
        from tagstr_mypy.typing.hole_types import check_slot_demands

        check_slot_demands(api, tag_call, pairs, record.demands)
    if tag_call.rejected or not has_result_hook(state, api, tag_expr, tag_type):
        return result
    # other plugins' hooks on the tag apply, as to the call; what they say about
    # an argument counts literal parts: said again in tag-string terms
    with api.msg.filter_errors(save_filtered_errors=True) as watcher:
        result = other_plugins_result(
            api, ctx.context, tag_expr, tag_type, result,
            lambda: (args, arg_types or [slot_type(api, arg, kind, typ) for arg, typ, kind in pairs]),
        )
    said = watcher.filtered_errors()
    about_arguments = [info for info in said if ARGUMENT_MESSAGE.match(info.message)]
    api.msg.add_errors([info for info in said if info not in about_arguments])
    if about_arguments and not tag_call.failed:
        tag_call.arg_types = tag_call.arg_types or [slot_type(api, arg, kind, typ) for arg, typ, kind in pairs]
        tag_call.report_slots()
    return result


def _solved(tag_type: ProperType, result: Type) -> Type:
    """The result of a call of a generic tag: the wrapper the call passes solves its own type
    variable, which forgets a literal's value deep in the type (a lambda's result): so does the
    tag's type variable, solved from the value directly."""
    if isinstance(tag_type, CallableType) and not tag_type.variables:
        return result
    if any(signature.variables for signature in signatures(tag_type)):
        return remove_instance_last_known_values(result)
    return result


def checker_ready(api: TypeChecker, state: BuildState) -> bool:
    """The checked environment's ``tagstr_runtime._checker`` has what the hooks use (asked at
    every tag string: answered once per module table)."""
    modules = api.modules
    known = state.checker_ready
    if known is not None and known[0] is modules:
        return known[1]
    checker = modules.get(CHECKER)
    names = None if checker is None else checker.names
    ready = names is not None and "tag_function" in names and "any_interpolation" in names and "decoded" in names
    if ready:  # (a module table without it yet may get it: asked again then)
        state.checker_ready = (modules, True)
    return ready


def report_untyped_call(api: TypeChecker, tag_expr: Expression, tag_type: ProperType, context: Context) -> None:
    """``--disallow-untyped-calls`` judges a tag string as it judges the call it
    stands for (mypy's own check, which only sees the call of ``tag_call``)."""
    options = api.options
    if not (
        options.disallow_untyped_calls
        and api.in_checked_function()
        and isinstance(tag_type, CallableType)
        and tag_type.implicit
    ):
        return
    fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else None
    excluded = getattr(options, "untyped_calls_exclude", [])
    if not fullname or not any(fullname == p or fullname.startswith(f"{p}.") for p in excluded):
        api.msg.untyped_function_call(tag_type, context)
