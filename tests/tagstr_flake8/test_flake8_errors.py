"""E999: malformed tag strings are syntax errors at their exact position; flake8 never crashes.

Every SPEC 5 kind of error, from the table the runtime and mypy tests share
(``tests/spec_errors.py``; columns written out by hand, 1-based characters, the
unit flake8 uses for E999): the column flake8 prints and the ``--show-source``
caret point at the offending character itself.  CPython's
own errors elsewhere keep exactly the position stock flake8 gives them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from flake8_harness import EXAMPLES, flake8
from spec_errors import SPEC_ERRORS

pytestmark = pytest.mark.subprocess

# (id, source, row, col, message): the SPEC error table shared with the runtime and mypy tests
ERRORS = [(case.id, case.source, case.line, case.offset, case.message) for case in SPEC_ERRORS]


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, int, str]]:
    folder = tmp_path_factory.mktemp("errors")
    for name, source, *_ in ERRORS:
        # prefixed: "keyword.py" in the working directory would shadow the stdlib module
        (folder / f"err_{name}.py").write_text(source, encoding="utf-8")
    run = flake8(["--select=E999", *(f"err_{name}.py" for name, *_ in ERRORS)], cwd=folder)
    return {Path(h.path).stem.removeprefix("err_"): (h.row, h.col, h.text) for h in run.hits}


@pytest.mark.parametrize(("name", "source", "row", "col", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_e999_position(reported: dict[str, tuple[int, int, str]], name: str, source: str, row: int,
                       col: int, message: str) -> None:
    got_row, got_col, text = reported[name]
    assert (got_row, got_col) == (row, col), text
    assert text.startswith("SyntaxError: " + message)


def test_show_source_caret(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('é = 1\ny = (tag"{a!x}", 2)\nz = h"{undefined}"\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('h = str\nz = h"{h} {undefined}"\n', encoding="utf-8")
    run = flake8(["--show-source", "--select=E999,F821", "a.py", "b.py"], cwd=tmp_path)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("a.py|2|13|E999")
    assert lines[1] == 'y = (tag"{a!x}", 2)'
    assert lines[2] == " " * 12 + "^"  # under the 'x'
    assert lines[3].startswith("b.py|2|12|F821")
    assert lines[4] == 'z = h"{h} {undefined}"'
    assert lines[5] == " " * 11 + "^"  # under the "u"
    assert len(lines) == 6


def test_standard_errors_untouched(tmp_path: Path) -> None:
    """A file without tag strings gets CPython's error where stock flake8 puts it (offset + 1)."""
    sources = {"plain": "x = (1,\n", "paren": "def f(:\n    pass\n", "nonascii": "é = 1 +\n"}
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    run = flake8([f"{n}.py" for n in sources], cwd=tmp_path)
    got = {Path(h.path).stem: (h.row, h.col, h.text) for h in run.hits}
    for name, source in sources.items():
        try:
            ast.parse(source)
        except SyntaxError as exc:
            assert got[name] == (exc.lineno, (exc.offset or 0) + 1, f"SyntaxError: {exc.msg}")


def test_standard_error_in_file_with_tag_strings(tmp_path: Path) -> None:
    """CPython's error elsewhere in a file that has tag strings: its own message and position."""
    (tmp_path / "a.py").write_text('x = tag"{a}"\ny = (1,\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('x = 1\ny = (1,\n', encoding="utf-8")
    run = flake8(["a.py", "b.py"], cwd=tmp_path)
    got = {Path(h.path).stem: (h.row, h.col, h.code, h.text) for h in run.hits}
    assert got["a"] == got["b"]
    assert got["a"][2] == "E999"


def _truncations(text: str, step: int) -> list[str]:
    return [text[:i] for i in range(0, len(text), step)]


@pytest.mark.slow  # flake8 on hundreds of truncated files
def test_never_crashes_on_broken_input(tmp_path: Path) -> None:
    """Every prefix of the examples (unterminated strings, half fields, cut keywords...)."""
    count = 0
    for path in sorted(EXAMPLES.glob("*.py")):
        for text in _truncations(path.read_text(encoding="utf-8"), 7):
            (tmp_path / f"cut{count}.py").write_text(text, encoding="utf-8")
            count += 1
    run = flake8(["--extend-select=TAG", "--jobs=2", "."], cwd=tmp_path)
    assert run.returncode in (0, 1)
    assert not [h for h in run.hits if h.code == "E902"]


def test_stdlib_sample_reports_no_tag_codes() -> None:
    """Real code without tag strings: the plugin reports nothing and changes nothing."""
    import json
    import email

    folders = [str(Path(json.__file__).parent), str(Path(email.__file__).parent / "mime")]
    run = flake8(["--extend-select=TAG", "--select=TAG,E999", *folders])
    assert run.hits == []
