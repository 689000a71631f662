"""``python -m tagstr_runtime.migrate``: tag strings rewritten as 3.14 t-strings.

Tables: sources left alone, sources changed (exact output), and one source per
reason to keep a tag string (each ``MIG`` code alone).  Then the command line,
and the examples: on 3.14 (the pyodide env) every example prints the same
after the migration, run natively as t-strings; before 3.14 the migrated
examples run with a stand-in ``t`` tag that builds the same templates.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
from contextlib import redirect_stdout
from pathlib import Path
import pytest
from migrate_programs import compile_after, compile_before, run_program, stand_ins

from tagstr_runtime.migrate.rewrite import Options, migrate_text
from tagstr_runtime.migrate import main, migrate_source

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: an eager tag function's body, for tags the tests define
EAGER = "[a if isinstance(a, str) else a.getvalue() for a in args]"

PRELUDE = """\
from tagstr_runtime import accepts_template

@accepts_template
def tag(*args):
    return "".join(a if isinstance(a, str) else repr((a.getvalue(), a.conv, a.format_spec)) for a in args)

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
    pytest.param('x = tag"\\d{y}"  # é\n', 'x = tag(rt"\\d{y}")  # é\n', id="non-ASCII after, raw"),
    pytest.param('class C:\n    a = 1\n    x = tag"{b}"\n', 'class C:\n    a = 1\n    x = tag(t"{b}")\n',
                 id="class body, other names"),
    pytest.param('x = tag"{y:{w}}{f(y)}"\n', 'x = tag(t"{y:{w}}{f(y)}")\n', id="nested spec, call outside it"),
]


@pytest.mark.parametrize(("before", "after"), CHANGED)
def test_changed(before: str, after: str) -> None:
    assert migrated(before) == after
    assert migrated(after) == after  # idempotent


def test_raw_tags_keep_the_source_text() -> None:
    raw = frozenset(["__main__.tag"])  # a text without a module is __main__
    assert migrated('x = tag"\\d+{y}\\N{{BULLET}}"\n', raw_tags=raw) == 'x = tag(rt"\\d+{y}\\N{{BULLET}}")\n'
    assert migrated('x = tag"plain{y}"\n', raw_tags=raw) == 'x = tag(t"plain{y}")\n'
    # another module's tag of that name is another tag
    assert migrated('x = tag"\\n{y}"\n', raw_tags=frozenset(["other.tag"])) == 'x = tag(t"\\n{y}")\n'
    # without escapes that change anything, the source text is the text: rt"...", and no warning
    assert migrated('x = tag"\\d{y}"\n') == 'x = tag(rt"\\d{y}")\n'


def test_only_tag_strings_change_byte_for_byte() -> None:
    source = (
        "\ufeff# -*- coding: utf-8 -*-\r\n"
        "from tagstr_runtime import accepts_template\r\n"
        "@accepts_template\r\n"
        "def tag(*args):\treturn [a if isinstance(a, str) else a.getvalue() for a in args]\r\n"
        "x  =  ( tag'{ é }'   ,  f'{1}' )  # tag'{no}'\r\n"
        "s = '''tag\"{no}\"'''\r\n"
    ).encode("utf-8")
    new, migration, _ = migrate_source(source, "<test>")
    assert migration.migrated == 1
    assert new == source.replace(b"tag'{ \xc3\xa9 }'", b"tag(t'{ \xc3\xa9 }')")


def test_a_latin_1_file_stays_latin_1() -> None:
    head = "# coding: latin-1\nfrom tagstr_runtime import template_tag\ntag = template_tag(repr)\n"
    source = (head + "x = tag'é{y}'\n").encode("latin-1")
    new, _, _ = migrate_source(source, "<test>")
    assert new == (head + "x = tag(t'é{y}')\n").encode("latin-1")


# -- one reason at a time --------------------------------------------------------------

