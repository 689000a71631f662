"""The type an interpolation's context asks for: an SQL name, the attributes of an HTML tag.

The parse step recorded, per interpolation of a tag string whose tag declares
SQL or HTML, what its context asks (``typing.hole_demands.hole_demands``); once the tag
accepted the value, the value must also be:

* an SQL name (``FROM {table:i}``, ``ORDER BY {column}``): a declared
  identifier type, ``tagstr_runtime.languages.Identifier`` or a class named
  ``Identifier`` (psycopg's ``sql.Identifier``), or a string literal (a name
  written in the program): a plain ``str`` may be anything a user typed;
* the attributes of an HTML tag (``<div {attrs}>``): a ``Mapping[str, object]``.

Each is reported as the tag's own rule is, ``tagstr-interpolation`` at the
interpolation's expression, and only for a value the tag itself accepted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

from mypy.checker import TypeChecker
from mypy.messages import format_type
from mypy.nodes import Expression
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType, Instance, LiteralType, Type, TypeVarType, UninhabitedType, UnionType, get_proper_type,
)

from tagstr_runtime.frontend import ATTRIBUTES, IDENTIFIER

from tagstr_mypy.reports.codes import fail_interpolation
from tagstr_mypy.typing.fields import value_type

if TYPE_CHECKING:
    from tagstr_mypy.typing.tag_call import TagCall

__all__ = ["ACCEPTED", "check_slot_demands", "meets"]

#: what a message says the tag accepts, by demand
ACCEPTED: Final = {
    IDENTIFIER: '"Identifier" or a string literal there (an SQL name)',
    ATTRIBUTES: '"Mapping[str, object]" there (the attributes of an HTML tag)',
}


def check_slot_demands(
    api: TypeChecker, tag_call: TagCall, pairs: list[tuple[Expression, Type, int]], demands: Sequence[str | None]
) -> None:
    """Report each interpolation of ``tag_call`` (``pairs``: its arguments and their types as
    mypy inferred them; ``demands``: what each one's context asks, ``SiteRecord.demands``)
    whose value the tag accepted but its context does not."""
    if tag_call.failed and not tag_call.reported:
        return  # only a combination fails: said once, for the tag
    for index, ((arg, typ, kind), demand) in enumerate(zip(pairs, demands)):
        if tag_call.value_expr(index) is None or demand is None or index in tag_call.reported:
            continue
        value = value_type(api, arg, kind, typ)  # (a string literal's value kept: an SQL name)
        if value is None or meets(api, demand, value):
            continue
        shown = format_type(value, api.options)
        fail_interpolation(api, tag_call.slot_context(index), tag_call.slot_text(index), shown, tag_call.name,
                           ACCEPTED[demand])


def meets(api: TypeChecker, demand: str, value: Type) -> bool:
    """Whether ``value`` is what ``demand`` asks for (each member of a union, a type
    variable's bound or each of its values)."""
    proper = get_proper_type(value)
    if isinstance(proper, (AnyType, UninhabitedType)):
        return True
    if isinstance(proper, UnionType):
        return all(meets(api, demand, item) for item in proper.items)
    if isinstance(proper, TypeVarType):
        if proper.values:
            return all(meets(api, demand, item) for item in proper.values)
        return meets(api, demand, proper.upper_bound)
    if demand == ATTRIBUTES:
        text, anything = api.named_type("builtins.str"), api.named_type("builtins.object")
        return is_subtype(proper, api.named_generic_type("typing.Mapping", [text, anything]))
    return _is_name(proper)


def _is_name(proper: object) -> bool:
    """A declared identifier type, or a string literal."""
    if isinstance(proper, LiteralType):
        return isinstance(proper.value, str)
    if isinstance(proper, Instance):
        if proper.last_known_value is not None and isinstance(proper.last_known_value.value, str):
            return True  # a string literal (``{"users":i}``)
        return any(base.name == "Identifier" for base in proper.type.mro)
    return False
