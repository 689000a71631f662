"""Whether a tag's type can be called as a tag at all, once per tag type.

A module calls the same tag many times, and both hooks ask for every tag
string: the verdict is cached for one build or dmypy update (``BuildState``).
"""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import ARG_STAR, ARG_STAR2
from mypy.subtypes import is_subtype
from mypy.types import AnyType, CallableType, Instance, Overloaded, ProperType, Type, TypeOfAny

from tagstr_mypy.hooks.build_state import BuildState, remember
from tagstr_mypy.typing.signatures import as_called, call_signature

__all__ = ["NOT_A_TAG", "NOT_CALLABLE", "verdict"]

NOT_CALLABLE: Final = "not callable"
NOT_A_TAG: Final = "not a tag function"


def verdict(state: BuildState, api: TypeChecker, tag_type: ProperType, tag_function: Type) -> str | None:
    """NOT_CALLABLE, NOT_A_TAG or None (a subtype of ``tag_function``, the PEP's
    TagFunction as a signature).

    Cached by what the verdict depends on, by value (mypy types compare
    structurally), never by identity alone: dmypy updates a class in place, and
    its old verdict must not stay.  A value does not say everything (a protocol
    in the signature can change and compare equal), so the cache lives for one
    build or dmypy update (``BuildState``).  By the tag type's identity too, which
    spares hashing a signature at every tag string.
    """
    known = state.verdicts_by_id.get(id(tag_type))
    if known is not None and known[0] is tag_type:
        return known[1]
    key = _signature_key(tag_type)
    if key is not None and key in state.verdicts:
        found = state.verdicts[key]
        remember(state.verdicts_by_id, id(tag_type), (tag_type, found))
        return found
    any_type = AnyType(TypeOfAny.special_form)
    anything = CallableType(
        [any_type, any_type], [ARG_STAR, ARG_STAR2], [None, None], any_type,
        api.named_type("builtins.function"), is_ellipsis_args=True,
    )
    found = None
    called = as_called(tag_type)
    if not is_subtype(called, anything):
        found = NOT_CALLABLE
    elif not is_subtype(called, tag_function):
        found = NOT_A_TAG
    if key is not None:
        remember(state.verdicts, key, found)
        remember(state.verdicts_by_id, id(tag_type), (tag_type, found))
    return found


def _signature_key(tag: ProperType) -> object | None:
    """What decides the verdict, as a value; None: not cached (a class used as
    a tag, whose constructor signature is not one type)."""
    if isinstance(tag, (CallableType, Overloaded)):
        return tag
    if isinstance(tag, Instance):
        return (tag, call_signature(tag))
    return None
