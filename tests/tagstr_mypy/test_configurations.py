"""Configurations real projects use: each gives what stock mypy gives the same file.

Differential where it can be: the file with a line that mypy reports without
stopping (an invalid ``# type: ignore[``) must give exactly the errors of the
file without that line, plus that line's own error; a whole-file
``# type: ignore`` must silence a tag-string file as it silences any other.
Both mypy parsers.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import TAGS, Diagnostic, diagnostics, run_mypy, write_config

pytestmark = pytest.mark.subprocess

PARSERS = pytest.mark.parametrize("parser", ["--native-parser", "--no-native-parser"])


BODY = textwrap.dedent('''\
    from tags import html, shout

    name = "x"
    greeting = html"Hello {name}"
    bad = shout"hello"
    wrong: int = html"{name}"
''')


def check(folder: Path, source: str, parser: str, *extra: str) -> list[Diagnostic]:
    (folder / "tags.py").write_text(TAGS, encoding="utf-8")
    (folder / "app.py").write_text(source, encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", parser, *extra, "app.py", cwd=folder)
    return diagnostics(proc)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_config(tmp_path)
    return tmp_path


@PARSERS
def test_a_non_blocking_error_keeps_the_tag_strings(folder: Path, parser: str) -> None:
    without = check(folder, BODY, parser)
    assert [d.message.rsplit("[", 1)[1] for d in without if d.severity == "error"] == [
        "tagstr-signature]", "assignment]"
    ]
    broken = check(folder, BODY + "x = 1  # type: ignore[\n", parser)
    extra = [d for d in broken if d not in without]
    assert [d for d in broken if d in without] == without
    assert len(extra) == 1 and extra[0].line == 7 and "type: ignore" in extra[0].message


@PARSERS
def test_a_whole_file_ignore_silences_the_file(folder: Path, parser: str) -> None:
    plain_error = 'plain: int = "s"\n'
    assert check(folder, "# type: ignore\n" + BODY + plain_error, parser, "--warn-unused-ignores") == []
    # not whole-file once a statement comes first (stock mypy's rule): the errors stay
    docstring_first = check(folder, '"""Doc."""\n# type: ignore\n' + BODY, parser)
    assert [(d.line, d.message.rsplit("[", 1)[1]) for d in docstring_first if d.severity == "error"] == [
        (7, "tagstr-signature]"), (8, "assignment]")
    ]


def test_an_aborted_build_leaves_no_tree_for_the_next(folder: Path) -> None:
    """mypy.api.run twice in one process (as editor hosts run it): the first build stops
    at another file's syntax error before the tag-string file's tree is swapped in; the
    second, after the file lost its tag strings, must check the file as it is now."""
    (folder / "tags.py").write_text(TAGS, encoding="utf-8")
    script = textwrap.dedent('''\
        from mypy import api
        open("a.py", "w").write('from tags import shout\\nbad = shout"hello"\\n')
        open("b.py", "w").write("x = (\\n")
        first = api.run(["--no-incremental", "--native-parser", "a.py", "b.py"])[0]
        open("a.py", "w").write('from tags import shout\\nok = shout("hello")\\nreveal_type(ok)\\n')
        open("b.py", "w").write("x = 1\\n")
        second = api.run(["--no-incremental", "--native-parser", "a.py", "b.py"])[0]
        print(first + "=====\\n" + second)
    ''')
    proc = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=300)
    first, _, second = proc.stdout.partition("=====\n")
    assert "b.py:2: error" in first, proc.stdout + proc.stderr
    assert second.strip().splitlines() == [
        'a.py:3: note: Revealed type is "str"', "Success: no issues found in 2 source files"
    ]


UNTYPED = textwrap.dedent('''\
    def untyped(*args):
        return ""


    def typed() -> None:
        a = untyped"x {1}"
        b = untyped("x", 1)


    def not_checked():
        c = untyped"x {1}"
''')


@PARSERS
@pytest.mark.parametrize("extra", [[], ["--untyped-calls-exclude", "app"]], ids=["judged", "excluded"])
def test_flags_that_judge_the_call_judge_the_tag_string(folder: Path, parser: str, extra: list[str]) -> None:
    """``--disallow-untyped-calls``: the tag string (line 6) gets what its call form (line 7) gets."""
    found = check(folder, UNTYPED, parser, "--disallow-untyped-calls", *extra)
    by_line = {d.line: (d.column, d.message) for d in found}
    assert set(by_line) <= {6, 7} and by_line.get(6) == by_line.get(7)
    assert (7 in by_line) == (not extra)


OPTIONAL_DEFAULT = textwrap.dedent('''\
    from tags import html


    def show(x: int = None) -> str:
        return html"{x}"
''')


@PARSERS
@pytest.mark.parametrize("where", ["inline", "section"])
def test_per_module_and_inline_options_apply(tmp_path: Path, parser: str, where: str) -> None:
    """``# mypy:`` lines and ``[mypy-module]`` sections reach a tag-string file as any other:
    the tag-string module gets what its f-string twin gets."""
    inline = "# mypy: implicit-optional\n" if where == "inline" else ""
    write_config(tmp_path, "[mypy-app]\nimplicit_optional = True\n" if where == "section" else "")
    tagged = check(tmp_path, inline + OPTIONAL_DEFAULT, parser)
    twin = check(tmp_path, inline + OPTIONAL_DEFAULT.replace('html"', 'f"'), parser)
    assert twin == [] and tagged == twin


@PARSERS
def test_the_notes_of_a_rejected_tag_go_with_its_error(folder: Path, parser: str) -> None:
    """The reasons are notes of the ``tagstr-signature`` error: printed right after it, and
    gone with it when its code is disabled."""
    check(folder, BODY, parser)  # writes the files
    lines = run_mypy("--no-incremental", parser, "app.py", cwd=folder).stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "[tagstr-signature]" in line)
    assert lines[at + 1 : at + 3] == [
        'app.py:5: note: This tag string\'s call fits, but shout"" would call shout(), which fails:',
        'app.py:5: note:     Too few arguments for "shout"',
    ]
    disabled = check(folder, BODY, parser, "--disable-error-code", "tagstr-signature")
    assert [d.line for d in disabled] == [6]


STUB = textwrap.dedent('''\
    from tags import html

    N: int
    X = html"<p>{N}</p>"
    Y = f"<p>{N}</p>"
    Z = html"<p>{N.nope}</p>"
    W = f"<p>{N.nope}</p>"
    def page(title: str = html"{N}") -> None: ...
''')


@PARSERS
def test_a_stub_may_hold_tag_strings(tmp_path: Path, parser: str) -> None:
    """Issue 38: a ``.pyi`` with tag strings is read on both parsers; its tag strings are
    checked as its f-strings are (``Z`` and its twin ``W``)."""
    write_config(tmp_path)
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    (tmp_path / "lib.pyi").write_text(STUB, encoding="utf-8")
    (tmp_path / "use.py").write_text("from lib import X, Y\nreveal_type(X)\nreveal_type(Y)\n", encoding="utf-8")
    found = diagnostics(run_mypy("--output", "json", "--no-incremental", parser, "use.py", "lib.pyi", cwd=tmp_path))
    assert [(d.file, d.line, d.message) for d in found] == [
        ("lib.pyi", 6, '"int" has no attribute "nope"  [attr-defined]'),
        ("lib.pyi", 7, '"int" has no attribute "nope"  [attr-defined]'),
        ("use.py", 2, 'Revealed type is "str"'),
        ("use.py", 3, 'Revealed type is "str"'),
    ]


@pytest.mark.parametrize("codes", [
    ["--enable-error-code", "truthy-bool,redundant-expr"],  # mypy's config-file spelling, on the command line
    ["--enable-error-code", "no-such-code"],
    ["--disable-error-code", "no-such-code", "--disable-error-code", "truthy-bool"],
])
@pytest.mark.parametrize("source", ["x: int = 1\n", BODY], ids=["plain", "tag-strings"])
def test_error_codes_get_mypy_s_own_answer(tmp_path: Path, codes: list[str], source: str) -> None:
    """Issue 38: an error code mypy does not know is mypy's to report, as it reports it
    without the plugin, whatever the file: never a crash of the plugin's."""
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(source, encoding="utf-8")
    answers = []
    for config in ("[mypy]\nplugins = tagstr_mypy\n", "[mypy]\n"):
        (tmp_path / "mypy.ini").write_text(config, encoding="utf-8")
        proc = run_mypy("--no-incremental", *codes, "app.py", cwd=tmp_path)
        assert "INTERNAL ERROR" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
        answers.append((proc.returncode, proc.stdout, proc.stderr))
    assert answers[0] == answers[1]
    assert "Invalid error code(s)" in answers[0][1] + answers[0][2]


