"""Whether a tag's type can be called as a tag at all, once per tag type.

A module calls the same tag many times, and both hooks ask for every tag
string: the verdict is cached for one build or dmypy update (``forget_verdicts``).
"""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import ARG_STAR, ARG_STAR2
from mypy.subtypes import is_subtype
from mypy.types import AnyType, CallableType, Instance, Overloaded, ProperType, Type, TypeOfAny

from tagstr_mypy._signatures import as_called, call_signature

__all__ = ["NOT_A_TAG", "NOT_CALLABLE", "forget_verdicts", "verdict"]

NOT_CALLABLE: Final = "not callable"
NOT_A_TAG: Final = "not a tag function"
# signature -> verdict.  Keyed by what the verdict depends on, by value (mypy
# types compare structurally), never by identity alone: dmypy updates a class
# in place, and its old verdict must not stay.  A value does not say
# everything (a protocol in the signature can change and compare equal), so
# the cache lives for one build or dmypy update: see forget_verdicts.
_VERDICTS: dict[object, str | None] = {}
# the same by the tag type's identity, which spares hashing a signature at
# every tag string: no type changes in place between two clears (the object
# is held, so its id is not reused while the entry lives)
_VERDICTS_BY_ID: dict[int, tuple[object, str | None]] = {}


def forget_verdicts() -> None:
    """Called whenever mypy parses a module, which every build and every dmypy
    update does before checking what depends on it: no verdict outlives the
    definitions it was made from, nor keeps an old build's types alive."""
    _VERDICTS.clear()
    _VERDICTS_BY_ID.clear()


def verdict(api: TypeChecker, tag_type: ProperType, tag_function: Type) -> str | None:
    """NOT_CALLABLE, NOT_A_TAG or None (a subtype of ``tag_function``, the PEP's
    TagFunction as a signature)."""
    known = _VERDICTS_BY_ID.get(id(tag_type))
    if known is not None and known[0] is tag_type:
        return known[1]
    key = _signature_key(tag_type)
    if key is not None and key in _VERDICTS:
        return _remember(tag_type, _VERDICTS[key])
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
    if key is None:
        return found
    if len(_VERDICTS) > 4096:
        _VERDICTS.clear()
    _VERDICTS[key] = found
    return _remember(tag_type, found)


def _remember(tag_type: ProperType, found: str | None) -> str | None:
    if len(_VERDICTS_BY_ID) > 4096:
        _VERDICTS_BY_ID.clear()
    _VERDICTS_BY_ID[id(tag_type)] = (tag_type, found)
    return found


def _signature_key(tag: ProperType) -> object | None:
    """What decides the verdict, as a value; None: not cached (a class used as
    a tag, whose constructor signature is not one type)."""
    if isinstance(tag, (CallableType, Overloaded)):
        return tag
    if isinstance(tag, Instance):
        return (tag, call_signature(tag))
    return None
