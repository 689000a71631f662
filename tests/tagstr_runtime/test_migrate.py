"""``python -m tagstr_runtime.migrate``: tag strings rewritten as 3.14 t-strings.

Tables: sources left alone, sources changed (exact output), and one source per
reason to keep a tag string (each ``MIG`` code alone).  Then the command line,
and the examples: on 3.14 (the pyodide env) every example prints the same
after the migration, run natively as t-strings; before 3.14 the migrated
examples run with a stand-in ``t`` tag that builds the same templates.
"""

from __future__ import annotations

import io
import sys
import types
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import template_tag
from tagstr_runtime._migrate_sites import Options, migrate_text
from tagstr_runtime.migrate import main, migrate_source

PY314 = sys.version_info >= (3, 14)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PRELUDE = """\
from tagstr_runtime import accepts_template

@accepts_template
def tag(*args):
    return [a for a in args]

"""


def migrated(body: str, **options: frozenset[str]) -> str:
    result = migrate_text(PRELUDE + body, "<test>", Options(**options))
    assert result.text.startswith(PRELUDE)
    return result.text[len(PRELUDE):]


LEFT_ALONE = [
    pytest.param("x = 1\n", id="no tag string"),
    pytest.param('x = f"{y!r}" "s" rb"b"\n', id="f-string and other literals"),
    pytest.param('x = tag(t"{y}")\n', id="already migrated"),
    pytest.param('x = tag(rt"\\d{y}")\n', id="already migrated, raw"),
    pytest.param('x = [t"{a}", tr"{b}"]\n', id="t-strings"),
    pytest.param('if"a" in"abc": pass\n', id="keyword before a string"),
]


@pytest.mark.parametrize("source", LEFT_ALONE)
def test_left_alone(source: str) -> None:
    result = migrate_text(PRELUDE + source, "<test>")
    assert result.text == PRELUDE + source and result.migrated == 0 and not result.flags


CHANGED = [
    pytest.param('x = tag"<p>{y}</p>"\n', 'x = tag(t"<p>{y}</p>")\n', id="simple"),
    pytest.param("x = tag''\n", "x = tag(t'')\n", id="empty, single quotes"),
    pytest.param('x = tag"""a\n{y!r:>{w}}\n"""\n', 'x = tag(t"""a\n{y!r:>{w}}\n""")\n', id="triple-quoted"),
    pytest.param('x = tag"{y=}{ y = :>3}"\n', 'x = tag(t"{y=}{ y = :>3}")\n', id="debug fields"),
    pytest.param('x = tag"{d["k"]}"\n', 'x = tag(t"{d["k"]}")\n', id="quote reuse"),
    pytest.param('x = tag"{{y}} \\n caf\\u00e9"\n', 'x = tag(t"{{y}} \\n caf\\u00e9")\n', id="escapes kept"),
    pytest.param('x = tag"\\N{{BULLET}} {y}"\n', 'x = tag(t"\\N{BULLET} {y}")\n', id="named character"),
    pytest.param('x = tag"\\\\N{{y}}"\n', 'x = tag(t"\\\\N{{y}}")\n', id="escaped backslash before N"),
    pytest.param('x = tag"<div>{tag\'<i>{y}</i>\'}</div>"\n', 'x = tag(t"<div>{tag(t\'<i>{y}</i>\')}</div>")\n',
                 id="nested"),
    pytest.param('x = f"{tag"{y}"!r}"\n', 'x = f"{tag(t"{y}")!r}"\n', id="inside an f-string field"),
    pytest.param('x = tag"{y:{tag"{w}"}}"\n', 'x = tag(t"{y:{tag(t"{w}")}}")\n', id="inside a format spec"),
    pytest.param('x = tag"\\d{y}"  # é\n', 'x = tag(t"\\d{y}")  # é\n', id="non-ASCII after"),
    pytest.param('class C:\n    a = 1\n    x = tag"{b}"\n', 'class C:\n    a = 1\n    x = tag(t"{b}")\n',
                 id="class body, other names"),
    pytest.param('x = tag"{y:{w}}{f(y)}"\n', 'x = tag(t"{y:{w}}{f(y)}")\n', id="nested spec, call outside it"),
]


