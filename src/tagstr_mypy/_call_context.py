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

from typing import Final

from mypy.checker import TypeChecker
from mypy.errorcodes import ARG_TYPE, RETURN_VALUE
from mypy.errors import ErrorInfo, Errors, ErrorWatcher
from mypy.nodes import ARG_POS, CallExpr, Context, Expression, NameExpr, RefExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.subtypes import find_member
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Overloaded,
    ProperType,
    get_proper_type,
)

from tagstr_mypy._tag_call import TagCall, checker_ready, lambda_of

__all__ = ["CALLEE", "tag_signature_callback"]

#: The name mypy's messages give the call a tag string stands for; no user
#: callable can have it (it is no identifier), so the messages naming it are ours.
CALLEE: Final = "tag string"
_NAMED: Final = f'"{CALLEE}"'


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
    errors = CallErrors.install(api.msg.errors)
    errors.expect(api, args)
    leading = ctx.default_signature
    assert isinstance(leading, CallableType)
    items = [prefixed(item, leading) for item in own.items]
    if len(items) > 1:
        return Overloaded(items)
    if not own.is_type_obj():
        # mypy hooks the call once, right after checking it: whether it failed is
        # known then (an overload is tried many times, a class is checked for
        # more than its arguments: the function hook checks those again)
        errors.record(api, call)
    return items[0]


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


def apply_each(typ: FunctionLike, hook: object) -> FunctionLike:
    assert callable(hook)
    items = []
    for item in typ.items:
        result = hook(item)
        assert isinstance(result, FunctionLike)
        items.extend(result.items)
    return items[0] if len(items) == 1 else Overloaded(items)


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


class CallErrors:
    """The bottom-most error watcher of a build, for its whole life: it drops what
    mypy reports about the call a tag string stands for, never anything else.

    At the bottom of mypy's stack of watchers it sees an error only once every
    other watcher has let it through (errors of trial checks never reach it,
    errors replayed from mypy's expression cache reach it when replayed), and no
    other watcher ever pops it.
    """

    def __init__(self) -> None:
        # positions (file, line, column) of the generated parts of interpolations:
        # the wrapper's argument and the lambda's body
        self.wrappers: set[tuple[str, int, int]] = set()
        self.bodies: set[tuple[str, int, int]] = set()
        self.dropping: tuple[str, int, int] | None = None
        self.recording: dict[int, tuple[ErrorWatcher, list[bool]]] = {}

    @classmethod
    def install(cls, errors: Errors) -> CallErrors:
        # mypy's classes are compiled: a watcher is told apart by identity, not subclass
        found = _INSTALLED.get(id(errors))
        watchers = errors._watchers
        if found is not None and watchers and watchers[0] is found[0]:
            return found[1]
        owner = cls()
        watcher = ErrorWatcher(errors, filter_errors=owner.drops)
        watchers.insert(0, watcher)
        _INSTALLED.clear()  # one build at a time; an older one's Errors is gone
        _INSTALLED[id(errors)] = (watcher, owner)
        return owner

    def expect(self, api: TypeChecker, args: list[Expression]) -> None:
        file = api.path
        for arg in args:
            lam = lambda_of(arg)
            if lam is None:
                continue
            assert isinstance(arg, CallExpr)
            wrapped = arg.args[0]
            self.wrappers.add((file, wrapped.line, wrapped.column))
            body = lam.expr()
            self.bodies.add((file, body.line, body.column))

    def drops(self, file: str, info: ErrorInfo) -> bool:
        at = (file, info.line, info.column)
        if info.severity == "note":
            return self.dropping == at and not info.message.startswith("Revealed ")
        self.dropping = None
        ours = self.about_the_call(at, info)
        if ours:
            self.dropping = at
        return ours

    def about_the_call(self, at: tuple[str, int, int], info: ErrorInfo) -> bool:
        message = info.message
        if _NAMED in message:
            return True
        if info.code == ARG_TYPE:
            return at in self.wrappers and message.startswith("Argument 1 to ")
        if info.code == RETURN_VALUE:
            return at in self.bodies and message.startswith("Incompatible return value type")
        return False

    def record(self, api: TypeChecker, call: CallExpr) -> None:
        """Watch, from the top of the stack, for mypy's errors about ``call``
        (dropped later, at the bottom) until the function hook asks."""
        file = api.path
        where = {(file, call.line, call.column)}
        for arg in call.args[1:]:
            where.add((file, arg.line, arg.column))
            lam = lambda_of(arg)
            if lam is not None and isinstance(arg, CallExpr):
                where.add((file, arg.args[0].line, arg.args[0].column))
                where.add((file, lam.expr().line, lam.expr().column))
        failed: list[bool] = []

        def saw(file: str, info: ErrorInfo) -> bool:
            at = (file, info.line, info.column)
            if not failed and info.severity == "error" and at in where and self.about_the_call(at, info):
                failed.append(True)
            return False  # only watching

        errors = api.msg.errors
        watcher = ErrorWatcher(errors, filter_errors=saw)
        errors._watchers.append(watcher)
        self.recording[id(call)] = (watcher, failed)

    def failed(self, api: TypeChecker, call: CallExpr) -> bool | None:
        """Whether mypy found ``call`` wrong; None: not recorded."""
        found = self.recording.pop(id(call), None)
        if found is None:
            return None
        watcher, failed = found
        watchers = api.msg.errors._watchers
        if watcher in watchers:
            watchers.remove(watcher)
        return bool(failed)


_INSTALLED: dict[int, tuple[ErrorWatcher, CallErrors]] = {}
