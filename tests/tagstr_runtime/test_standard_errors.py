"""A source whose only failure is not a tag string gets CPython's own error.

Differential: ``tagstr_runtime.compile`` against the builtin ``compile`` on the
running Python, for broken standard code alone and beside a tag string on
another line (its twin has a plain call there): same exception type, message,
line and column.  SPEC 1.8 and "never worse than the stock tool".
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import tagstr_runtime

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