@pytest.mark.parametrize(("before", "after"), CHANGED)
def test_changed(before: str, after: str) -> None:
    assert migrated(before) == after
    assert migrated(after) == after  # idempotent


def test_raw_tags_keep_the_source_text() -> None:
    assert migrated('x = tag"\\d+{y}\\N{{BULLET}}"\n', raw_tags=frozenset(["tag"])) == (
        'x = tag(rt"\\d+{y}\\N{{BULLET}}")\n'
    )
    assert migrated('x = tag"plain{y}"\n', raw_tags=frozenset(["tag"])) == 'x = tag(t"plain{y}")\n'


def test_only_tag_strings_change_byte_for_byte() -> None:
    source = (
        "\ufeff# -*- coding: utf-8 -*-\r\n"
        "from tagstr_runtime import accepts_template\r\n"
        "@accepts_template\r\n"
        "def tag(*args):\treturn list(args)\r\n"
        "x  =  ( tag'{ é }'   ,  f'{1}' )  # tag'{no}'\r\n"
        "s = '''tag\"{no}\"'''\r\n"
    ).encode("utf-8")
    new, migration, _ = migrate_source(source, "<test>")
    assert migration.migrated == 1
    assert new == source.replace(b"tag'{ \xc3\xa9 }'", b"tag(t'{ \xc3\xa9 }')")


def test_a_latin_1_file_stays_latin_1() -> None:
    source = "# coding: latin-1\nfrom m import tag\nx = tag'é{y}'\n".encode("latin-1")
    new, _, _ = migrate_source(source, "<test>")
    assert new == "# coding: latin-1\nfrom m import tag\nx = tag(t'é{y}')\n".encode("latin-1")


# -- one reason at a time --------------------------------------------------------------

FLAGGED = [
    pytest.param("def lazy(*args):\n    return Keep(args)\n", 'x = lazy"{y}"', "MIG001", 4, id="keeps its args"),
    pytest.param("@accepts_template\ndef later(*args):\n    return lambda: [a.getvalue() for a in args]\n",
                 'x = later"{y}"', "MIG001", 4, id="a closure reads the values"),
    pytest.param("", 'x = tag"{y}"', "MIG001", 4, id="--lazy-tag"),
    pytest.param("@accepts_template\ndef rx(*args):\n    return [a.raw for a in args]\n",
                 'x = rx"\\n{y}"', "MIG002", 4, id="reads .raw, text with escapes"),
    pytest.param("", 'x = tag"\\N{y}"', "MIG003", 8, id="backslash N before a field"),
    pytest.param("class C:\n    y = 1\n", '    x = tag"{y}"', "MIG004", 13, id="class-body name"),
    pytest.param("", 'x = tag"{(y := 2)}"', "MIG005", 10, id="assignment expression"),
    pytest.param("class C(B):\n    def m(self):\n", '        return tag"{super().m()}"', "MIG006", 20,
                 id="super() without arguments"),
    pytest.param("", 'x = f"{tag"{y}"=}"', "MIG007", 7, id="in an f-string '=' field"),
    pytest.param("", 'x = tag"{tag"{y}"=}"', "MIG007", 9, id="in a tag string's '=' field"),
    pytest.param("", 'x = tag"{y:{f(w)}}"', "MIG008", 4, id="nested spec field and a call"),
    pytest.param("def plain(*args):\n    return args\n", 'x = plain"{y}"', "MIG009", 4, id="not decorated"),
    pytest.param("class Tag:\n    def __init__(self, *args):\n        pass\n", 'x = Tag"{y}"', "MIG009", 4,
                 id="a class"),
    pytest.param("", 'x = tag"{y:\\n}"', "MIG010", 11, id="backslash in a format spec"),
]


