"""A source whose only failure is not a tag string gets CPython's own error.

Differential: ``tagstr_runtime.compile`` against the builtin ``compile`` on the
running Python, for broken standard code alone and beside a tag string on
another line (its twin has a plain call there): same exception type, message,
line and column.  SPEC 1.8 and "never worse than the stock tool".  Also over
the broken f-strings of ``tests/fstring_typos.py`` (end positions too), and:
an error before a malformed tag string is the one reported (issue 11 item 3).
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import tagstr_runtime
from fstring_typos import typo_sources

BROKEN = {
    "f-string missing brace": 'y = f"{x"\n',
    "f-string missing brace, triple": 'y = f"""{x\n"""\n',
    "f-string empty field": 'y = f"{}"\n',
    "f-string bad conversion": 'y = f"{x!z}"\n',
    "f-string single brace": 'y = f"a } b"\n',
    "f-string unclosed spec": 'y = f"{x:{y}"\n',
    "unterminated string": 'y = "abc\n',
    "unterminated triple": 'y = """abc\n',
    "unclosed bracket": "y = (1,\n",
    "bad indentation": "if x:\ny = 1\n",
    "stray brace": "y = 1}\n",
}
TAG_LINE = 'v = tg"{x}"\n'
TWIN_LINE = "v = tg(x)\n"


