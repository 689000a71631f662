"""Tag-string syntax errors: one exception type and the texts of its messages.

Messages follow CPython's f-string errors (``f-string: ...`` becomes
``tag string: ...``) so users meet familiar wording; every error carries the
original file position (SPEC 5).
"""

from __future__ import annotations

from tagstr_runtime._source import SourceText

__all__ = ["TagSyntaxError", "error_at"]


class TagSyntaxError(SyntaxError):
    """A malformed tag string, at its original position."""


TagSyntaxError.__module__ = "tagstr_runtime"  # its public home, as tracebacks print it


UNTERMINATED = "unterminated tag string (detected at line {})"
UNTERMINATED_TRIPLE = "unterminated triple-quoted tag string (detected at line {})"
UNTERMINATED_STRING = "unterminated string literal (detected at line {})"
UNTERMINATED_TRIPLE_STRING = "unterminated triple-quoted string literal (detected at line {})"
EMPTY_EXPRESSION = "tag string: valid expression required before '{}'"
SINGLE_CLOSE = "tag string: single '}' is not allowed"
EXPECTING_CLOSE = "tag string: expecting '}'"
EXPECTING_CONV_END = "tag string: expecting ':' or '}'"
EXPECTING_FIELD_END = "tag string: expecting '=', or '!', or ':', or '}'"
MISSING_CONVERSION = "tag string: missing conversion character"
INVALID_CONVERSION = "tag string: invalid conversion character {!r}: expected 's', 'r', or 'a'"
CONVERSION_SPACE = "tag string: conversion type must come right after the exclamation mark"
UNMATCHED = "tag string: unmatched '{}'"
SPEC_NEWLINE = "tag string: newlines are not allowed in format specifiers for single quoted tag strings"
LAMBDA = "tag string: lambda expressions are not allowed without parentheses"
AWAIT = "tag string: 'await' is not allowed in an interpolation (it is evaluated lazily, in a lambda)"
YIELD = "tag string: '{}' is not allowed in an interpolation (it is evaluated lazily, in a lambda)"
STARRED = "tag string: cannot use starred expression here"
TOO_DEEP = "tag string: too many nested strings"
PATTERN = "tag strings cannot be used as match patterns"
KEYWORD_TAG = "keyword {!r} cannot be used as a tag"
DOTTED_TAG = "dotted names cannot be used as tags; bind the tag to a plain name first"
CONCATENATION = "tag strings cannot be implicitly concatenated with other string literals"
BAD_ESCAPE = "tag string: {}"
NAMED_ESCAPE_WARNING = (
    "'\\N{{' in a tag string starts an interpolation, not a named character; "
    "write '\\N{{{{{}}}}}' for the character"
)


def error_at(
    source: SourceText,
    filename: str,
    message: str,
    start: int,
    end: int | None = None,
) -> TagSyntaxError:
    """A ``TagSyntaxError`` spanning character offsets ``start``..``end`` of ``source``."""
    first = source.pos(start)
    if (end is None or end <= start) and source.text[start : start + 1] in ("\n", ""):
        last = first._replace(col_char=first.col_char + 1)  # a newline or the end: one column
    else:
        last = source.pos(end if end is not None and end > start else start + 1)
    return TagSyntaxError(
        message,
        (
            filename,
            first.line,
            first.col_char + 1,
            source.line_text(first.line),
            last.line,
            last.col_char + 1,
        ),
    )