def test_unknown_codes_in_the_configuration_get_mypy_s_own_answer(tmp_path: Path) -> None:
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(BODY, encoding="utf-8")
    answers = []
    for plugin in ("plugins = tagstr_mypy\n", ""):
        config = f"[mypy]\n{plugin}disable_error_code = no-such-code, truthy-bool\n"
        (tmp_path / "mypy.ini").write_text(config, encoding="utf-8")
        proc = run_mypy("--no-incremental", "app.py", cwd=tmp_path)
        answers.append((proc.returncode, proc.stdout, proc.stderr))
    assert answers[0] == answers[1]
    assert "Invalid error code(s): no-such-code" in answers[0][1] + answers[0][2]


OUTSIDE = textwrap.dedent('''\
    from typing import Any
    from tags import html as h

    def rows(items: list[Any]) -> list[object]:
        total = sum(
            item.size for item in items
            if item
        )
        keys = sorted(items, key=lambda item: item.name)
        return [h"<p>{total}</p>", keys, (x for x in items), {k: v for k, v in zip(items, items)}]
''')


@PARSERS
def test_columns_outside_tag_strings_are_mypy_s_own(tmp_path: Path, parser: str) -> None:
    """Issue 38: a file with a tag string gets, outside it, exactly the diagnostics stock mypy
    gives the file with an f-string there, of the same width (generator expressions and
    lambdas included, whose columns the native parser and mypy's stdlib-ast converter place
    differently)."""
    write_config(tmp_path)
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    sides = {"tagged.py": OUTSIDE, "twin.py": OUTSIDE.replace('h"', 'f"')}
    for name, text in sides.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", "--disallow-any-expr", parser, *sides, cwd=tmp_path)
    found = diagnostics(proc)
    tagged = [(d.line, d.column, d.message) for d in found if d.file == "tagged.py"]
    twin = [(d.line, d.column, d.message) for d in found if d.file == "twin.py"]
    assert len(tagged) > 5
    assert tagged == twin
