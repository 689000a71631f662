"""Tag-string syntax errors: one exception type, the texts of its messages, and their kinds.

Messages follow CPython's f-string errors (``f-string: ...`` becomes
``tag string: ...``) so users meet familiar wording; every error carries the
original file position (SPEC 5).

Every error also carries its *kind* (``TagSyntaxError.kind``, an
``ErrorKind``) as data, so that code telling errors apart (the parser, the
console, the plugins) never reads the wording, which may change.  Each
message constant is a ``Message``: a ``str`` that knows its kind, and keeps
it through ``.format()``; ``error_at`` takes the kind from it unless told.
"""

from __future__ import annotations

import enum
from typing import Any

from tagstr_runtime.syntax.source import SourceText

__all__ = ["ErrorKind", "Message", "TagSyntaxError", "error_at"]


class ErrorKind(enum.StrEnum):
    """What is wrong with a tag string (a ``str``: ``kind == "unterminated"`` works)."""

    UNTERMINATED = "unterminated"  # a literal without its closing quote
    EMPTY_EXPRESSION = "empty-expression"  # ``{}``, ``{ !r}``
    FIELD_END = "field-end"  # a replacement field not ended by '=', '!', ':' or '}'
    CONVERSION = "conversion"  # a missing, unknown or misplaced ``!conversion``
    SINGLE_BRACE = "single-brace"  # a lone '}' in literal text
    FORMAT_SPEC = "format-spec"  # a newline in a single-quoted format spec
    INVALID_EXPRESSION = "invalid-expression"  # the interpolation is not a valid expression
    AWAIT_YIELD = "await-yield"  # ``await``/``yield`` in a lazily evaluated interpolation
    ESCAPE = "escape"  # an escape sequence Python rejects
    TOO_DEEP = "too-deep"  # strings nested too deeply
    PATTERN = "pattern"  # a tag string as a ``case`` pattern
    KEYWORD_TAG = "keyword-tag"  # a hard keyword before a quote
    DOTTED_TAG = "dotted-tag"  # ``x.tag"..."``
    CONCATENATION = "concatenation"  # a tag string next to another string literal
    UNLOCATED = "unlocated"  # the generator could not find it in CPython's tree (3.11 limit, or a bug)
    OTHER = "other"  # a message that declares no kind (every constant here declares one)


class Message(str):
    """A message text that carries its ``ErrorKind``; ``format`` keeps it."""

    kind: ErrorKind

    def __new__(cls, text: str, kind: ErrorKind) -> Message:
        self = super().__new__(cls, text)
        self.kind = kind
        return self

    def __getnewargs__(self) -> tuple[str, ErrorKind]:  # type: ignore[override]
        return str(self), self.kind

    def format(self, *args: object, **kwargs: object) -> Message:
        return Message(str.format(self, *args, **kwargs), self.kind)


class TagSyntaxError(SyntaxError):
    """A malformed tag string, at its original position.

    ``kind``: the message's own (a ``Message``), else ``INVALID_EXPRESSION``:
    the one error built from a plain text is CPython's own error on an
    interpolation, re-worded ``tag string: ...`` (``desugarer.desugaring``).  ``error_at``
    may set another.  (An attribute, not an argument: exceptions with keyword
    arguments do not survive ``pickle`` and ``copy``.)
    """

    kind: ErrorKind

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.kind = getattr(self.msg, "kind", ErrorKind.INVALID_EXPRESSION)


TagSyntaxError.__module__ = "tagstr_runtime"  # its public home, as tracebacks print it

