"""``tag(t"...")`` for a tag made with ``@accepts_template``: the per-slot rule of ``tag"..."``.

mypy types a t-string as a plain ``Template`` (every value ``Any``), so the
decorated tag's overload for a template accepts any values.  This hook sees
the call's argument as written: when it is a t-string literal, each value's
type is known, and the tag is called with the arguments the tag string would
pass (``Decoded`` and ``Interpolation[value type]``), through the same
``TagCall`` as a tag string.  An interpolation the tag does not accept is a
``tagstr-interpolation`` error at its expression.  A template held in a
variable carries no value types: nothing more is checked.
"""

from __future__ import annotations


from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Context, Expression, NameExpr, StrExpr, TempNode, TemplateStrExpr
from mypy.plugin import MethodContext
from mypy.types import AnyType, Instance, Type, TypeOfAny, get_proper_type

from tagstr_runtime.frontend import DECODED_TYPE

from tagstr_mypy.hooks.build_state import BuildState
from tagstr_mypy.typing.fields import interpolation_type, typeinfo
from tagstr_mypy.hooks.names import TEMPLATE_TAG_CALL
from tagstr_mypy.typing.tag_call import TagCall

__all__ = ["TEMPLATE_TAG_CALL", "template_call_callback"]


def template_call_callback(state: BuildState, ctx: MethodContext) -> Type:
    api = ctx.api
    assert isinstance(api, TypeChecker)
    literal = template_literal(ctx)
    tag_type = get_proper_type(ctx.type)
    decoded = typeinfo(api, DECODED_TYPE)
    if literal is None or not isinstance(tag_type, Instance) or decoded is None:
        return ctx.default_return_type
    contexts: list[Context] = []
    texts: list[str] = []
    arg_types: list[Type] = []
    for item in literal.items:
        if not isinstance(item, tuple):
            if isinstance(item, StrExpr) and item.value:
                contexts.append(item)
                texts.append("")
                arg_types.append(Instance(decoded, []))
            continue
        value_expr, source, _conversion, _spec = item
        contexts.append(value_expr)
        texts.append(source)
        arg_types.append(interpolation_type(api, value_type(api, value_expr)))
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else TempNode(tag_type, context=ctx.context)
    name = callee.name if isinstance(callee, NameExpr) else "?"
    return TemplateCall(state, api, ctx.context, callee, tag_type, name, contexts, texts, arg_types).check()


def template_literal(ctx: MethodContext) -> TemplateStrExpr | None:
    """The t-string literal when it is the call's one argument."""
    given = [arg for group in ctx.args for arg in group]
    if len(given) == 1 and isinstance(given[0], TemplateStrExpr):
        return given[0]
    return None


def value_type(api: TypeChecker, expr: Expression) -> Type:
    found = api.lookup_type_or_none(expr)
    if found is not None:
        return found
    with api.msg.filter_errors():
        return api.expr_checker.accept(expr)


class TemplateCall(TagCall):
    """A t-string passed to a decorated tag, typed as the tag string it stands for."""

    def __init__(
        self,
        state: BuildState,
        api: TypeChecker,
        context: Context,
        tag_expr: Expression,
        tag_type: Instance,
        name: str,
        contexts: list[Context],
        texts: list[str],
        arg_types: list[Type],
    ) -> None:
        # TagCall reads only the positions of its argument expressions
        located: list[Expression] = [TempNode(AnyType(TypeOfAny.special_form), context=where) for where in contexts]
        super().__init__(state, api, context, tag_expr, tag_type, name, located, arg_types)
        self.contexts = contexts
        self.texts = texts

    def check(self, result: Type | None = None, failed: bool | None = None) -> Type:
        # the tag is a TemplateTag: a tag function by construction, no verdict to give
        result, failed = self.call(self.arg_types)
        if failed:
            self.report_slots()
        return result

    def loosened(self, typ: Type) -> Type:
        if self.value_type(typ) is None:
            return typ
        return interpolation_type(self.api, AnyType(TypeOfAny.special_form))

    def slot_context(self, index: int) -> Context:
        return self.contexts[index]

    def slot_text(self, index: int) -> str:
        return (self.texts[index] or "").strip()
