"""``python -m tagstr_runtime --ruff-check``: ruff check on files with tag strings.

The reference is the plain ``ruff check`` on the file's f-string twin
(``tools_harness.twin``): same codes at the same lines and columns.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tagstr_runtime.frontend import TagString, parse
from fstring_tags import converted, package_files
from tools_harness import (
    EXAMPLES, RUFF, config, plain_ruff_check, refused_sources, run, runtime_error, twin, wrapper, write,
)

pytestmark = [pytest.mark.subprocess, pytest.mark.skipif(RUFF is None, reason="ruff is not installed (group 'tools')")]

SELECT = ("--select", "F,E,W")
# Every kind of place a name can sit in a tag string; each undefined name and each
# unused binding is reported at its own line and column.
DIFFERENTIAL = '''\
import os
import sys
import json
from tg import h, t
from typing import List


def greet(name, width):
    unused_local = 1
    return h"Hello {name:>{width}} from {sys.platform} and {undefined_one}"


def page(items):
    return h"""<ul>
  {[h'<li>{item} {undefined_two}</li>' for item in items]}
</ul>"""


def café(name):
    return h"naïve café {undefined_three} {name}"


very_long = h"this line is far too long for the configured line length of eighty-eight {os.sep}"
value = t"{json.dumps(1)}"
x = h"{ undefined_four }"   \n'''


Found = set[tuple[str, int, int]]


def _codes(diagnostics: list[dict[str, Any]]) -> Found:
    return {(d["code"], d["location"]["row"], d["location"]["column"]) for d in diagnostics}


def _check(folder: Path, name: str, *options: str) -> tuple[Found, Found]:
    """(the wrapper's reports on ``name``, plain ruff's on its twin).

    Two reports on the twin are the twin's own: an f-string without fields
    (F541), and the import of a tag, which the twin does not use (F401).
    """
    text = (folder / name).read_text(encoding="utf-8")
    twin_file = write(folder / "twin" / name, twin(text))
    shutil.copy(folder / "pyproject.toml", twin_file.parent)
    proc = wrapper("--ruff-check", "--output-format", "json", *options, name, cwd=folder)
    assert proc.returncode in (0, 1), proc.stderr
    tags = {tag.tag for outer in parse(text).tag_strings for tag in outer.walk()}
    theirs = [
        d for d in plain_ruff_check(twin_file, *options)
        if d["code"] != "F541" and not (d["code"] == "F401" and d["message"].split("`")[1].split(".")[-1] in tags)
    ]
    return _codes(json.loads(proc.stdout)), _codes(theirs)


def test_reports_like_the_fstring_twin(tmp_path: Path) -> None:
    config(tmp_path)
    write(tmp_path / "mod.py", DIFFERENTIAL)
    ours, theirs = _check(tmp_path, "mod.py", *SELECT)
    assert ours == theirs
    # only typing.List is unused: os, sys, json are read by interpolations only, h and t as tags
    assert {c for c in ours if c[0] == "F401"} == {("F401", 5, 20)}
    assert {c for c in ours if c[0] == "F821"} == {
        ("F821", 10, 61), ("F821", 15, 19), ("F821", 20, 26), ("F821", 25, 9),
    }
    assert ("F841", 9, 5) in ours and ("E501", 23, 89) in ours and ("W291", 25, 26) in ours


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_examples_like_their_twins(tmp_path: Path, example: str) -> None:
    config(tmp_path, line_length=100)
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    try:
        compile(twin(text), example, "exec")
    except SyntaxError:  # pragma: no cover - every example has a twin today
        pytest.skip("the f-string twin is not valid Python here")
    write(tmp_path / example, text)
    ours, theirs = _check(tmp_path, example, *SELECT)
    assert ours == theirs


def _on_user_text(tag: TagString, at: int) -> bool:
    if tag.tag_span.start <= at < tag.tag_span.end:
        return True
    for field in tag.fields():
        if field.expr_span.start <= at < field.expr_span.end:
            inner = [i for i in field.nested if i.span.start <= at < i.span.end]
            return _on_user_text(inner[0], at) if inner else True
    return False


def test_no_report_on_the_placeholder_syntax(tmp_path: Path) -> None:
    """With every rule on, what lands inside a tag string is on a tag or an expression."""
    config(tmp_path)
    for example in EXAMPLES.glob("*.py"):
        shutil.copy(example, tmp_path)
    write(tmp_path / "mod.py", DIFFERENTIAL + 'y = h"{True} {x} {   y   }"   # trailing commas, a boolean\n')
    proc = wrapper("--ruff-check", "--output-format", "json", "--select", "ALL", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    reports = json.loads(proc.stdout)
    assert len(reports) > 100
    inside = 0
    for report in reports:
        path = Path(report["filename"])
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        row, column = report["location"]["row"], report["location"]["column"]
        at = sum(len(line) for line in lines[: row - 1]) + column - 1
        for tag in parse(text).tag_strings:
            if tag.span.start <= at < tag.span.end and report["code"] not in ("E501", "W291"):
                inside += 1
                assert _on_user_text(tag, at), report
    assert inside > 5  # F821, ANN..., names in interpolations


def test_syntax_errors(tmp_path: Path) -> None:
    config(tmp_path)
    write(tmp_path / "bad.py", 'x = h"{a"\ny = h"{a +}"\n')
    write(tmp_path / "worse.py", 'z = h"{a +}"\n')
    proc = wrapper("--ruff-check", "bad.py", "worse.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "bad.py:1:9: invalid-syntax: tag string: expecting '}'"
    # the runtime's error, as on every version (3.12+ words a field's grammar error itself)
    error = runtime_error('z = h"{a +}"\n', "worse.py")
    assert lines[1] == f"worse.py:{error.lineno}:{error.offset}: invalid-syntax: {error.msg}"


# -- --fix -------------------------------------------------------------------------

FIXABLE = '''\
import os
import re
from tg import h, t


def tag(*args):
    return args


if re:
    import json
    import csv
x = tag"{os.sep}" + h"{1}" + t"{2}"
'''


def test_fix_removes_unused_imports_never_a_tag(tmp_path: Path) -> None:
    config(tmp_path)
    path = write(tmp_path / "mod.py", FIXABLE)
    proc = wrapper("--ruff-check", "--select", "F", "--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Found 2 errors (2 fixed, 0 remaining)." in proc.stdout
    # os, h and t are read by tag strings; two deletions emptying one block take two passes
    assert path.read_text(encoding="utf-8") == FIXABLE.replace("    import json\n    import csv\n", "    pass\n")


def test_fix_like_ruff_on_the_twin(tmp_path: Path) -> None:
    """Where no fix touches a tag string, the fixed file is ruff's fixed twin."""
    config(tmp_path)
    text = FIXABLE.replace(' + h"{1}" + t"{2}"', "").replace("import os\n", "import os\nimport sys\n")
    path = write(tmp_path / "mod.py", text)
    twin_file = write(tmp_path / "twin" / "mod.py", twin(text))
    shutil.copy(tmp_path / "pyproject.toml", twin_file.parent)
    proc = wrapper("--ruff-check", "--fix", "--select", "F,I", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plain = run(str(RUFF), "check", "--fix", "--select", "F,I", "mod.py", cwd=twin_file.parent)
    assert plain.returncode == 0, plain.stdout
    assert twin(path.read_text(encoding="utf-8")) == twin_file.read_text(encoding="utf-8") != twin(text)


def test_fix_never_edits_a_tag_string(tmp_path: Path) -> None:
    config(tmp_path)
    text = "from tg import h\n\nx = h\"{str('a')} {[1] + [h'{b}']}\"\ny = str(\"b\")\nz = [1] + [h\"{c}\"]\n"
    path = write(tmp_path / "mod.py", text)
    proc = wrapper("--ruff-check", "--fix", "--unsafe-fixes", "--select", "UP018,RUF005", "mod.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert path.read_text(encoding="utf-8") == text.replace('str("b")', '"b"')
    assert proc.stdout.splitlines() == [
        "mod.py:3:8: UP018 Unnecessary `str` call (rewrite as a literal)",
        # a message that quotes code quotes what ruff saw: a tag string as a call
        "mod.py:3:19: RUF005 Consider `[1, h(b)]` instead of concatenation",
        "mod.py:5:5: RUF005 Consider `[1, h(c)]` instead of concatenation",
        "Found 4 errors (1 fixed, 3 remaining).",
        "3 fixes not applied: they would edit a tag string.",
    ]


def test_check_without_fix_marks_only_fixes_it_would_apply(tmp_path: Path) -> None:
    config(tmp_path)
    write(tmp_path / "mod.py", "from tg import h\n\nx = h\"{str('a')}\"\ny = str(\"b\")\n")
    proc = wrapper("--ruff-check", "--select", "UP018", "mod.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        "mod.py:3:8: UP018 Unnecessary `str` call (rewrite as a literal)",
        "mod.py:4:5: UP018 [*] Unnecessary `str` call (rewrite as a literal)",
        "Found 2 errors.",
        "[*] 1 fixable with the `--fix` option.",  # and nothing about fixes not applied: none was asked
    ]


def test_file_without_tag_strings_is_ruffs_own(tmp_path: Path) -> None:
    config(tmp_path)
    text = "import os\nimport re\nprint(re)\nx = undefined\n"
    ours = write(tmp_path / "ours.py", text)
    theirs = write(tmp_path / "theirs.py", text)
    proc = wrapper("--ruff-check", "--fix", "ours.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == "ours.py:4:5: F821 Undefined name `undefined`"
    run(str(RUFF), "check", "--fix", "theirs.py", cwd=tmp_path)
    assert ours.read_text(encoding="utf-8") == theirs.read_text(encoding="utf-8") != text


def test_excluded_files_are_skipped(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.ruff]\nextend-exclude = ["skipped_*.py"]\n')
    write(tmp_path / "skipped_1.py", 'import os\nx = h"{y}"\n')
    write(tmp_path / "skipped_2.py", "import os\n")
    proc = wrapper("--ruff-check", "skipped_1.py", "skipped_2.py", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "All checks passed!\n", proc.stdout + proc.stderr


def test_ruff_errors_are_reported(tmp_path: Path) -> None:
    write(tmp_path / "mod.py", 'x = h"{y}"\n')
    proc = wrapper("--ruff-check", "--config", "no-such-file.toml", "mod.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")


def test_configuration_of_a_parent_folder_from_a_sub_folder(tmp_path: Path) -> None:
    """Run from a sub-folder on a relative path, ruff's configuration is found as plain
    ``ruff check m.py`` finds it there: the parent folder's ``line-length = 40``."""
    config(tmp_path, line_length=40)
    text = 'from tg import h\n\nx = h"{a}"\nyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy = 1234567\n'
    write(tmp_path / "sub" / "m.py", text)
    write(tmp_path / "twin" / "sub" / "m.py", twin(text))
    shutil.copy(tmp_path / "pyproject.toml", tmp_path / "twin")
    proc = wrapper("--ruff-check", "--select", "E501", "m.py", cwd=tmp_path / "sub")
    plain = run(str(RUFF), "check", "--select", "E501", "--output-format", "concise", "m.py",
                cwd=tmp_path / "twin" / "sub")
    assert proc.stdout.splitlines()[0] == "m.py:4:41: E501 Line too long (47 > 40)"
    assert proc.stdout == plain.stdout and proc.returncode == plain.returncode == 1, proc.stdout + plain.stdout


def test_what_the_runtime_refuses_is_reported_as_the_runtime_reports_it(tmp_path: Path) -> None:
    """A malformed field (``{a b}``, ``\\N{EM DASH}``) or one a lambda cannot hold (``{yield}``,
    an asynchronous comprehension) is the runtime's one error, not ruff's on the placeholder."""
    config(tmp_path)
    expected = {}
    for index, source in enumerate(refused_sources()):
        name = f"err_{index}.py"
        write(tmp_path / name, source)
        exc = runtime_error(source, name)
        expected[name] = [("invalid-syntax", exc.msg, exc.lineno, exc.offset)]
    proc = wrapper("--ruff-check", "--output-format", "json", *expected, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    got: dict[str, list[tuple[Any, ...]]] = {name: [] for name in expected}
    for d in json.loads(proc.stdout):
        got[Path(d["filename"]).name].append((d["code"], d["message"], d["location"]["row"], d["location"]["column"]))
    assert got == expected


# Different tag strings that a placeholder alone would show ruff as the same call, and
# tag strings that are truly the same (their twins get the reports too).
IDENTICAL = '''\
from tg import url


def pick(a, n):
    if a:
        x = url"<{n}>"
    elif n:
        x = url"{n}()"
    else:
        x = None
    return x, url"<{n}>" if a else url"{n}()", url"<{n}>" if a else url"<{n}>"


def up(n):
    return lambda p: url"\\x1b[{p}A", lambda q: url"{q}", lambda r: url"{r!r}"
'''


def test_different_tag_strings_are_different_to_ruff(tmp_path: Path) -> None:
    """SIM114, RUF034, PLW0108 as on the f-string twin: where two tag strings differ,
    ruff is not told they are one call, and no tag string is a lambda's parameter
    merely passed on."""
    config(tmp_path)
    write(tmp_path / "mod.py", IDENTICAL)
    ours, theirs = _check(tmp_path, "mod.py", "--select", "SIM114,RUF034,PLW0108")
    assert ours == theirs
    assert ours == {("RUF034", 11, 48)}  # the truly identical branches


# Real code whose tag strings a placeholder alone showed ruff as identical calls (SIM114 in
# httpx, RUF034 in rich); the rule families that compare or judge expressions.
REAL_FILES = ["httpx/_utils.py", "rich/text.py"]
REAL_SELECT = "SIM,RUF,PL,B,F,E,W,C4,PERF,FURB"


@pytest.mark.parametrize("relative", REAL_FILES)
def test_real_code_like_the_originals(tmp_path: Path, relative: str) -> None:
    """The f-strings of a real module turned into ``h`` tag strings: the original is the
    twin, and the wrapper's reports are plain ruff's on it (but the undefined tag ``h``)."""
    package, _, name = relative.partition("/")
    pytest.importorskip(package, reason=f"{package} is not installed (dependency group 'tests')")
    original = next(p for p in package_files(package) if p.name == name and p.parent.name == package)
    text = original.read_text(encoding="utf-8")
    tagged, count = converted(text)
    assert count > 5 and twin(tagged) == text
    config(tmp_path)
    write(tmp_path / "mod.py", tagged)
    ours, theirs = _check(tmp_path, "mod.py", "--select", REAL_SELECT)
    tags = {(t.span.start, t.tag) for t in parse(tagged).tag_strings}
    assert len(tags) == count
    undefined_tag = {d for d in ours if d[0] == "F821"} - theirs  # the tag h: the twin has no h
    assert len(undefined_tag) == count
    assert ours - undefined_tag == theirs and theirs
