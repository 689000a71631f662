"""``TagCall``: one tag string typed against its tag, in tag-string terms.

The function hook (``typing/call_type.py``) makes one when mypy's own check of the
call did not settle everything: it checks the tag (a verdict, with mypy's own
reasons when it is no tag function), calls the tag with the interpolations'
``Interpolation[<type>]`` when needed, and reports each interpolation whose value
the tag does not accept, at its expression.
"""

from __future__ import annotations

from typing import Final, Sequence

from mypy.checker import TypeChecker
from mypy.errorcodes import ErrorCode
from mypy.errors import ErrorInfo
from mypy.messages import format_type
from mypy.nodes import (
    ARG_POS,
    Context,
    Expression,
    RefExpr,
    TempNode,
    FuncDef,
    Var,
)
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    ProperType,
    Type,
    TupleType,
    TypeOfAny,
    TypeVarType,
    UnionType,
    get_proper_type,
    is_named_instance,
)

from tagstr_runtime.frontend import CHECKER_MODULE, INTERPOLATION_TYPE

from tagstr_mypy.hooks.build_state import BuildState
from tagstr_mypy.reports.codes import fail_interpolation, fail_not_callable, fail_signature, fail_together
from tagstr_mypy.reports.explain import ARGUMENT_MESSAGE, Rejection, TypeNames
from tagstr_mypy.typing.fields import value_context, value_of
from tagstr_mypy.typing.other_plugins import own_signature
from tagstr_mypy.typing.signatures import formal_at, signatures
from tagstr_mypy.typing.trials import values_only
from tagstr_mypy.typing.verdicts import NOT_CALLABLE, verdict

__all__ = ["TagCall", "flatten", "interpolation_value"]

CHECKER: Final = CHECKER_MODULE
INTERPOLATION: Final = INTERPOLATION_TYPE


