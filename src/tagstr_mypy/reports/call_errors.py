"""What mypy says about the call a tag string stands for, watched and dropped.

mypy's own messages about that call count literal parts (``Argument 4 to``)
and name generated code (an interpolation's lambda, the call's name
``"tag string"``); the function hook says the same in tag-string terms.
"""

from __future__ import annotations

import re
from typing import Callable, Final, Protocol

from mypy.checker import TypeChecker
from mypy.errorcodes import DEPRECATED, RETURN_VALUE, ErrorCode
from mypy.errors import ErrorInfo, Errors, ErrorWatcher
from mypy.checkexpr import has_any_type
from mypy.messages import callable_name, format_type
from mypy.nodes import CallExpr, Context, Expression, LambdaExpr, NameExpr, RefExpr
from mypy.types import AnyType, FunctionLike, Instance, ProperType

from tagstr_mypy.parse.checker_tree import THUNK
from tagstr_mypy.typing.signatures import call_signature

__all__ = ["CALLEE", "CallErrors", "WatchedState"]

#: The name mypy's messages give the call a tag string stands for; no user
#: callable can have it (it is no identifier), so the messages naming it are ours.
CALLEE: Final = "tag string"
_NAMED: Final = f'"{CALLEE}"'


class WatchedState(Protocol):
    """Where a build keeps its watcher (``hooks.build_state.BuildState``): its ``Errors``, the
    watcher and its owner."""

    call_errors: tuple[Errors, ErrorWatcher, CallErrors] | None