@pytest.mark.parametrize(("definitions", "line", "code", "col"), FLAGGED)
def test_each_reason_keeps_the_tag_string(definitions: str, line: str, code: str, col: int) -> None:
    source = PRELUDE + definitions + line + "\n"
    # the table's "--lazy-tag" row: a decorated tag the command line calls lazy
    options = Options(lazy_tags=frozenset(["tag"])) if code == "MIG001" and not definitions else Options()
    result = migrate_text(source, "<test>", options)
    codes = {flag.code for flag in result.flags}
    assert code in codes, result.flags
    if code not in ("MIG001", "MIG009"):  # a class is both lazy and without a template
        assert codes == {code}
    flagged = [flag for flag in result.flags if flag.code == code]
    assert flagged[0].offset == len(source) - len(line) - 1 + col  # col: 0-based, in characters
    assert flagged[0].message.startswith(code + " ")
    outer_kept = line.strip()
    assert outer_kept in result.text or code == "MIG007"


SHARED_WITH_THE_LINTER = [
    # a format spec is formatted in place, in a tag string as in a t-string: nothing to keep
    pytest.param('x = tag"{y:{(w := 3)}}"\n', set(), id="assignment expression in a spec"),
    pytest.param('class C:\n    w = 3\n    x = tag"{1:{w}}"\n', set(), id="class name in a spec"),
    pytest.param('class C(B):\n    def m(self):\n        return tag"{y:{super().w}}"\n', set(),
                 id="super() in a spec"),
    # the module's own super is no builtin (TAG011's test)
    pytest.param('def super():\n    return 1\nx = tag"{super()}"\n', set(), id="super of the module"),
    pytest.param('class C(B):\n    def m(self):\n        return tag"{super().w}"\n', {"MIG006"}, id="super()"),
    # a class body reads a name it binds further down as a global (TAG005's rule)
    pytest.param('class C:\n    x = tag"{w}"\n    w = 3\n', set(), id="class name bound later"),
    pytest.param('class C:\n    w = 3\n    x = tag"{w}"\n', {"MIG004"}, id="class name bound before"),
    pytest.param('x = tag"{(w := 3)}"\n', {"MIG005"}, id="assignment expression"),
]
_TWINS = {"MIG004": "TAG005", "MIG005": "TAG007", "MIG006": "TAG011"}


@pytest.mark.parametrize(("source", "hazards"), SHARED_WITH_THE_LINTER)
def test_hazards_are_the_linters_findings(source: str, hazards: set[str]) -> None:
    """MIG004-006 are the analysis layer's findings, reported by flake8 as TAG005, TAG007, TAG011."""
    pytest.importorskip("flake8")
    from tagstr_flake8 import source_messages

    result = migrate_text(PRELUDE + source, "<test>")
    assert {flag.code for flag in result.flags} & set(_TWINS) == hazards
    codes = {m.code for m in source_messages(PRELUDE + source)}
    assert codes & set(_TWINS.values()) == {_TWINS[code] for code in hazards}


def test_t_strings_nesting_quotes_read_before_314() -> None:
    """A module that already holds t-strings reads as the desugarer reads it (before 3.14, a
    t-string is a tag string named t to the lexer: left alone, its insides migrated)."""
    source = PRELUDE + 'x = t"{d["k"]} {tag"{y}"}"\n'
    assert migrate_text(source, "<test>").text == PRELUDE + 'x = t"{d["k"]} {tag(t"{y}")}"\n'


def test_eager_tag_overrides_the_heuristic() -> None:
    source = PRELUDE + "@accepts_template\ndef wrap(*args):\n    return tag(*args)\n" + 'x = wrap"{y}"\n'
    assert [f.code for f in migrate_text(source, "<test>").flags] == ["MIG001"]
    assert migrate_text(source, "<test>", Options(eager_tags=frozenset(["wrap"]))).text.endswith(
        'x = wrap(t"{y}")\n'
    )


def test_a_flagged_outer_tag_string_still_migrates_what_is_inside() -> None:
    source = PRELUDE + "def plain(*args):\n    return list(args)\n" + 'x = plain"{tag"{y}"}"\n'
    result = migrate_text(source, "<test>")
    assert result.text.endswith('x = plain"{tag(t"{y}")}"\n')
    assert [f.code for f in result.flags] == ["MIG009"]


