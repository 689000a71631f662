"""``\\N{...}`` in a tag string: what to tell the user (SPEC 2).

Tag strings are lexed like raw f-strings, so ``tag"\\N{EM DASH}"`` is ``\\N``
and an interpolation of ``EM DASH``: with a name that is not an expression
(most character names have a space) CPython's "invalid syntax. Perhaps you
forgot a comma?" says nothing of the cause.  The compile warning, the error
and the linter all say what ``\\N{`` did and what to write instead: the
doubled braces only when the name is a character's (``unicodedata.lookup``
knows it), else the escaped backslash that keeps ``\\N`` before the value.
"""

from __future__ import annotations

import unicodedata

from tagstr_runtime.syntax import errors as E
from tagstr_runtime.syntax.errors import TagSyntaxError, error_at
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.source import SourceText

__all__ = ["explain_named_escape", "is_character_name", "named_escape_fix"]


def is_character_name(name: str) -> bool:
    """``\\N{name}`` is a character in a standard string (names and aliases, any case)."""
    try:
        unicodedata.lookup(name)
    except KeyError:
        return False
    return True


def named_escape_fix(name: str) -> str:
    """What to write instead of ``\\N{name}``, in a few words."""
    if is_character_name(name):
        return f"write '\\N{{{{{name}}}}}' for the character"
    return "write '\\\\N' for a backslash and N before it"


def explain_named_escape(
    exc: TagSyntaxError,
    source: SourceText,
    filename: str,
    tags: tuple[TagString, ...],
    escape_starts: dict[int, int],
) -> TagSyntaxError:
    """``exc``, CPython's error inside a field opened by ``\\N{``, re-worded to name that cause.

    ``escape_starts``: the offset of each such field's ``{`` -> of its ``\\N``.
    Any other error is returned as it is.
    """
    if exc.lineno is None or exc.offset is None or exc.lineno > source.line_count:
        return exc
    where = source.line_start(exc.lineno) + exc.offset - 1
    for tag in tags:
        for top in tag.walk():
            for field in top.fields():
                start = escape_starts.get(field.span.start)
                if start is not None and field.expr_span.start <= where <= field.expr_span.end:
                    message = E.NAMED_ESCAPE_INVALID.format(name=field.expr, fix=named_escape_fix(field.expr))
                    return error_at(source, filename, message, start, field.span.end)
    return exc
