"""The tag's own signature for the call a tag string stands for, so that mypy
infers every interpolation in the tag's context.

mypy types a call's arguments with the callee's parameter types as context
(a list literal against ``list[float]``, a lambda against ``Callable[[int],
int]``, a string against a ``Literal``) and solves the callee's type
variables from all arguments at once.  The hook on ``tag_call``'s signature
hands mypy the tag's signature(s) with one leading parameter for the tag and
one parameter per argument, so that mypy does this for a tag string exactly
as for the call written by hand.

The checker tree passes an interpolation as its expression, in place (a few
as their bare ``lambda: expr``), not as ``Interpolation((lambda: expr,
...))``: inferring that generic wrapper's type once per interpolation would
cost more than everything else the tag string needs.  The expression's
parameter is the tag's with ``Interpolation[X]`` written ``X`` (a lambda's,
``Callable[[], X]``): the same context for ``expr``, the same type variables
to solve, and it fails exactly when the wrapper would.  Where the tag's
parameter accepts more than that exchange keeps exact (a protocol or a
``Sequence`` that the wrapper fits, a callable that a lambda fits, a bare type
variable), the call keeps ``tag_call``'s own signature, which accepts
anything: the function hook then calls the tag with each interpolation's
``Interpolation[<type>]``, the value typed without the tag's context.

What mypy then says about *that* call (``Argument 3 to "..."``, an
interpolation wrapper that does not fit its slot) would count literal parts and
name generated code: ``CallErrors`` drops those errors, and the function hook
(``typing/tag_call.py``) re-reports each in tag-string terms.  Errors inside an
interpolation's expression are mypy's own and pass unchanged.
"""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, ARG_STAR, CallExpr, NameExpr
from mypy.plugin import FunctionSigContext
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Overloaded,
    ProperType,
    Type,
    TypeOfAny,
    TypeVarLikeType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tagstr_mypy.hooks.build_state import BuildState, remember
from tagstr_mypy.reports.call_errors import CALLEE, CallErrors
from tagstr_mypy.reports.deprecated import deprecation_in_user_terms
from tagstr_mypy.typing.other_plugins import own_signature
from tagstr_mypy.typing.signatures import formal_at
from tagstr_mypy.parse.checker_tree import DECODED, INTERPOLATION, SPEC, THUNK
from tagstr_mypy.typing.call_type import FELL_THROUGH, checker_ready
from tagstr_mypy.typing.tag_call import TagCall, flatten, interpolation_value

__all__ = ["tag_signature_callback"]


def tag_signature_callback(state: BuildState, ctx: FunctionSigContext) -> FunctionLike:
    api = ctx.api
    assert isinstance(api, TypeChecker)
    call = ctx.context
    if not isinstance(call, CallExpr) or not call.args or not checker_ready(api, state):
        return ctx.default_signature
    record = state.site(api.path, call)
    if record is None:
        return ctx.default_signature
    errors = CallErrors.install(api.msg.errors, state)
    errors.signed.discard(id(call))  # until this call gets the tag's own signature
    tag_expr = call.args[0]
    # typed as mypy types a callee (always_allow_any: --disallow-any-expr spares it)
    tag_type = get_proper_type(api.expr_checker.accept(tag_expr, always_allow_any=True))
    errors.callee(api, tag_expr, tag_type)
    if isinstance(tag_type, AnyType):
        return ctx.default_signature
    errors.named(api, call, tag_expr, tag_type)
    shape = record.kinds  # what each argument is (the checker tree's record of the call)
    # a tag is called with the same shapes again and again: its signature for a shape is kept
    # (by the type's identity: the entry holds the type, so its id is not reused meanwhile)
    known = state.call_signatures.get((id(tag_type), shape))
    if known is not None and known[0] is tag_type:
        errors.expect(api, call, shape, known[2], lambda infos: deprecation_in_user_terms(api, tag_type, infos))
        return known[1]
    name = tag_expr.name if isinstance(tag_expr, NameExpr) else "?"
    tag_args = [arg for arg, kind in zip(call.args[1:], shape) if kind != SPEC]
    probe = TagCall(state, api, call, tag_expr, tag_type, name, tag_args, [], record.texts)
    if probe.verdict() is not None:
        return ctx.default_signature  # accepts anything: the function hook rejects the tag
    own = own_signature(state, api, tag_expr, tag_type, tag_args, call)
    if own is None:
        return ctx.default_signature
    leading = ctx.default_signature
    assert isinstance(leading, CallableType)
    items: list[CallableType] = []
    own_items = own.items
    # one signature passing the verdict takes a Decoded at every position: the
    # literal parts need no check (and give no type variable a constraint)
    literal_fits = len(own_items) == 1 and not own_items[0].variables
    for item in own_items:
        # by identity (a module calls the same tag object with the same shapes many
        # times; the item is held, so its id is not reused while the entry lives);
        # the leading parameter is tag_call's: one per build
        key = (id(item), shape)
        found = state.signatures.get(key)
        if found is not None and found[0] is item:
            signature = found[1]
        else:
            signature = per_argument(
                state, api, item, leading, shape, probe.declared("any_interpolation"), literal_fits
            )
            remember(state.signatures, key, (item, signature))
        if signature is None:
            return ctx.default_signature  # the function hook tries the tag itself
        items.append(signature)
    # mypy hooks a single signature's call once, right after checking it:
    # whether it failed is known then (an overload is tried many times, a
    # class is checked for more than its arguments: the function hook checks
    # those again)
    hooked_once = len(items) == 1 and not own.is_type_obj()
    errors.expect(api, call, shape, hooked_once, lambda infos: deprecation_in_user_terms(api, tag_type, infos))
    if len(items) > 1:
        # last, what takes anything: when no item fits the values (mypy would give up on the
        # call, and call no hook), the function hook still runs, and says which one the tag
        # does not accept
        result: FunctionLike = Overloaded([*items, leading.copy_modified(ret_type=FELL_THROUGH, name=CALLEE)])
    else:
        result = items[0]
    if own is tag_type:  # no other plugin's hook made it (those may read the call)
        remember(state.call_signatures, (id(tag_type), shape), (tag_type, result, hooked_once))
    return result


