"""A deprecated overload named in the user's terms.

mypy names a deprecated overload by a text it wrote when it analysed the
overload, in which ``Interpolation[str]`` is the tuple it is made of
(``tuple[def () -> str, str, ..., fallback=tagstr_runtime._types.Interpolation[str]]``).
The call form shows that text too; a tag string's error shows the overload as
every other message of the plugin shows types.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.errorcodes import DEPRECATED
from mypy.errors import ErrorInfo
from mypy.messages import format_type_bare
from mypy.nodes import Decorator, FuncDef
from mypy.types import CallableType, ProperType

from tagstr_mypy.typing.signatures import signatures

__all__ = ["deprecation_in_user_terms"]

_HEAD = "overload "


def deprecation_in_user_terms(api: TypeChecker, tag_type: ProperType, infos: list[ErrorInfo]) -> None:
    """Reword the deprecation errors among ``infos`` (reported at one tag string)."""
    wanted = [info for info in infos if info.code == DEPRECATED and info.message.startswith(_HEAD)]
    if not wanted:
        return
    by_message: dict[str, FuncDef] = {}
    for signature in signatures(tag_type):
        definition = signature.definition
        if isinstance(definition, Decorator):  # an overload's item is its decorated def
            definition = definition.func
        if isinstance(definition, FuncDef) and definition.deprecated is not None:
            by_message[definition.deprecated] = definition
    for info in wanted:
        definition = by_message.get(info.message)
        if definition is None or definition.type is None:
            continue
        end = info.message.find(" of function ")
        if end < 0:
            continue
        typ = definition.type
        if isinstance(typ, CallableType):  # mypy's text has no name after "def"
            typ = typ.copy_modified(name=None, definition=None)
        shown = format_type_bare(typ, api.options)
        info.message = _HEAD + shown + info.message[end:]