class CallErrors:
    """The bottom-most error watcher of a build, for its whole life: it drops what
    mypy reports about the call a tag string stands for, never anything else.

    At the bottom of mypy's stack of watchers it sees an error only once every
    other watcher has let it through (errors of trial checks never reach it,
    errors replayed from mypy's expression cache reach it when replayed), and no
    other watcher ever pops it.
    """

    def __init__(self) -> None:
        # positions (file, line, column) where mypy reports on a tag string's
        # call: the call and its arguments; and each generated lambda's body
        # (the interpolation's expression).  Filled from ``expected`` (the
        # (file, call) of each ``expect`` since) when an error needs them
        # (``index``): most tag strings get no error at all.
        self.wrappers: set[tuple[str, int, int]] = set()
        self.bodies: set[tuple[str, int, int]] = set()
        self.thunks: set[tuple[str, int, int]] = set()  # each generated lambda
        self.expected: list[tuple[str, CallExpr, tuple[int, ...]]] = []
        self.dropping: tuple[str, int, int] | None = None
        # the calls (ids) mypy checks against the tag's own signature (the
        # signature hook's), which the function hook then knows it did
        self.signed: set[int] = set()
        self.recording: dict[int, tuple[ErrorWatcher, list[bool]]] = {}
        self.recorders: set[int] = set()  # the ids of those watchers
        # at a tag string's call: how its deprecation errors are re-worded (mypy
        # reports a deprecated overload once the call is checked, after the hooks)
        self.rewording: dict[tuple[str, int, int], Callable[[list[ErrorInfo]], None]] = {}
        # each tag string's tag expression: the callee of the call it stands
        # for, which --disallow-any-expr never judges (mypy accepts a callee
        # with always_allow_any); as tag_call's first argument it would
        # (position -> the message it would get)
        self.callees: dict[tuple[str, int, int], str] = {}
        # each tag string's call -> its tag (expression, type), by which mypy's own messages
        # about the call name it (``reworded``); the positions where such a message was kept
        self.names: dict[tuple[str, int, int], tuple[Expression, ProperType]] = {}
        self.kept: set[tuple[str, int, int]] = set()
        # mypy's message about a type variable of a tag string's tag (which no value alone
        # breaks), in the tag's name, by the call's position: the function hook says it
        # when no single interpolation is to blame (``TagCall.report_slots``)
        self.type_variables: dict[tuple[str, int, int], tuple[str, ErrorCode | None]] = {}

    @classmethod
    def install(cls, errors: Errors, state: WatchedState) -> CallErrors:
        """The build's own (``state``'s), at the bottom of ``errors``' watchers."""
        # mypy's classes are compiled: a watcher is told apart by identity, not subclass
        found = state.call_errors
        watchers = errors._watchers
        if found is not None and found[0] is errors and watchers and watchers[0] is found[1]:
            return found[2]
        owner = cls()
        # filter_deprecated: deprecation errors reach a watcher only if it asks
        watcher = ErrorWatcher(errors, filter_errors=owner.drops, filter_deprecated=True)
        watchers.insert(0, watcher)
        state.call_errors = (errors, watcher, owner)
        return owner

    def callee(self, api: TypeChecker, tag_expr: Context, tag_type: ProperType) -> None:
        """``tag_expr`` (of type ``tag_type``) is a callee: no ``--disallow-any-expr``
        error about it.  (A tag typed ``Any`` is left alone: the call's result is
        ``Any`` too, at the same position, with the same message, printed once.)"""
        if api.options.disallow_any_expr and not isinstance(tag_type, AnyType) and has_any_type(tag_type):
            message = f'Expression type contains "Any" (has type {format_type(tag_type, api.options)})'
            self.callees[(api.path, tag_expr.line, tag_expr.column)] = message

    def named(self, api: TypeChecker, call: CallExpr, tag_expr: Expression, tag_type: ProperType) -> None:
        """``call`` stands for a call of ``tag_expr`` (of type ``tag_type``): mypy's messages
        about it name that tag."""
        self.names[(api.path, call.line, call.column)] = (tag_expr, tag_type)

    def expect(
        self, api: TypeChecker, call: CallExpr, kinds: tuple[int, ...], record: bool,
        reword: Callable[[list[ErrorInfo]], None] | None = None,
    ) -> None:
        """Note where mypy reports on ``call``'s generated parts (``kinds``: what each argument
        after the tag is, ``SiteRecord.kinds``); ``record``: also
        watch, from the top of the stack, whether it reports the call wrong (the
        errors are dropped later, at the bottom) until the function hook asks;
        ``reword``: what re-words a deprecation error reported at the call."""
        self.signed.add(id(call))
        file = api.path
        self.expected.append((file, call, kinds))
        if reword is not None:
            self.rewording[(file, call.line, call.column)] = reword
        if not record:
            return
        failed: list[bool] = []
        positions: list[tuple[set[tuple[str, int, int]], set[tuple[str, int, int]]]] = []

        def saw(file: str, info: ErrorInfo) -> bool:
            if not failed and info.severity == "error" and not self.nested(errors, watcher):
                if not positions:
                    positions.append(_positions(file, call, kinds))
                at_call, bodies = positions[0]
                at = (file, info.line, info.column)
                if at in bodies:
                    # the call of a nested tag string may stand there: only the result counts
                    if info.code == RETURN_VALUE and info.message.startswith("Incompatible return value type"):
                        failed.append(True)
                elif (
                    at in at_call and not info.message.startswith(_THUNK_ANY) and not self.keeps(at, info)
                    and self.about_the_call(at, info) and _of_this_call(file, call, info)
                ):
                    failed.append(True)
                    if _TYPE_VARIABLE.match(info.message) and at in self.names:
                        self.type_variables[at] = (self.reworded(at, info.message), info.code)
            return False  # only watching

        errors = api.msg.errors
        watcher = ErrorWatcher(errors, filter_errors=saw)
        errors._watchers.append(watcher)
        self.recording[id(call)] = (watcher, failed)
        self.recorders.add(id(watcher))

    def nested(self, errors: Errors, watcher: ErrorWatcher) -> bool:
        """Whether a tag string nested in ``watcher``'s is being checked (its own watcher is
        above): what mypy reports then is about that one (its interpolations may stand where
        the outer call's argument does: mypy's stdlib-ast parser puts an f-string's fields
        at its start)."""
        stack = errors._watchers
        for above in reversed(stack):
            if above is watcher:
                return False
            if id(above) in self.recorders:
                return True
        return False

    def drops(self, file: str, info: ErrorInfo) -> bool:
        at = (file, info.line, info.column)
        if info.severity == "note":
            return self.dropping == at and not info.message.startswith("Revealed ")
        self.dropping = None
        if info.code == DEPRECATED:
            reword = self.rewording.get(at)
            if reword is None:
                return False
            # in the user's terms, each time mypy reports it (for the call, and
            # where the function hook checks an overloaded tag once more: mypy
            # prints identical errors once)
            reword([info])
            return False
        if self.callees.get(at) == info.message:
            return True
        if self.keeps(at, info):
            info.message = self.reworded(at, info.message)
            self.kept.add(at)
            return False
        ours = self.about_the_call(at, info)
        if ours:
            self.dropping = at
            if _TYPE_VARIABLE.match(info.message) and at in self.names:
                self.type_variables[at] = (self.reworded(at, info.message), info.code)
        return ours

    def index(self) -> None:
        """Put the positions of the calls expected so far in ``wrappers`` and ``bodies``
        (and hold no tree: a daemon's next parse of a module calls this, ``BuildState.forget``)."""
        for file, call, kinds in self.expected:
            at_call, bodies = _positions(file, call, kinds)
            self.thunks.update(
                (file, arg.line, arg.column) for arg, kind in zip(call.args[1:], kinds) if kind == THUNK
            )
            self.wrappers |= at_call
            self.bodies |= bodies
        self.expected.clear()

    def keeps(self, at: tuple[str, int, int], info: ErrorInfo) -> bool:
        """Whether mypy's own message about a tag string's call stands, naming the tag as for
        ``tag(...)`` (a type variable's value, a tag that returns nothing, a result in a boolean
        context): only what it says about the arguments is said again in tag-string terms."""
        message = info.message
        if at not in self.names:
            return False
        if _NAMED in message:
            return _ABOUT_ARGUMENTS.match(message) is None and _TYPE_VARIABLE.match(message) is None
        return _CHECKER_CALL in message

    def reworded(self, at: tuple[str, int, int], message: str) -> str:
        """``message`` naming the tag as mypy names a call's callee."""
        tag_expr, tag_type = self.names[at]
        if _CHECKER_CALL in message:  # a call in a boolean context: by the callee's full name
            fullname = tag_expr.fullname if isinstance(tag_expr, RefExpr) else ""
            return message.replace(f"{_CHECKER_CALL} returns", f'"{fullname}" returns' if fullname else "Call returns")
        signature = call_signature(tag_type) if isinstance(tag_type, Instance) else tag_type
        name = callable_name(signature) if isinstance(signature, FunctionLike) else None
        if name is None and isinstance(tag_expr, NameExpr):
            name = f'"{tag_expr.name}"'
        return message.replace(_NAMED, name or '"tag"')

    def about_the_call(self, at: tuple[str, int, int], info: ErrorInfo) -> bool:
        if self.expected:
            self.index()
        message = info.message
        if _NAMED in message:
            return at in self.wrappers  # a string "tag string" elsewhere is the user's
        if info.code == RETURN_VALUE:
            return at in self.bodies and message.startswith("Incompatible return value type")
        if message.startswith(_THUNK_ANY):
            # --disallow-any-expr on a generated lambda: its value's own report says it
            return at in self.thunks
        return False

    def failed(self, api: TypeChecker, call: CallExpr) -> bool | None:
        """Whether mypy found ``call`` wrong; None: not recorded."""
        found = self.recording.pop(id(call), None)
        if found is None:
            return None
        watcher, failed = found
        self.recorders.discard(id(watcher))
        watchers = api.msg.errors._watchers
        if watcher in watchers:
            watchers.remove(watcher)
        return bool(failed)


