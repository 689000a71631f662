"""SPEC 5: every malformed tag string is a SyntaxError at its exact original position."""

from __future__ import annotations

import pickle

import pytest

import tagstr_runtime
from tagstr_runtime import TagSyntaxError
from tagstr_runtime import _errors as E
from tagstr_runtime._errors import ErrorKind
from tagstr_runtime._source import SourceText

# (source, message, kind, line, offset, end_line, end_offset): offsets 1-based characters,
# as SyntaxError has them; sources put non-ASCII text before the error where it matters.
ERRORS = [
    ('a = tag"abc\n', "unterminated tag string (detected at line 1)", "unterminated", 1, 5, 1, 6),
    ('a = tag"""abc\n\n', "unterminated triple-quoted tag string (detected at line 2)", "unterminated", 1, 5, 1, 6),
    ('a = tag"{}"\n', "tag string: valid expression required before '}'", "empty-expression", 1, 10, 1, 11),
    ('a = tag"{ }"\n', "tag string: valid expression required before '}'", "empty-expression", 1, 11, 1, 12),
    ('a = tag"{x!z}"\n', "tag string: invalid conversion character 'z': expected 's', 'r', or 'a'",
     "conversion", 1, 12, 1, 13),
    ('a = tag"{x!}"\n', "tag string: missing conversion character", "conversion", 1, 12, 1, 13),
    ('a = tag"{x! r}"\n', "tag string: conversion type must come right after the exclamation mark", "conversion",
     1, 11, 1, 14),
    ('a = tag"{x!r=}"\n', "tag string: expecting ':' or '}'", "field-end", 1, 13, 1, 14),
    ('a = tag"é}"\n', "tag string: single '}' is not allowed", "single-brace", 1, 10, 1, 11),
    ('a = tag"{a)}"\n', "tag string: unmatched ')'", "invalid-expression", 1, 11, 1, 12),
    ('a = tag"{x"\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
    # a literal inside a field left open: reported as such, unlike the enclosing quote just above
    ('a = tag"{\'abc}"\n', "unterminated string literal (detected at line 1)", "unterminated", 1, 10, 1, 11),
    ('a = tag"{lambda x: 1}"\n', "tag string: lambda expressions are not allowed without parentheses",
     "invalid-expression", 1, 10, 1, 18),
    ('a = tag"{x for x in y}"\n', "tag string: expecting '=', or '!', or ':', or '}'", "field-end", 1, 12, 1, 15),
    ('async def f():\n    a = tag"{await x}"\n',
     "tag string: 'await' is not allowed in an interpolation (it is evaluated lazily, in a lambda)", "await-yield",
     2, 14, 2, 21),
    ('async def f(xs):\n    a = tag"{[y async for y in xs]}"\n',
     "tag string: an asynchronous comprehension is not allowed in an interpolation (it is evaluated lazily, "
     "in a lambda)", "await-yield", 2, 14, 2, 35),
    ('a = tag"{yield}"\n',
     "tag string: 'yield' is not allowed in an interpolation (it is evaluated lazily, in a lambda)", "await-yield",
     1, 10, 1, 15),
    ('a = tag"é {a b}"\n', "tag string: invalid syntax. Perhaps you forgot a comma?", "invalid-expression",
     1, 12, 1, 15),
    ('a = tag"""\n  {x +}"""\n', "tag string: invalid syntax", "invalid-expression", 2, 7, 2, 8),
    ('a = tag"\\x4"\n', "tag string: (unicode error) truncated \\xXX escape", "escape", 1, 9, 1, 12),
    ('a = tag"é\\N{{NO SUCH NAME}}"\n', "tag string: (unicode error) unknown Unicode character name", "escape",
     1, 10, 1, 28),
    ('a = None"x"\n', "keyword 'None' cannot be used as a tag", "keyword-tag", 1, 5, 1, 9),
    ('def"x"\n', "keyword 'def' cannot be used as a tag", "keyword-tag", 1, 1, 1, 4),
    ('a = lambda"x"\n', "keyword 'lambda' cannot be used as a tag", "keyword-tag", 1, 5, 1, 11),
    ('a = x.tag"a"\n', "dotted names cannot be used as tags; bind the tag to a plain name first", "dotted-tag",
     1, 7, 1, 11),
    ('a = tag"a" "b"\n', "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
     1, 12, 1, 13),
    ('a = "b" tag"a"\n', "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
     1, 9, 1, 13),
    ('a = tag"a" f"b"\n', "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
     1, 12, 1, 14),
    ('a = tag"a" tag"b"\n', "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
     1, 12, 1, 16),
    ('a = (tag"a"\n     "b")\n', "tag strings cannot be implicitly concatenated with other string literals",
     "concatenation", 2, 6, 2, 7),
    ('x = tag"{y:a\nb}"\n',
     "tag string: newlines are not allowed in format specifiers for single quoted tag strings", "format-spec",
     1, 13, 1, 14),
    ('x = tag"{html\'{1 +}\'}"\n', "tag string: invalid syntax", "invalid-expression", 1, 19, 1, 20),
    ('match 1:\n    case tag"x":\n        pass\n', "tag strings cannot be used as match patterns", "pattern",
     2, 10, 2, 16),
]


@pytest.mark.parametrize(("src", "message", "kind", "line", "offset", "end_line", "end_offset"), ERRORS)
def test_error_position(
    src: str, message: str, kind: str, line: int, offset: int, end_line: int, end_offset: int
) -> None:
    with pytest.raises(TagSyntaxError) as info:
        tagstr_runtime.compile(src, "bad.py", "exec")
    err = info.value
    assert isinstance(err, SyntaxError)
    assert (err.msg, err.filename) == (message, "bad.py")
    assert err.kind == kind
    assert isinstance(err.kind, ErrorKind)
    assert (err.lineno, err.offset, err.end_lineno, err.end_offset) == (
        line, offset, end_line, end_offset
    )
    assert err.text == src.splitlines(keepends=True)[line - 1]


def test_errors_in_standard_code_stay_cpythons() -> None:
    src = 'x = tag"{a}"\ny = (1 +\n'
    with pytest.raises(SyntaxError) as info:
        tagstr_runtime.compile(src, "bad.py", "exec")
    assert not isinstance(info.value, TagSyntaxError)
    assert info.value.lineno == 2
    assert info.value.text == "y = (1 +\n"


def test_source_without_tag_strings_raises_cpythons_own_error() -> None:
    with pytest.raises(SyntaxError) as info:
        tagstr_runtime.compile("x = = 1\n", "bad.py", "exec")
    try:
        compile("x = = 1\n", "bad.py", "exec")
    except SyntaxError as expected:
        assert (info.value.msg, info.value.offset) == (expected.msg, expected.offset)


def test_message_constants_declare_their_kinds() -> None:
    """Each error text of ``_errors`` carries a kind, so ``error_at`` never falls back to OTHER."""
    constants = {
        name: value for name, value in vars(E).items()
        if name.isupper() and isinstance(value, str) and name != "NAMED_ESCAPE_WARNING"
    }
    assert len(constants) > 20
    for name, value in constants.items():
        assert isinstance(value, E.Message), name
        assert value.kind is not ErrorKind.OTHER, name
        if "{}" in value or "{!r}" in value:  # a template
            assert value.format("x").kind is value.kind, name


def test_error_at_kind_from_message_or_argument() -> None:
    source = SourceText('a = tag"x"\n')
    assert E.error_at(source, "f.py", E.YIELD.format("yield"), 4, 7).kind is ErrorKind.AWAIT_YIELD
    assert E.error_at(source, "f.py", E.PATTERN, 4).kind is ErrorKind.PATTERN
    assert E.error_at(source, "f.py", "tag string: something new", 4).kind is ErrorKind.OTHER
    explicit = E.error_at(source, "f.py", "tag string: something new", 4, kind=ErrorKind.TOO_DEEP)
    assert explicit.kind is ErrorKind.TOO_DEEP
    # built from a plain text, as the desugarer re-words CPython's own error on an interpolation
    assert TagSyntaxError("tag string: invalid syntax", ("f.py", 1, 5, "x\n", 1, 6)).kind is (
        ErrorKind.INVALID_EXPRESSION
    )


def test_kind_survives_pickling_and_repositioning() -> None:
    with pytest.raises(TagSyntaxError) as info:
        tagstr_runtime.compile('a = tag"{x!z}"\n', "bad.py", "exec")
    copied = pickle.loads(pickle.dumps(info.value))
    assert (copied.kind, copied.msg, copied.offset) == (ErrorKind.CONVERSION, info.value.msg, 12)
    # a tool moving the error (the mypy plugin shifts its column) keeps the message, so the kind
    err = info.value
    moved = TagSyntaxError(err.msg, (err.filename, err.lineno, 11, err.text, err.end_lineno, err.end_offset))
    assert moved.kind is ErrorKind.CONVERSION