K = ErrorKind
UNTERMINATED = Message("unterminated tag string (detected at line {})", K.UNTERMINATED)
UNTERMINATED_TRIPLE = Message("unterminated triple-quoted tag string (detected at line {})", K.UNTERMINATED)
UNTERMINATED_STRING = Message("unterminated string literal (detected at line {})", K.UNTERMINATED)
UNTERMINATED_TRIPLE_STRING = Message(
    "unterminated triple-quoted string literal (detected at line {})", K.UNTERMINATED
)
EMPTY_EXPRESSION = Message("tag string: valid expression required before '{}'", K.EMPTY_EXPRESSION)
SINGLE_CLOSE = Message("tag string: single '}' is not allowed", K.SINGLE_BRACE)
EXPECTING_CLOSE = Message("tag string: expecting '}'", K.FIELD_END)
EXPECTING_CONV_END = Message("tag string: expecting ':' or '}'", K.FIELD_END)
EXPECTING_FIELD_END = Message("tag string: expecting '=', or '!', or ':', or '}'", K.FIELD_END)
EXPECTING_AFTER_DEBUG = Message("tag string: expecting '!', or ':', or '}'", K.FIELD_END)
MISSING_CONVERSION = Message("tag string: missing conversion character", K.CONVERSION)
INVALID_CONVERSION = Message(
    "tag string: invalid conversion character {!r}: expected 's', 'r', or 'a'", K.CONVERSION
)
CONVERSION_SPACE = Message(
    "tag string: conversion type must come right after the exclamation mark", K.CONVERSION
)
UNMATCHED = Message("tag string: unmatched '{}'", K.INVALID_EXPRESSION)
MISMATCHED = Message(
    "tag string: closing parenthesis '{closer}' does not match opening parenthesis '{opener}'{where}",
    K.INVALID_EXPRESSION,
)
SPEC_NEWLINE = Message(
    "tag string: newlines are not allowed in format specifiers for single quoted tag strings", K.FORMAT_SPEC
)
LAMBDA = Message("tag string: lambda expressions are not allowed without parentheses", K.INVALID_EXPRESSION)
AWAIT = Message(
    "tag string: 'await' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
    K.AWAIT_YIELD,
)
YIELD = Message(
    "tag string: '{}' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
    K.AWAIT_YIELD,
)
ASYNC_COMPREHENSION = Message(
    "tag string: an asynchronous comprehension is not allowed in an interpolation "
    "(it is evaluated lazily, in a lambda)",
    K.AWAIT_YIELD,
)
TOO_DEEP = Message("tag string: too many nested strings", K.TOO_DEEP)
CANNOT_LOCATE = Message("tag string: cannot locate this tag string in the parsed tree ({})", K.UNLOCATED)
PATTERN = Message("tag strings cannot be used as match patterns", K.PATTERN)
KEYWORD_TAG = Message("keyword {!r} cannot be used as a tag", K.KEYWORD_TAG)
DOTTED_TAG = Message("dotted names cannot be used as tags; bind the tag to a plain name first", K.DOTTED_TAG)
CONCATENATION = Message(
    "tag strings cannot be implicitly concatenated with other string literals", K.CONCATENATION
)
BAD_ESCAPE = Message("tag string: {}", K.ESCAPE)
NAMED_ESCAPE_INVALID = Message(
    "tag string: '\\N{{' starts an interpolation, and {name!r} is not an expression; {fix}",
    K.INVALID_EXPRESSION,
)
# A SyntaxWarning, not an error: no kind.  ``fix``: ``syntax.named_escapes.named_escape_fix``.
NAMED_ESCAPE_WARNING = "'\\N{{' in a tag string starts an interpolation of {name!r}, not a named character; {fix}"
del K


def error_at(
    source: SourceText,
    filename: str,
    message: str,
    start: int,
    end: int | None = None,
    *,
    kind: ErrorKind | None = None,
) -> TagSyntaxError:
    """A ``TagSyntaxError`` spanning character offsets ``start``..``end`` of ``source``.

    ``kind``: by default the message's own (a constant of this module), or
    ``OTHER`` for a plain text.
    """
    if kind is None:
        kind = message.kind if isinstance(message, Message) else ErrorKind.OTHER
    first = source.pos(start)
    if (end is None or end <= start) and source.text[start : start + 1] in ("\n", ""):
        last = first._replace(col_char=first.col_char + 1)  # a newline or the end: one column
    else:
        last = source.pos(end if end is not None and end > start else start + 1)
    error = TagSyntaxError(
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
    error.kind = kind
    return error