FLAGGED = [
    pytest.param("def lazy(*args):\n    return Keep(args)\n", 'x = lazy"{y}"', "MIG001", 4, id="keeps its args"),
    pytest.param("@accepts_template\ndef later(*args):\n    return lambda: [a.getvalue() for a in args]\n",
                 'x = later"{y}"', "MIG001", 4, id="a closure reads the values"),
    pytest.param("", 'x = tag"{y}"', "MIG001", 4, id="--lazy-tag"),
    pytest.param("@accepts_template\ndef rx(*args):\n"
                 "    return [a.raw if isinstance(a, str) else a.getvalue() for a in args]\n",
                 'x = rx"\\n{y}"', "MIG002", 4, id="reads .raw, text with escapes"),
    pytest.param("", 'x = tag"\\n\\N{y}"', "MIG003", 10, id="backslash N before a field"),
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
    pytest.param("", 'x = tag"\\t{y:\\n}"', "MIG010", 13, id="backslash in a format spec"),
    pytest.param("class C:\n    try:\n        pass\n    except ValueError as e:\n        pass\n", '    x = tag"{e}"',
                 "MIG004", 13, id="class-body except ... as"),
    pytest.param("class C:\n    match 1:\n        case k:\n            pass\n", '    x = tag"{k}"', "MIG004", 13,
                 id="class-body match capture"),
    pytest.param("class C:\n", '    x = tag"{__qualname__}"', "MIG004", 13, id="implicit __qualname__"),
    pytest.param("", 'x = tag"{y:{w.real}}"', "MIG008", 4, id="nested spec field and an attribute"),
    pytest.param("@accepts_template\ndef rtl(*args):\n"
                 "    return [a if isinstance(a, str) else a.getvalue() for a in reversed(args)]\n",
                 'x = rtl"{y}"', "MIG013", 4, id="reads in reverse order"),
    pytest.param("@accepts_template\ndef some(*args):\n"
                 "    return [a.getvalue() for a in args if not isinstance(a, str) and a.conv]\n",
                 'x = some"{y}"', "MIG013", 4, id="reads some values"),
    pytest.param("@accepts_template\ndef loud(*args):\n    out = []\n    for a in args:\n"
                 "        if isinstance(a, str):\n            out.append(a)\n        else:\n"
                 "            print(a.expr)\n            out.append(a.getvalue())\n    return out\n",
                 'x = loud"{y}"', "MIG014", 4, id="prints between reads"),
    pytest.param("def other(*args):\n    return args\nif y:\n    other = tag\n", 'x = other"{y}"', "MIG015", 4,
                 id="two bindings reach the tag string"),
    pytest.param("", 'x = tag"\\d\\n{y}"', "MIG016", 8, id="an escape 3.14 warns about"),
    pytest.param("@accepts_template\ndef named(*args):\n"
                 "    return [a if isinstance(a, str) else (a.expr, a.getvalue()) for a in args]\n",
                 'x = named"{ y}"', "MIG017", 10, id="reads expr, whose text changes"),
    pytest.param("", 'x = tag"{y:}"', "MIG018", 8, id="an empty format spec"),
    pytest.param("", 'x = tag"{locals()}"', "MIG019", 9, id="reads its own frame"),
]


@pytest.mark.parametrize(("definitions", "line", "code", "col"), FLAGGED)
def test_each_reason_keeps_the_tag_string(definitions: str, line: str, code: str, col: int) -> None:
    source = PRELUDE + definitions + line + "\n"
    # the table's "--lazy-tag" row: a decorated tag the command line calls lazy
    options = Options(lazy_tags=frozenset(["__main__.tag"])) if code == "MIG001" and not definitions else Options()
    result = migrate_text(source, "<test>", options)
    codes = {flag.code for flag in result.flags}
    assert code in codes, result.flags
    if code not in ("MIG001", "MIG009"):  # a class is both lazy and without a template
        assert codes == {code}
    flagged = [flag for flag in result.flags if flag.code == code]
    assert len(source) - len(line) - 1 + col in [flag.offset for flag in flagged]  # col: 0-based, in characters
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


@pytest.mark.parametrize(("inner", "reads_frame"), [
    pytest.param('vars""', True, id="no argument: vars()"),
    pytest.param('vars"abc"', False, id="a literal run: vars(Decoded)"),
    pytest.param('vars"{y}abc"', False, id="two arguments"),
])
def test_a_frame_builtin_as_a_tag_counts_its_literal_runs(inner: str, reads_frame: bool) -> None:
    """A tag string's call in a field reads the field's frame as its tag would, given every
    argument the tag receives: the analysis tree leaves the literal runs out, the site has them."""
    result = migrate_text(PRELUDE + f'x = tag"{{{inner}}}"\n', "<test>")
    assert ("MIG019" in {flag.code for flag in result.flags}) is reads_frame