class TagCall:
    """One tag string being typed."""

    def __init__(
        self,
        state: BuildState,
        api: TypeChecker,
        context: Context,
        tag_expr: Expression,
        tag_type: ProperType,
        name: str,
        args: list[Expression],
        arg_types: list[Type],
        texts: Sequence[str | None] = (),
        kinds: Sequence[int] = (),
        starts: Sequence[tuple[int, int] | None] = (),
    ) -> None:
        self.state = state
        self.api = api
        self.context = context
        self.tag_expr = tag_expr
        self.tag_type = tag_type
        self.name = name
        self.args = args
        self.arg_types = arg_types
        self.texts = texts  # each argument's source text (None: a literal part)
        #: each argument's interpolation expression (None: a literal part), and where it starts
        #: when the tree placed it elsewhere (``SiteRecord.starts``)
        self.values = [value_of(arg, kind) for arg, kind in zip(args, kinds)]
        self.starts = starts

    rejected = False
    failed = False  # the interpolations the tag does not accept were reported
    reported: frozenset[int] = frozenset()  # the argument indexes reported one by one

    def check(self, result: Type | None = None, failed: bool | None = None) -> Type:
        """The call's type: ``result`` when mypy typed the call already; ``failed``:
        whether mypy found that call wrong (None: not known, check again)."""
        verdict = self.verdict()
        if verdict is not None:
            self.rejected = True
            self.reject(verdict)
            return AnyType(TypeOfAny.from_error)
        if failed is not None and result is not None:
            if failed:
                self.report_slots()
            return result
        fast = self.direct_result()
        if fast is not None:
            return fast if result is None else result
        own, failed = self.call(self.arg_types)
        if failed:
            self.report_slots()
        return own if result is None else result

    def reject(self, verdict: str) -> None:
        """The error, and mypy's reasons as its notes."""
        decoded, interpolation = self.declared("decoded"), self.declared("any_interpolation")
        names = TypeNames(self.api, self.tag_type, decoded, interpolation)
        tag = names.quoted(self.tag_type)
        if verdict == NOT_CALLABLE:
            error = fail_not_callable(self.api, self.tag_expr, self.name, tag)
        else:
            error = fail_signature(self.api, self.tag_expr, self.name, tag, names.ours_ambiguous())
        Rejection(
            self.api, self.tag_expr, self.tag_type, self.name, self.callable_name(),
            self.args, self.arg_types, decoded, interpolation, self.texts,
        ).explain(error)

    def callable_name(self) -> str | None:
        return (self.tag_expr.fullname if isinstance(self.tag_expr, RefExpr) else None) or None

    def verdict(self) -> str | None:
        """NOT_CALLABLE, NOT_A_TAG or None (a tag function)."""
        return verdict(self.state, self.api, self.tag_type, self.tag_function())

    def direct_result(self) -> Type | None:
        """The common case without inference: a plain (non-generic) function whose
        parameters accept every argument as it is."""
        tag = self.tag_type
        if not isinstance(tag, CallableType) or tag.variables or tag.is_type_obj():
            return None
        for index, typ in enumerate(self.arg_types):
            formal = formal_at(tag, index)
            if formal is None or not is_subtype(typ, formal):
                return None
        return tag.ret_type

    def tag_function(self) -> Type:
        """``def (*args: Decoded | Interpolation[Any]) -> Any``: the PEP's TagFunction."""
        return self.declared("tag_function")

    def declared(self, name: str) -> Type:
        # Types come from declarations in tagstr_runtime._checker, so mypy builds
        # them its own way (Interpolation is a tuple subclass: a TupleType).
        node = self.api.modules[CHECKER].names[name].node
        assert isinstance(node, (FuncDef, Var)) and node.type is not None
        return node.type

    def call(self, arg_types: list[Type]) -> tuple[Type, bool]:
        """The tag called with these argument types: (result type, whether it failed)."""
        temps: list[Expression] = [
            TempNode(typ, context=arg) for typ, arg in zip(arg_types, self.args)
        ]
        with self.api.msg.filter_errors() as watcher, values_only(self.api):
            result, _ = self.api.expr_checker.check_call(
                self.tag_type, temps, [ARG_POS] * len(temps), self.context,
                callable_name=self.callable_name(),
            )
        return result, watcher.has_new_errors()

    def report_slots(self) -> None:
        """Report each interpolation whose value the tag does not accept, at its expression."""
        self.failed = True
        loose = [self.loosened(typ) for typ in self.arg_types]
        reported = False
        # A call that fails with every value loosened to Any fails for another
        # reason (an abstract class as the tag, say): mypy's own error says which.
        unrelated = any(loose[i] is not t for i, t in enumerate(self.arg_types)) and self.call(loose)[1]
        for index, typ in enumerate([] if unrelated else self.arg_types):
            value = self.value_type(typ)
            if value is None:
                continue
            trial = list(loose)
            trial[index] = typ
            if not self.call(trial)[1]:
                continue
            fail_interpolation(
                self.api, self.slot_context(index), self.slot_text(index),
                format_type(value, self.api.options), self.name, self.accepted(index),
            )
            reported = True
            self.reported |= {index}
        if not reported and not unrelated:
            # only a combination fails (e.g. one type variable, two types): mypy's message
            # about the type variable says why, in the tag's name, as for the call
            said = self.type_variable_message()
            if said is not None:
                self.api.msg.fail(said[0], self.context, code=said[1])
                return
            values = [
                (self.slot_text(i), format_type(self.value_alone(i), self.api.options))
                for i, typ in enumerate(self.arg_types)
                if self.value_type(typ) is not None
            ]
            fail_together(self.api, self.context, self.name, values)
        elif unrelated:
            # mypy's own error says what is wrong
            temps: list[Expression] = [
                TempNode(typ, context=arg) for typ, arg in zip(self.arg_types, self.args)
            ]
            # (not its argument errors, which count literal parts: the
            # call fails without them)
            with values_only(self.api), self.api.msg.filter_errors(filter_errors=about_an_argument):
                self.api.expr_checker.check_call(
                    self.tag_type, temps, [ARG_POS] * len(temps), self.context
                )

    def value_expr(self, index: int) -> Expression | None:
        return self.values[index] if index < len(self.values) else None

    def type_variable_message(self) -> tuple[str, ErrorCode | None] | None:
        """What mypy said of a type variable of the tag for this call (``CallErrors``)."""
        found = self.state.call_errors
        if found is None:
            return None
        context = self.context
        return found[2].type_variables.get((self.api.path, context.line, context.column))

    def slot_context(self, index: int) -> Context:
        """Where an error about argument ``index`` is reported: the interpolation's expression."""
        value = self.value_expr(index)
        if value is None:
            return self.args[index]
        return value_context(value, self.starts[index] if index < len(self.starts) else None)

    def value_alone(self, index: int) -> Type:
        """The value's type without the tag's context: what a failed inference
        leaves in the type map (``list[Any]``) tells the reader nothing."""
        expr = self.value_expr(index)
        value = self.value_type(self.arg_types[index])
        assert value is not None
        if expr is None:
            return value
        with self.api.msg.filter_errors(), self.api.local_type_map:
            return self.api.expr_checker.accept(expr)

    def slot_text(self, index: int) -> str:
        return (self.texts[index] if index < len(self.texts) else None) or "?"

    def loosened(self, typ: Type) -> Type:
        return self.declared("any_interpolation") if self.value_type(typ) is not None else typ

    def value_type(self, typ: Type) -> Type | None:
        return interpolation_value(typ)

    def accepted(self, index: int) -> str:
        """What the tag accepts at argument ``index``, in Interpolation[T] terms when it can."""
        formals: list[Type] = []
        # the signature as other plugins make it (a singledispatch function's, say)
        own = own_signature(self.state, self.api, self.tag_expr, self.tag_type, self.args, self.context)
        for signature in signatures(own if own is not None else self.tag_type):
            if signature.variables:
                # what the context solved (``x: list[int] = tag"..."``), as the call's message says
                signature = self.api.expr_checker.infer_function_type_arguments_using_context(
                    signature, self.context
                )
            formal = formal_at(signature, index)
            if formal is not None:
                formals.append(formal)
        values: list[Type] = []
        for formal in formals:
            for item in flatten(formal):
                value = self.value_type(item)
                if value is not None:
                    values.append(value)
        shown = values or formals
        if not shown:
            return "no interpolation"
        text = format_type(UnionType.make_union(shown), self.api.options)
        return text + self.type_variable_bounds(shown)

    def type_variable_bounds(self, types: list[Type]) -> str:
        """What a type variable among ``types`` stands for (its bound or its values): "T" alone
        says nothing to the reader of ``tag"{x}"``, who never wrote it."""
        said = []
        for typ in types:
            proper = get_proper_type(typ)
            if not isinstance(proper, TypeVarType):
                continue
            options = self.api.options
            if proper.values:
                choices = ", ".join(format_type(v, options) for v in proper.values)
                said.append(f"{format_type(proper, options)} is one of {choices}")
            elif not is_named_instance(get_proper_type(proper.upper_bound), "builtins.object"):
                said.append(f"{format_type(proper, options)} is bound to {format_type(proper.upper_bound, options)}")
        return f" ({'; '.join(said)})" if said else ""


def about_an_argument(file: str, info: ErrorInfo) -> bool:
    return ARGUMENT_MESSAGE.match(info.message) is not None


def interpolation_value(typ: Type) -> Type | None:
    """``T`` of ``Interpolation[T]`` (a TupleType whose fallback is the class), or None."""
    proper = get_proper_type(typ)
    if isinstance(proper, TupleType):
        proper = proper.partial_fallback
    if isinstance(proper, Instance) and proper.type.fullname == INTERPOLATION:
        return proper.args[0] if proper.args else AnyType(TypeOfAny.special_form)
    return None


def flatten(typ: Type) -> list[ProperType]:
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return [p for item in proper.items for p in flatten(item)]
    return [proper]
