"""SPEC 5: every malformed tag string is a SyntaxError at its exact original position."""

from __future__ import annotations

import pickle
import sys
import warnings

import pytest

import tagstr_runtime
from tagstr_runtime import TagSyntaxError
from tagstr_runtime import _errors as E
from tagstr_runtime._errors import ErrorKind
from tagstr_runtime._source import SourceText

#: CPython 3.12+ reads f-string fields by a grammar of their own, which says what it expected
#: there; 3.11's f-string twin says "invalid syntax", where its parser stops (issue 30)
FIELD_GRAMMAR = sys.version_info >= (3, 12)

# (source, message, kind, line, offset, end_line, end_offset): offsets 1-based characters,
# as SyntaxError has them; sources put non-ASCII text before the error where it matters.
# Each error in a field is also its f-string twin's (TWINS below).
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
     "invalid-expression", 1, 10, 1, 19),
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
    ('a = tag"\\x4"\n', "tag string: (unicode error) truncated \\xXX escape", "escape", 1, 9, 1, 12),
    ('a = tag"é\\N{{NO SUCH NAME}}"\n', "tag string: (unicode error) unknown Unicode character name", "escape",
     1, 10, 1, 28),
    ('a = None"x"\n', "keyword 'None' cannot be used as a tag", "keyword-tag", 1, 5, 1, 9),
    ('def"x"\n', "keyword 'def' cannot be used as a tag", "keyword-tag", 1, 1, 1, 4),
    # NFKC: a keyword to the compiler (PEP 3131), not to CPython's tokenizer
    ('a = 𝐢𝐟"x"\n', "keyword 'if' cannot be used as a tag", "keyword-tag", 1, 5, 1, 7),
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
    ('match 1:\n    case tag"x":\n        pass\n', "tag strings cannot be used as match patterns", "pattern",
     2, 10, 2, 16),
    # a bracket left open in a field: CPython's tokenizer error at the '}' (issue 30)
    ('x = tag"{fmt(item.name}"\n', "tag string: closing parenthesis '}' does not match opening parenthesis '('",
     "invalid-expression", 1, 23, 1, 24),
    ('x = tag"""\n<li>{fmt(item.name}</li>\n"""\n',
     "tag string: closing parenthesis '}' does not match opening parenthesis '('", "invalid-expression",
     2, 19, 2, 20),
    ('x = tag"""{f(a,\n  b}"""\n',
     "tag string: closing parenthesis '}' does not match opening parenthesis '(' on line 1", "invalid-expression",
     2, 4, 2, 5),
    ('x = tag"{a = 1}"\n', "tag string: expecting '!', or ':', or '}'", "field-end", 1, 14, 1, 15),
    # a '}' missing at the end of a line of a single-quoted tag string: reported on that line,
    # not where the code after it breaks the field (a def's ':' read as a format spec)
    ('x = tag"{a\ndef f(x):\n    return 1\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
    ('x = tag"é {a\ny = 2\n', "tag string: expecting '}'", "field-end", 1, 13, 1, 14),
    ('x = tag"{a\nprint(\'it\'s\')\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
    ('x = tag"{a\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
    *(
        [
            ('a = tag"""\n  {x +}"""\n', "tag string: expecting '=', or '!', or ':', or '}'", "field-end",
             2, 6, 2, 7),
            ('x = tag"{html\'{1 +}\'}"\n', "tag string: expecting '=', or '!', or ':', or '}'", "field-end",
             1, 18, 1, 19),
            ('a = tag"{import}"\n', "tag string: expecting a valid expression after '{'", "invalid-expression",
             1, 10, 1, 16),
            ('a = tag"{(lambda: )}"\n', "tag string: expecting a valid expression after '{'", "invalid-expression",
             1, 10, 1, 11),
        ]
        if FIELD_GRAMMAR
        else [
            ('a = tag"""\n  {x +}"""\n', "tag string: invalid syntax", "invalid-expression", 2, 7, 2, 8),
            ('x = tag"{html\'{1 +}\'}"\n', "tag string: invalid syntax", "invalid-expression", 1, 19, 1, 20),
            ('a = tag"{import}"\n', "tag string: invalid syntax", "invalid-expression", 1, 10, 1, 16),
            ('a = tag"{(lambda: )}"\n', "tag string: invalid syntax", "invalid-expression", 1, 19, 1, 20),
        ]
    ),
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


# (id, before, tag string body with its quotes, after): the source is before + 'tag' + body + after,
# its f-string twin before + 'tag(f' + body + ')' + after.
TWINS = [
    ("open-paren", "x = ", '"{fmt(item.name}"', "\n"),
    ("open-paren-triple", "x = ", '"""\n<li>{fmt(item.name}</li>\n<p>\n"""', "\n"),
    ("open-bracket", "x = ", '"{items[0}"', "\n"),
    ("open-paren-other-line", "x = ", '"""{f(a,\n  b}"""', "\n"),
    ("mismatched-kind", "x = ", '"{a[1)}"', "\n"),
    ("unmatched", "x = ", '"{a)}"', "\n"),
    ("debug-then-more", "x = ", '"{a = 1}"', "\n"),
    ("operator-without-operand", "x = ", '"{a +}"', "\n"),
    ("space-then-operator", "é = ", '"{ a +}"', "\n"),
    ("keyword", "x = ", '"{import}"', "\n"),
    ("empty-lambda", "x = ", '"{(lambda: )}"', "\n"),
    ("comment-newline", "x = ", '"{a + # c\n}"', "\n"),
    ("spec-field", "x = ", '"{a:{b +}}"', "\n"),
    ("spec-keyword", "x = ", '"{a:{import}}"', "\n"),
    ("triple-second-line", "x = ", '"""\n  {x +}"""', "\n"),
    ("generator", "x = ", '"{a for a in b}"', "\n"),
    ("lambda", "x = ", '"{lambda x: 1}"', "\n"),
    ("conversion-then-debug", "x = ", '"{x!r=}"', "\n"),
    ("comma", "x = ", '"{a b}"', "\n"),
    ("empty", "x = ", '"{}"', "\n"),
    # SPEC 4: a spec's fields are evaluated with the spec, in the enclosing scope
    ("await-in-spec-async", "async def f():\n    x = ", '"{a:{await b}}"', "\n"),
    ("await-in-spec-def", "def f():\n    x = ", '"{a:{await b}}"', "\n"),
    ("yield-in-spec-module", "x = ", '"{a:{(yield)}}"', "\n"),
    ("yield-in-spec-def", "def f():\n    x = ", '"{a:{(yield)}}"', "\n"),
]
#: Read by PEP 701's rules, as tag strings are on every version (SPEC 2); 3.11 reads the f-string
#: twin by its older ones, with other messages (3.12+ compares these too)
PEP_701 = {"open-paren-other-line", "debug-then-more", "comment-newline", "generator", "lambda",
           "conversion-then-debug", "empty"}


def outcome(compiler: object, source: str) -> tuple[object, ...]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler(source, "<m>", "exec")  # type: ignore[operator]
    except SyntaxError as exc:
        return exc.msg, exc.lineno, exc.offset, exc.end_lineno, exc.end_offset
    return ("ok",)


def as_tag_strings(twin: tuple[object, ...], line: int, col: int) -> tuple[object, ...]:
    """The twin's error in the tag string's terms: the two characters of ``(f`` after the tag's
    ``col`` on its ``line`` taken out; a zero-width span (a tokenizer error) is the character at it."""
    if twin == ("ok",):
        return twin
    msg, lineno, offset, end_lineno, end_offset = twin

    def back(at_line: object, at: object) -> object:
        return at - 2 if at_line == line and isinstance(at, int) and at > col else at

    offset, end_offset = back(lineno, offset), back(end_lineno, end_offset)
    if (lineno, offset) == (end_lineno, end_offset) and isinstance(end_offset, int):
        end_offset += 1
    return msg, lineno, offset, end_lineno, end_offset


def same_message(ours: object, twin: object) -> bool:
    """CPython's own words (an error the compiler found in the generated code), or its
    f-string error with our prefix (every error inside a tag string carries it)."""
    return ours == twin or ours == "tag string: " + str(twin).removeprefix("f-string: ")


@pytest.mark.parametrize(("name", "before", "body", "after"), TWINS, ids=[row[0] for row in TWINS])
def test_field_errors_are_the_fstring_twins(name: str, before: str, body: str, after: str) -> None:
    """Where the typo is, in CPython's words for ``tag(f"...")`` on this version (issue 30).

    On 3.11, whose f-string errors are placed by text search, the message alone.
    """
    ours = outcome(tagstr_runtime.compile, before + "tag" + body + after)
    twin = outcome(compile, before + "tag(f" + body + ")" + after)
    line, col = before.count("\n") + 1, len(before.rpartition("\n")[2]) + 4
    expected = as_tag_strings(twin, line, col)
    if not FIELD_GRAMMAR and name in PEP_701:
        pytest.skip("3.11 reads the twin by its pre-PEP 701 rules, in other words (ERRORS has ours)")
    assert (ours == expected == ("ok",)) or same_message(ours[0], expected[0]), (ours, twin)
    if FIELD_GRAMMAR:
        assert ours[1:] == expected[1:], (ours, twin)


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
