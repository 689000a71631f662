"""SPEC 5: every malformed tag string is a SyntaxError at its exact original position."""

from __future__ import annotations

import pickle

import pytest

import tagstr_runtime
from tagstr_runtime import TagSyntaxError
from tagstr_runtime.syntax import errors as E
from tagstr_runtime.syntax.errors import ErrorKind
from tagstr_runtime.syntax.source import SourceText

from spec_errors import SPEC_ERRORS, SpecError  # the table shared with the mypy and flake8 tests


@pytest.mark.parametrize("case", SPEC_ERRORS, ids=lambda case: case.id)
def test_error_position(case: SpecError) -> None:
    src, message, kind, line, offset, end_line, end_offset = case[1:]
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
    """Each error text of ``syntax.errors`` carries a kind, so ``error_at`` never falls back to OTHER."""
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