_THUNK_ANY: Final = 'Expression type contains "Any" (has type "Callable[[], '
#: what mypy says about the arguments of a tag string's call: the function hook says it again
_ABOUT_ARGUMENTS: Final = re.compile(
    rf'(Argument \d+ to|Too many arguments for|Too few arguments for|No overload variant of|Missing positional '
    rf'arguments?|Unexpected keyword argument .* for) {_NAMED}'
)
#: what mypy says of a type variable of the call's callee (the function hook names the value at fault)
_TYPE_VARIABLE: Final = re.compile(
    rf'(Value of type variable "[^"]+" of|Cannot infer value of type parameter "[^"]+" of|Cannot infer '
    rf'type argument \d+ of) {_NAMED}'
)
#: how mypy names the callee tag strings call (the checker's stand-in)
_CHECKER_CALL: Final = '"tagstr_runtime._checker.tag_call"'
_ARGUMENT = re.compile(r'Argument (\d+) to "tag string"')


def _of_this_call(file: str, call: CallExpr, info: ErrorInfo) -> bool:
    """An error about an argument of ``call`` names one at its position (a nested tag string's,
    replayed from mypy's expression cache, may stand where ``call``'s own argument does)."""
    found = _ARGUMENT.match(info.message)
    if found is None:
        return True
    index = int(found.group(1))
    if not 0 < index <= len(call.args):
        return False
    arg = call.args[index - 1]
    return (arg.line, arg.column) == (info.line, info.column)


def _positions(
    file: str, call: CallExpr, kinds: tuple[int, ...]
) -> tuple[set[tuple[str, int, int]], set[tuple[str, int, int]]]:
    """Where mypy reports on ``call`` and its arguments, and on each generated lambda's body.

    A module's errors are reported while it is checked; then mypy empties its
    blocks (``free_tree``): a lambda of a module checked earlier has no body
    left, and none of its positions can match an error of the module being
    checked (positions hold the file)."""
    at_call = {(file, call.line, call.column)}
    bodies = set()
    for arg, kind in zip(call.args[1:], kinds):
        at_call.add((file, arg.line, arg.column))
        if kind == THUNK and isinstance(arg, LambdaExpr) and arg.body.body:
            body = arg.expr()
            bodies.add((file, body.line, body.column))
    return at_call, bodies