def test_t_strings_nesting_quotes_read_before_314() -> None:
    """A module that already holds t-strings reads as the desugarer reads it (before 3.14, a
    t-string is a tag string named t to the lexer: left alone, its insides migrated)."""
    source = PRELUDE + 'x = t"{d["k"]} {tag"{y}"}"\n'
    assert migrate_text(source, "<test>").text == PRELUDE + 'x = t"{d["k"]} {tag(t"{y}")}"\n'


def test_eager_tag_overrides_the_heuristic() -> None:
    source = PRELUDE + "@accepts_template\ndef wrap(*args):\n    return tag(*args)\n" + 'x = wrap"{y}"\n'
    assert [f.code for f in migrate_text(source, "<test>").flags] == ["MIG001"]
    assert migrate_text(source, "<test>", Options(eager_tags=frozenset(["__main__.wrap"]))).text.endswith(
        'x = wrap(t"{y}")\n'
    )


def test_a_flagged_outer_tag_string_still_migrates_what_is_inside() -> None:
    source = PRELUDE + f"def plain(*args):\n    return {EAGER}\n" + 'x = plain"{tag"{y}"}"\n'
    result = migrate_text(source, "<test>")
    assert result.text.endswith('x = plain"{tag(t"{y}")}"\n')
    assert [f.code for f in result.flags] == ["MIG009"]


def test_an_unknown_tag_is_kept_and_the_reason_names_the_options() -> None:
    source = 'from lib import html\nx = html"{y}"\n'
    result = migrate_text(source, "<test>")
    assert result.text == source and result.kept == 1 and not result.notes
    [flag] = result.flags
    assert flag.code == "MIG011" and flag.offset == source.index('html"')
    assert "--template-tag" in flag.message and "--eager-tag" in flag.message


def test_an_option_answers_its_part_and_the_reason_names_only_the_rest() -> None:
    source = 'from lib import html\nx = html"{y}"\n'
    template = Options(template_tags=frozenset(["__main__.html"]))
    [flag] = migrate_text(source, "<test>", template).flags
    assert "--eager-tag" in flag.message and "--template-tag" not in flag.message
    eager = Options(eager_tags=frozenset(["__main__.html"]))
    [flag] = migrate_text(source, "<test>", eager).flags
    assert "--template-tag" in flag.message and "--eager-tag" not in flag.message
    both = template._replace(eager_tags=eager.eager_tags)
    result = migrate_text(source, "<test>", both)
    assert result.text == 'from lib import html\nx = html(t"{y}")\n' and not result.flags
    assert result.answered == frozenset(["__main__.html"])


def test_an_unknown_tag_wrapped_in_accepts_template_is_unknown_only_in_its_eagerness() -> None:
    source = ("import lib as vendor\nfrom tagstr_runtime import accepts_template\n"
              "stars = accepts_template(vendor.stars)\nx = stars\"{y}\"\n")
    [flag] = migrate_text(source, "<test>").flags
    assert flag.code == "MIG011" and flag.message.endswith(
        "tag 'stars' is unknown (module 'lib' is not in the tree): nothing says whether it reads its values "
        "at once; if it does, --eager-tag lib.stars"
    )
    result = migrate_text(source, "<test>", Options(eager_tags=frozenset(["lib.stars"])))
    assert result.text.endswith('x = stars(t"{y}")\n') and not result.flags


def test_a_relative_import_from_outside_the_tree_is_named_absolutely() -> None:
    source = 'from ..lib import html\nx = html"{y}"\n'
    [flag] = migrate_text(source, "<test>", module="pkg.sub.views", path="/nowhere/pkg/sub/views.py").flags
    assert flag.message.endswith("--template-tag pkg.lib.html --eager-tag pkg.lib.html")
    options = Options(template_tags=frozenset(["pkg.lib.html"]), eager_tags=frozenset(["pkg.sub.views.html"]))
    result = migrate_text(source, "<test>", options, module="pkg.sub.views", path="/nowhere/pkg/sub/views.py")
    assert not result.flags  # the name it is imported as works too


