"""What a tag's type says it can be called with: its signatures, and the formal
type at each position, for a function, an overload, a class or an object with
``__call__`` alike."""

from __future__ import annotations

from mypy.nodes import ARG_STAR
from mypy.subtypes import find_member
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    ProperType,
    Type,
    UnionType,
    get_proper_type,
    get_proper_types,
)

__all__ = ["as_called", "call_signature", "formal_at", "most_positional", "signatures"]

#: where mypy's functools plugin keeps what a ``functools.partial`` object calls,
#: the bound arguments left out: its ``__call__`` is typed ``(*args: Any, **kwargs: Any)``
_PARTIAL = "__mypy_partial"


def call_signature(typ: Instance) -> ProperType | None:
    """What mypy checks a call of the object ``typ`` against: its ``__call__``, or
    for a ``functools.partial``, what its plugin checks it against.  None: not callable."""
    called = as_called(typ)
    if called is not typ:
        return called
    return get_proper_type(find_member("__call__", typ, typ, is_operator=True))


def as_called(typ: ProperType) -> ProperType:
    """``typ``, or for a ``functools.partial`` what a call of it is checked against."""
    if isinstance(typ, Instance) and typ.extra_attrs is not None and _PARTIAL in typ.extra_attrs.attrs:
        return get_proper_type(typ.extra_attrs.attrs[_PARTIAL])
    return typ


def signatures(typ: ProperType) -> list[CallableType]:
    if isinstance(typ, CallableType):
        return [typ]
    if isinstance(typ, Overloaded):
        return list(typ.items)
    if isinstance(typ, Instance):
        call = call_signature(typ)
        if isinstance(call, (CallableType, Overloaded)):
            return signatures(call)
    if isinstance(typ, UnionType):
        return [s for item in get_proper_types(typ.items) for s in signatures(item)]
    return []


def formal_at(signature: CallableType, index: int) -> Type | None:
    positional = 0
    for kind, typ in zip(signature.arg_kinds, signature.arg_types):
        if kind == ARG_STAR:
            return typ
        if kind.is_positional():
            if positional == index:
                return typ
            positional += 1
    return None


def most_positional(typ: ProperType) -> int | None:
    """How many positional arguments the tag takes at most; None: any number."""
    most = 0
    for signature in signatures(typ):
        if ARG_STAR in signature.arg_kinds:
            return None
        most = max(most, sum(kind.is_positional() for kind in signature.arg_kinds))
    return most