def test_an_unknown_tag_is_migrated_with_a_note() -> None:
    result = migrate_text('from lib import html\nx = html"{y}"\nz = html"{w}"\n', "<test>")
    assert result.text == 'from lib import html\nx = html(t"{y}")\nz = html(t"{w}")\n'
    assert len(result.notes) == 1 and "'html' is not defined in this module" in result.notes[0].message


# -- the command line ------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(PRELUDE + 'x = tag"{y}"\n', encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text("def plain(*args):\n    return args\nx = plain\"{y}\"\n", encoding="utf-8")
    (tmp_path / "pkg" / "c.py").write_text("x = 1\n", encoding="utf-8")
    return tmp_path


def test_check_changes_nothing_and_says_so(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {p: p.read_bytes() for p in project.rglob("*.py")}
    assert main(["--check", str(project)]) == 1
    assert {p: p.read_bytes() for p in project.rglob("*.py")} == before
    out, err = capsys.readouterr()
    assert "b.py:3:5: MIG009 tag 'plain' (line 1) takes no template" in out
    assert "would migrate 1 tag string(s) in 1 file(s)" in err


def test_diff_prints_a_unified_diff(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--diff", str(project / "pkg" / "a.py")]) == 1
    out, _ = capsys.readouterr()
    assert '-x = tag"{y}"\n+x = tag(t"{y}")\n' in out and out.startswith("--- a/")


def test_in_place_then_nothing_left(project: Path) -> None:
    assert main([str(project)]) == 0
    assert (project / "pkg" / "a.py").read_text(encoding="utf-8").endswith('x = tag(t"{y}")\n')
    assert main(["--check", str(project)]) == 0


def test_a_malformed_tag_string_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.py").write_text('x = tag"{}"\n', encoding="utf-8")
    assert main([str(tmp_path)]) == 2
    assert "bad.py:1:10: error:" in capsys.readouterr().err
    assert (tmp_path / "bad.py").read_text(encoding="utf-8") == 'x = tag"{}"\n'


# -- the examples, before and after ----------------------------------------------------

EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.py") if p.stem not in ("run_all", "quickstart"))
RUNNABLE_HERE = {"sh": Path("/bin/sh").exists() and sys.platform != "emscripten"}


def run_example(code: Any, **names: Any) -> str:
    out = io.StringIO()
    module = types.ModuleType("__main__")
    module.__dict__.update(names)
    with redirect_stdout(out):
        exec(code, module.__dict__)
    return out.getvalue()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_example_prints_the_same_after_the_migration(name: str) -> None:
    if not RUNNABLE_HERE.get(name, True):
        pytest.skip("needs a POSIX shell and subprocesses")
    if name == "sql":
        pytest.importorskip("sqlite3")
    path = EXAMPLES / f"{name}.py"
    text = path.read_text(encoding="utf-8")
    migration = migrate_text(text, str(path))
    assert migrate_text(migration.text, str(path)).text == migration.text  # idempotent
    expected = run_example(tagstr_runtime.compile(text, str(path), "exec"))
    left = migration.flags
    if PY314:
        code = compile(migration.text, str(path), "exec") if not left else tagstr_runtime.compile(
            migration.text, str(path), "exec"
        )
        assert run_example(code) == expected
    else:
        # before 3.14 t"..." is a tag string: a tag that builds the template stands in
        stand_in = template_tag(lambda template: template)
        code = tagstr_runtime.compile(migration.text, str(path), "exec")
        assert run_example(code, t=stand_in) == expected


def test_the_examples_migrate_as_documented() -> None:
    """Which examples migrate fully, and why the others keep tag strings."""
    found = {}
    for name in EXAMPLE_NAMES:
        migration = migrate_text((EXAMPLES / f"{name}.py").read_text(encoding="utf-8"), name)
        found[name] = (migration.migrated, sorted({flag.code for flag in migration.flags}))
    assert found == {
        "decimal_literal": (11, []),
        "delayed": (0, ["MIG001", "MIG009"]),
        "greet": (0, ["MIG009"]),
        "html": (8, []),
        "lazylog": (0, ["MIG001", "MIG009"]),
        "sh": (7, []),
        "sql": (11, []),
    }