def per_argument(
    state: BuildState, api: TypeChecker, signature: CallableType, leading: CallableType, shape: tuple[int, ...],
    interpolation: Type, literal_fits: bool = False,
) -> CallableType | None:
    """``signature`` as mypy should check a tag string's arguments against it
    (``shape``: what each argument is): the tag first, then one positional
    parameter per argument (an interpolation's exchanged, a spec's ``object``); never
    a class's constructor (mypy would then hook the call by the class's
    name).  None: no exact exchange.  ``interpolation``: ``Interpolation[Any]``;
    ``literal_fits``: the literal parts are known to fit (``object`` for them)."""
    if any(isinstance(get_proper_type(typ), UnpackType) for typ in signature.arg_types):
        return None  # a TypeVarTuple is solved from every argument: the function hook calls the tag
    arg_types: list[Type] = [leading.arg_types[0]]
    anything = api.named_type("builtins.object")
    position = 0
    for kind in shape:
        if kind == SPEC:
            arg_types.append(anything)
            continue
        formal = formal_at(signature, position)
        position += 1
        if formal is None:
            return None
        if kind == DECODED and literal_fits:
            formal = anything
        elif kind == INTERPOLATION or kind == THUNK:
            formal = value_formal(state, api, formal, interpolation, kind == THUNK)
            if formal is None:
                return None
        arg_types.append(formal)
    if not _rest_optional(signature, position):
        return None
    count = len(arg_types)
    return signature.copy_modified(
        arg_types=arg_types,
        arg_kinds=[ARG_POS] * count,
        arg_names=[None] * count,
        fallback=leading.fallback,
        name=CALLEE,
        from_type_type=False,
    )


def _rest_optional(signature: CallableType, given: int) -> bool:
    """Whether every parameter after the first ``given`` positional ones may be left out."""
    positional = 0
    for kind in signature.arg_kinds:
        if kind.is_positional():
            positional += 1
            if positional > given and kind.is_required():
                return False
        elif kind.is_required() and kind != ARG_STAR:
            return False
    return True


def value_formal(
    state: BuildState, api: TypeChecker, formal: Type, interpolation: Type, thunk: bool = False
) -> Type | None:
    """What an interpolation's expression (``thunk``: its ``lambda: expr``) is checked against
    where the tag takes ``formal``: ``Interpolation[X]`` exchanged for ``X`` (``Callable[[], X]``);
    None when the expression and the wrapper would not fare alike."""
    key = (formal, thunk)
    if key in state.value_formals:
        return state.value_formals[key]
    items: list[Type] = []
    exact = True
    for item in flatten(formal):
        exchanged = _exchanged(api, item, interpolation, thunk)
        if exchanged is None:
            exact = False
            break
        if exchanged is not _NEITHER:
            items.append(exchanged)
    # what neither fits (a literal part's type) is no slot for a value; a parameter that
    # takes no interpolation at all is left to the function hook, which says so
    found = UnionType.make_union(items) if exact and items else None
    remember(state.value_formals, key, found)
    return found


def _exchanged(api: TypeChecker, item: ProperType, interpolation: Type, thunk: bool) -> Type | None:
    function = api.named_type("builtins.function")
    value = interpolation_value(item)
    if value is not None and not isinstance(get_proper_type(value), AnyType):
        return CallableType([], [], [], value, function) if thunk else value
    if value is not None or isinstance(item, AnyType):
        if not thunk:
            # any value fits, and none is typed in the context of an Any (a list literal
            # would be a list[Any]): as an f-string's field, typed for "object"
            return api.named_type("builtins.object")
        # the wrapper's type variable takes Any from the context: the lambda's result too
        source = get_proper_type(value) if value is not None else item
        anything = AnyType(TypeOfAny.from_another_any, source_any=source if isinstance(source, AnyType) else None)
        return CallableType([], [], [], anything, function)
    if isinstance(item, Instance) and item.type.fullname == "builtins.object":
        return item  # both fit, neither gets a context
    if isinstance(item, (TypeVarLikeType, UnpackType)):
        return None  # solved from what it is given: the wrapper or the value
    if is_subtype(interpolation, item):
        return None  # the wrapper fits where the value may not
    if thunk and is_subtype(CallableType([], [], [], AnyType(TypeOfAny.special_form), function), item):
        return None  # the lambda fits where the wrapper does not
    return _NEITHER  # the wrapper does not fit: a literal part's type, say


#: what ``_exchanged`` says of a type that the wrapper does not fit
_NEITHER: Final = AnyType(TypeOfAny.special_form)