def test_a_local_tag_is_named_after_its_function() -> None:
    source = f"class Page:\n    def render(self):\n        def plain(*args):\n            return {EAGER}\n" \
             "        return plain\"{y}\"\n"
    [flag] = migrate_text(source, "<test>", module="views").flags
    assert flag.code == "MIG009"
    template = Options(template_tags=frozenset(["views.Page.render.plain"]))
    assert migrate_text(source, "<test>", template, module="views").text.endswith('plain(t"{y}")\n')
    lazy = "def render(tag):\n    return tag\"{y}\"\n"
    [flag] = migrate_text(lazy, "<test>", module="views").flags
    assert flag.message.endswith("--template-tag views.render.tag --eager-tag views.render.tag")


def test_the_remedy_fits_the_tag() -> None:
    def message(definitions: str, line: str) -> str:
        [flag] = [f for f in migrate_text(definitions + line, "<test>").flags if f.code == "MIG009"]
        return flag.message

    assert message("def plain(*args):\n    return args\n", 'x = plain"{y}"\n').endswith(
        "decorate it with @accepts_template"
    )
    assert "make the tag a function decorated with @accepts_template, or --template-tag __main__.Box" in message(
        "class Box:\n    def __init__(self, *args):\n        self.args = args\n", 'x = Box"{y}"\n'
    )
    lazy = [f.message for f in migrate_text(
        "def keep(*args):\n    return [args]\n" + 'x = keep"{y}"\n', "<test>").flags]
    assert any(m.startswith("MIG001") and m.endswith("if it does not, --eager-tag __main__.keep") for m in lazy)
    lazy_option = Options(lazy_tags=frozenset(["__main__.tag"]))
    [flag] = migrate_text(PRELUDE + 'x = tag"{y}"\n', "<test>", lazy_option).flags
    assert flag.code == "MIG001" and "--lazy-tag __main__.tag" in flag.message and "--eager-tag" not in flag.message


# -- the command line ------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(PRELUDE + 'x = tag"{y}"\n', encoding="utf-8")
    plain = f"def plain(*args):\n    return {EAGER}\nx = plain\"{{y}}\"\n"
    (tmp_path / "pkg" / "b.py").write_text(plain, encoding="utf-8")
    (tmp_path / "pkg" / "c.py").write_text("x = 1\n", encoding="utf-8")
    return tmp_path


def test_check_changes_nothing_and_says_so_on_one_stream(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = {p: p.read_bytes() for p in project.rglob("*.py")}
    assert main(["--check", str(project)]) == 1
    assert {p: p.read_bytes() for p in project.rglob("*.py")} == before
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0].endswith("b.py:3:5: MIG009 tag 'plain' (line 1) takes no template: "
                             "decorate it with @accepts_template")
    assert lines[-1] == "would migrate 1 tag string in 1 file; kept 1 tag string in 1 file (MIG009 x1)"


def test_diff_prints_a_unified_diff_and_the_reasons_aside(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--diff", str(project / "pkg")]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("--- a/") and '-x = tag"{y}"\n+x = tag(t"{y}")\n' in out and "MIG009" not in out
    assert "MIG009" in err and err.endswith("(MIG009 x1)\n")


def test_in_place_then_check_fails_on_what_is_kept(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(project)]) == 0
    assert (project / "pkg" / "a.py").read_text(encoding="utf-8").endswith('x = tag(t"{y}")\n')
    kept = "kept 1 tag string in 1 file (MIG009 x1)\n"
    assert capsys.readouterr().out.endswith("migrated 1 tag string in 1 file; " + kept)
    assert main(["--check", str(project / "pkg" / "a.py")]) == 0  # nothing left there
    assert main(["--check", str(project)]) == 1  # b.py's tag string is kept: CI fails
    assert capsys.readouterr().out.endswith("would migrate 0 tag strings in 0 files; " + kept)


