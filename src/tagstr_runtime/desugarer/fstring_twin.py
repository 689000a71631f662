"""An error in a tag string's field, as CPython 3.12+ reports it for the f-string twin.

The placeholder gives CPython each field as a call argument, where a field
that is not an expression is a bare "invalid syntax" wherever the argument
breaks (``{a +}``: at the ``}``).  CPython 3.12+ reads f-string fields by
their own grammar and says what it expected, and where (``f-string:
expecting '=', or '!', or ':', or '}'`` at the ``+``).  So the text is shown
to CPython once more with that tag string written as its f-string twin in the
same columns (``fstring_twin_text``), and an ``f-string:`` error inside it
becomes the tag string's.  On 3.11, whose f-string errors are placed by text
search, the placeholder's error stays (its twin says "invalid syntax" too).
"""

from __future__ import annotations

import sys
import warnings

from tagstr_runtime.desugarer.cpython import compile_text, restore
from tagstr_runtime.syntax import errors as E
from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.desugarer.placeholder import fstring_twin_text
from tagstr_runtime.syntax.source import SourceText

__all__ = ["fstring_field_error"]

#: CPython reads f-string fields by a grammar of their own (PEP 701)
_FIELD_GRAMMAR = sys.version_info >= (3, 12)
_BARE = "tag string: invalid syntax"
_PREFIX = "f-string: "
#: the kinds of the twin's messages that the lexer also reports
_KINDS = {str(m): m.kind for m in (E.EXPECTING_FIELD_END, E.EXPECTING_AFTER_DEBUG, E.EXPECTING_CONV_END,
                                   E.EXPECTING_CLOSE, E.LAMBDA)}


def fstring_field_error(
    error: TagSyntaxError,
    source: SourceText,
    tags: tuple[TagString, ...],
    filename: str,
    mode: str,
    flags: int,
    feature_version: tuple[int, int] | None,
) -> TagSyntaxError:
    """``error`` (CPython's on the placeholder text), or what CPython says of the twin there."""
    if error.msg != _BARE or not _FIELD_GRAMMAR or (feature_version is not None and feature_version < (3, 12)):
        return error
    if error.lineno is None or error.offset is None or error.lineno > source.line_count:
        return error
    where = source.line_start(error.lineno) + error.offset - 1
    target = _innermost(tags, where)
    if target is None:
        return error
    text = fstring_twin_text(source.text, tags, target)
    try:
        with warnings.catch_warnings():  # the twin's warnings (its literal text is blank) are not the source's
            warnings.simplefilter("ignore")
            compile_text(text, filename, mode, flags, feature_version)
    except SyntaxError as exc:
        if not exc.msg.startswith(_PREFIX):
            return error
        exc.msg = exc.msg[len(_PREFIX):]
        found = restore(exc, text, source, tags)
        if not isinstance(found, TagSyntaxError) or found.lineno is None or found.offset is None:
            return error
        at = source.line_start(found.lineno) + found.offset - 1
        if not target.span.start <= at < target.span.end:
            return error
        found.kind = _KINDS.get(found.msg, found.kind)
        return found
    except (MemoryError, RecursionError, ValueError):
        return error
    return error


def _innermost(tags: tuple[TagString, ...], where: int) -> TagString | None:
    """The innermost tag string holding offset ``where``."""
    found = None
    level: tuple[TagString, ...] = tags
    while True:
        for tag in level:
            if tag.span.start <= where < tag.span.end:
                found = tag
                level = tuple(inner for field in tag.fields() for inner in field.nested)
                break
        else:
            return found