def outcome(compiler: object, source: str | bytes) -> tuple[str, str, int | None, int | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler(source, "<m>", "exec")  # type: ignore[operator]
    except SyntaxError as exc:
        return type(exc).__name__, exc.msg, exc.lineno, exc.offset
    return "ok", "", None, None


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_standard_errors_are_cpythons(source: str) -> None:
    expected = outcome(compile, source)
    assert expected[0] != "ok"
    assert outcome(tagstr_runtime.compile, source) == expected


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_standard_errors_beside_a_tag_string_are_cpythons(source: str) -> None:
    expected = outcome(compile, TWIN_LINE + source)
    assert outcome(tagstr_runtime.compile, TAG_LINE + source) == expected


#: Sources CPython rejects before parsing: its error, not a decoding traceback of ours.
UNREADABLE = {
    "invalid utf-8, no cookie": b'x = "\xff"\n',
    "invalid utf-8 on a later line": b"x = (\n\xff\n",
    "unknown encoding": b"# coding: bogus\nx = 1\n",
    "BOM with another cookie": b"\xef\xbb\xbf# coding: latin-1\nx = 1\n",
    "undecodable beside a tag string": b'v = tg"{x}"\nx = "\xff"\n',
    "NUL byte": b"x = 1\x00\n",
    "NUL byte in a tag string": b'v = tg"{x}\x00"\n',
    "NUL byte in a tag string (str)": 'v = tg"{x}\x00"\n',
}


@pytest.mark.parametrize("source", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_unreadable_sources_get_cpythons_error(source: str | bytes) -> None:
    expected = outcome(compile, source)
    assert expected[0] != "ok"
    assert outcome(tagstr_runtime.compile, source) == expected


def test_a_syntax_warning_under_w_error_is_a_syntax_error_at_its_place() -> None:
    """As CPython does for its own SyntaxWarnings (invalid escapes) under ``-W error``."""
    source = 'x = 1\nv = tg"a \\N{BULLET}"\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SyntaxError) as caught:
            tagstr_runtime.compile(source, "<m>", "exec")
        with pytest.raises(SyntaxError) as stock:
            compile('x = 1\nv = "a \\d"\n', "<m>", "exec")
    assert (caught.value.lineno, caught.value.offset, caught.value.end_offset) == (2, 10, 13)
    assert "'\\N{' in a tag string" in caught.value.msg
    assert caught.value.text == 'v = tg"a \\N{BULLET}"\n'
    assert stock.value.lineno == 2  # CPython does the same for its own


@pytest.mark.subprocess
@pytest.mark.parametrize(
    "source",
    ['x = "\\d"\ny = tag"{x}"\n', 'y = tag"{x}"\nx = "\\d"\n'],
    ids=["before-the-tag-string", "after-it"],
)
def test_cpython_warnings_of_a_tag_string_file_show_once(tmp_path: Path, source: str) -> None:
    """CPython's parse shows the warnings before its error; the desugarer's parse, only the others."""
    script = tmp_path / "w.py"
    script.write_text("def tag(*args):\n    return args\n" + source, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-W", "always", "-m", "tagstr_runtime", str(script)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("invalid escape sequence") == 1, proc.stderr


def full_outcome(compiler: object, source: str) -> tuple[object, ...]:
    """Type, message and every position of the error (``ValueError``: a CPython bug, as is)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler(source, "<m>", "exec")  # type: ignore[operator]
    except SyntaxError as exc:
        return type(exc).__name__, exc.msg, exc.lineno, exc.offset, exc.end_lineno, exc.end_offset, exc.text
    except ValueError as exc:  # 3.12.1: f"{x:{w=}}"
        return "ValueError", str(exc)
    return ("ok",)


def test_broken_fstrings_get_cpythons_error() -> None:
    """Issue 11 item 2: a typo in a plain f-string is CPython's error, not a tag string's."""
    differ = []
    checked = 0
    for source in typo_sources():
        expected = full_outcome(compile, source)
        if expected == ("ok",):
            continue
        checked += 1
        got = full_outcome(tagstr_runtime.compile, source)
        if got != expected:
            differ.append((source, expected, got))
    assert checked > 1000
    assert differ == []


# (issue 11 item 3) broken code before a malformed tag string: CPython's error there,
# the one the same source with a well-formed tag string gets.
EARLIER = {
    "def": "def f(:\n    pass\n",
    "missing-comma": "x = (1 2)\n",
    "if-colon": "if x\n    pass\n",
    "same-line": "print(1 2, ",
    "indent": "x = 1\n    y = 2\n",
    "in-a-tag-string": 'y = html"{a b}"\n',
    "non-ascii": 'é = "日本" +\n',
}
MALFORMED = {
    "brace": 'z = html"{"\n',
    "conversion": 'z = html"{a!x}"\n',
    "single-close": 'z = html"a}"\n',
    "unterminated": 'z = html"abc\n',
    "unterminated-triple": 'z = html"""abc\n',
    "keyword": 'z = None"x"\n',
    "dotted": 'z = a.html"x"\n',
    "concatenation": 'z = html"a" "b"\n',
    "nested": 'z = html"{sql"{a!x}"}"\n',
    "non-ascii": 'z = 日本"{"\n',
}


@pytest.mark.parametrize("earlier", EARLIER.values(), ids=EARLIER.keys())
def test_the_first_error_in_source_order_is_reported(earlier: str) -> None:
    for malformed in MALFORMED.values():
        # the earlier error, as the same source with a well-formed tag string has it
        source = f"{earlier}\n\n{malformed}w = 2\n"
        twin = f"{earlier}\n\nz = html'{{a}}'\nw = 2\n"
        expected = full_outcome(tagstr_runtime.compile, twin)
        assert expected[0] in ("SyntaxError", "IndentationError", "TagSyntaxError")
        assert full_outcome(tagstr_runtime.compile, source) == expected, malformed
        # the other way round, the tag string's, also after a well-formed one
        alone = full_outcome(tagstr_runtime.compile, malformed)
        assert alone[0] == "TagSyntaxError"
        after = full_outcome(tagstr_runtime.compile, f"{malformed}w = 2\n{earlier}")
        assert (after[0], *after[2:6]) == (alone[0], *alone[2:6])  # "(detected at line N)" may differ
        before = full_outcome(tagstr_runtime.compile, f'q = html"{{a}}"\n{malformed}{earlier}')
        assert (before[0], before[3], before[2]) == (alone[0], alone[3], 2)


# Unterminated tag strings: "(detected at line N)" as CPython says for the f-string twin.
UNTERMINATED = [
    'x = {}"""abc\n',
    'x = {}"""abc\n\n',
    'x = {}"""abc\n\n\n',
    'x = {}"""abc',
    'x = {}"""a\n\nb\n  ',
    'x = {}"abc\n',
    'x = {}"abc',
    'x = ({}"abc\n\n)\n',
]


def test_detected_at_line_as_for_the_fstring() -> None:
    for form in UNTERMINATED:
        tag = full_outcome(tagstr_runtime.compile, form.format("html"))
        fstring = full_outcome(compile, form.format("f"))
        detected = fstring[1].rpartition("(")[2]  # type: ignore[union-attr]
        assert detected.startswith("detected at line")
        assert tag[1].endswith(f"({detected}"), form  # type: ignore[union-attr]
        assert tag[2] == fstring[2]