def test_options_take_qualified_names(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--check", "--template-tag", "plain", str(project)])
    assert exit_info.value.code == 2
    assert "'plain' is not a qualified name" in capsys.readouterr().err
    assert main(["--check", "--template-tag", "b.plain", "--eager-tag", "b.plian", str(project)]) == 1
    out = capsys.readouterr().out
    assert "MIG009" not in out
    assert "note: --eager-tag b.plian: no tag string in these files calls this tag" in out
    assert out.endswith("would migrate 2 tag strings in 2 files; kept none\n")


def test_the_same_bare_name_in_two_modules_is_two_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lazy = "from tagstr_runtime import accepts_template\n@accepts_template\ndef html(*args):\n    return [args]\n"
    (tmp_path / "one.py").write_text(lazy + 'x = html"{y}"\n', encoding="utf-8")
    (tmp_path / "two.py").write_text(lazy + 'x = html"{y}"\n', encoding="utf-8")
    assert main(["--eager-tag", "one.html", str(tmp_path)]) == 0
    assert (tmp_path / "one.py").read_text(encoding="utf-8").endswith('x = html(t"{y}")\n')
    assert (tmp_path / "two.py").read_text(encoding="utf-8").endswith('x = html"{y}"\n')
    assert "two.py:5:5: MIG001 tag 'html' may read" in capsys.readouterr().out


def test_a_malformed_tag_string_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.py").write_text('x = tag"{}"\n', encoding="utf-8")
    assert main([str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "bad.py:1:10: error:" in out and out.endswith("; 1 file could not be migrated (errors above)\n")
    assert (tmp_path / "bad.py").read_text(encoding="utf-8") == 'x = tag"{}"\n'


# -- the examples, before and after ----------------------------------------------------

EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.py") if p.stem not in ("run_all", "quickstart"))
RUNNABLE_HERE = {"sh": Path("/bin/sh").exists() and sys.platform != "emscripten"}


@pytest.fixture(scope="module")
def migrated_examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A copy of the examples migrated by the command (default flags), what it printed, its --check status."""
    folder = tmp_path_factory.mktemp("examples")
    for name in EXAMPLE_NAMES:
        shutil.copy(EXAMPLES / f"{name}.py", folder)
    files = [str(folder / f"{name}.py") for name in EXAMPLE_NAMES]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(files) == 0
        check = main(["--check", *files])
    return folder, out.getvalue(), check


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_example_prints_the_same_after_the_migration(name: str, migrated_examples: tuple[Path, str, int]) -> None:
    if not RUNNABLE_HERE.get(name, True):
        pytest.skip("needs a POSIX shell and subprocesses")
    if name == "sql":
        pytest.importorskip("sqlite3")
    folder, _, _ = migrated_examples
    expected = run_program(EXAMPLES / f"{name}.py", [EXAMPLES], compile_before, {})
    assert run_program(folder / f"{name}.py", [folder], compile_after, stand_ins()) == expected


def test_the_examples_migrate_as_documented(migrated_examples: tuple[Path, str, int]) -> None:
    """Which examples migrate fully, and why the others keep tag strings: a second run
    says it (and fails a check), and changes nothing more."""
    folder, said, check = migrated_examples
    found: dict[str, tuple[int, list[str]]] = {}
    for name in EXAMPLE_NAMES:
        text = (folder / f"{name}.py").read_text(encoding="utf-8")
        migration = migrate_text(text, name, module=name)
        assert migration.text == text  # idempotent
        migrated = sum(1 for _ in re.finditer(r"\b\w+\(t[\"']", text))
        found[name] = (migrated, sorted({flag.code for flag in migration.flags}))
    assert found == {
        "decimal_literal": (0, ["MIG013"]),  # it returns early when no value is there: --eager-tag
        "delayed": (0, ["MIG001", "MIG009"]),
        "greet": (0, ["MIG001", "MIG009", "MIG013"]),
        "html": (8, []),
        "lazylog": (0, ["MIG001", "MIG009"]),
        "sh": (7, []),
        "sql": (10, ["MIG014"]),  # quote_identifier may raise: kept where a value is more than a name
    }
    assert check == 1
    assert said.splitlines()[-1].startswith("would migrate 0 tag strings in 0 files; kept ")
