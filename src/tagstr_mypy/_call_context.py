"""The tag's own signature for the call a tag string stands for, so that mypy
infers every interpolation in the tag's context.

mypy types a call's arguments with the callee's parameter types as context
(a list literal against ``list[float]``, a lambda against ``Callable[[int],
int]``, a string against a ``Literal``) and solves the callee's type
variables from all arguments at once.  The hook on ``tag_call``'s signature
hands mypy the tag's signature(s) with one leading parameter for the tag, so
that mypy does this for a tag string exactly as for the call written by hand.

What mypy then says about *that* call (``Argument 3 to "..."``, an
interpolation wrapper that does not fit its slot) would count literal parts and
name generated code: ``CallErrors`` drops those errors, and the function hook
(``_tag_call.py``) re-reports each in tag-string terms.  Errors inside an
interpolation's expression are mypy's own and pass unchanged.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, CallExpr, NameExpr
from mypy.plugin import FunctionSigContext
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Overloaded,
    get_proper_type,
)

from tagstr_mypy._call_errors import CALLEE, CallErrors
from tagstr_mypy._deprecated import deprecation_in_user_terms
from tagstr_mypy._other_plugins import own_signature
from tagstr_mypy._tag_call import TagCall, checker_ready

__all__ = ["tag_signature_callback"]


def tag_signature_callback(ctx: FunctionSigContext) -> FunctionLike:
    api = ctx.api
    assert isinstance(api, TypeChecker)
    call = ctx.context
    if not isinstance(call, CallExpr) or not call.args or not checker_ready(api):
        return ctx.default_signature
    tag_expr = call.args[0]
    tag_type = get_proper_type(api.expr_checker.accept(tag_expr))
    if isinstance(tag_type, AnyType):
        return ctx.default_signature
    name = tag_expr.name if isinstance(tag_expr, NameExpr) else "?"
    args = call.args[1:]
    probe = TagCall(api, call, tag_expr, tag_type, name, args, [])
    if probe.verdict() is not None:
        return ctx.default_signature  # accepts anything: the function hook rejects the tag
    own = own_signature(api, tag_expr, tag_type, args, call)
    if own is None:
        return ctx.default_signature
    leading = ctx.default_signature
    assert isinstance(leading, CallableType)
    items = [prefixed(item, leading) for item in own.items]
    # mypy hooks a single signature's call once, right after checking it:
    # whether it failed is known then (an overload is tried many times, a
    # class is checked for more than its arguments: the function hook checks
    # those again)
    record = len(items) == 1 and not own.is_type_obj()
    CallErrors.install(api.msg.errors).expect(
        api, call, record, lambda infos: deprecation_in_user_terms(api, tag_type, infos)
    )
    if len(items) > 1:
        return Overloaded(items)
    return items[0]


def prefixed(signature: CallableType, leading: CallableType) -> CallableType:
    """``signature`` with the tag as its first, positional-only parameter; never a
    class's constructor (mypy would then hook the call by the class's name)."""
    return signature.copy_modified(
        arg_types=[leading.arg_types[0], *signature.arg_types],
        arg_kinds=[ARG_POS, *signature.arg_kinds],
        arg_names=[None, *signature.arg_names],
        fallback=leading.fallback,
        name=CALLEE,
        from_type_type=False,
    )
