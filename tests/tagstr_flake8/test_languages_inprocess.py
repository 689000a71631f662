"""The embedded-language checks through the TAG rules, in-process, and their costs and notes.

The examples (``examples/lang_*.py``) pin each check at its token, through
real flake8 and in-process (``test_rules_inprocess.test_example_file``).  Here:
every language code fires somewhere, positions survive escapes, non-ASCII text
and nested tag strings, the options apply, a file declaring no language imports
no parser, and a missing parser gives one note per run, never a crash.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from textwrap import dedent
from typing import Callable

import pytest

from tagstr_flake8 import check_source, source_messages
from tagstr_flake8.lint.language_checks import configured
from tagstr_flake8.lint.messages import LANGUAGE_MESSAGES
from tagstr_flake8.rules import OFF_BY_DEFAULT

from flake8_harness import ENV, EXAMPLES, expectations, flake8, name_of, options, runs_here

HAVE_ALL = all(
    importlib.util.find_spec(name) is not None
    for name in ("html5lib", "sqlglot", "tinycss2", "yaml", "tree_sitter_javascript")
)
needs_parsers = pytest.mark.skipif(not HAVE_ALL, reason="the language extras are not all installed")
HEAD = dedent('''\
    from typing import Annotated
    from tagstr_runtime import Decoded, Interpolation
    def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str: ...
    def sql(*args: Annotated[Decoded | Interpolation, "sql"]) -> str: ...
    ''')


# the language codes on by default (TAG106, strict HTML, TAG116 and TAG117 are not)
DEFAULT = tuple(cls.code for cls in LANGUAGE_MESSAGES if cls.code not in OFF_BY_DEFAULT)


def codes(source: str, select: tuple[str, ...] = DEFAULT) -> list[tuple[int, int, str]]:
    return check_source(HEAD + dedent(source), select)


@needs_parsers
def test_every_language_code_fires_in_the_examples() -> None:
    fired = {
        code for path in EXAMPLES.glob("lang_*.py") if runs_here(path) for _, _, code in expectations(path)
    }
    assert {cls.code for cls in LANGUAGE_MESSAGES} - {"TAG901"} <= fired  # a failed check: below


@needs_parsers
@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # escapes before the fault: each maps to its first character
        (r'a = html"<p>\x41\n\t{{x}}</span>"' "\n", [(5, 25, "TAG101")]),
        # non-ASCII before the fault: flake8's columns are UTF-8 bytes
        ('a = html"<p>ééé</span>"\n', [(5, 18, "TAG101")]),
        # the fault of a nested tag string, at its own position
        ('a = html"<p>{sql"SELECT * FROM {t}"}</p>"\n', [(5, 31, "TAG202")]),
        # a tag string inside a function, on the third line of a literal
        ('def f(x):\n    return html"""<ul>\n  <li>{x}\n  <li>{x}</b>\n</ul>"""\n', [(8, 9, "TAG101")]),
        # a hole is reported at its "{"
        ('a = html"<p title={x}>t</p>"\n', [(5, 18, "TAG110")]),
    ],
    ids=["escapes", "non-ascii", "nested", "third-line", "hole-brace"],
)
def test_positions(source: str, expected: list[tuple[int, int, str]]) -> None:
    assert codes(source) == expected


@needs_parsers
def test_every_fault_not_the_first() -> None:
    source = 'a = html"<p class=a class=b>&foo;</span><div>"\n'
    assert [code for *_, code in codes(source)] == ["TAG103", "TAG105", "TAG101", "TAG102"]


@needs_parsers
def test_each_code_can_be_selected_alone() -> None:
    source = 'a = sql"SELECT * FROM {t} WHERE a = \'{v}\'"\n'
    assert codes(source) == [(5, 22, "TAG202"), (5, 37, "TAG204")]
    assert codes(source, ("TAG204",)) == [(5, 37, "TAG204")]
    assert codes(source, ("TAG0",)) == []


@needs_parsers
def test_configuration_maps_tags_whose_definition_is_elsewhere() -> None:
    source = 'from web import page\nfrom db import *\na = page"<p></b>"\nb = query"SELECT * FROM {t}"\n'
    assert check_source(source, DEFAULT) == []
    with configured("web.page=html, query=sql"):
        assert check_source(source, DEFAULT) == [(3, 12, "TAG101"), (4, 24, "TAG202")]
    with configured("other.page=html"):  # another module's page
        assert check_source(source, DEFAULT) == []


@needs_parsers
def test_sql_dialect_option() -> None:
    source = 'from db import query\nq = query"SELECT TOP 5 a FROM t"\n'
    with configured("db.query=sql"):
        assert [code for *_, code in check_source(source, ("TAG",))] == ["TAG201"]
    with configured("db.query=sql", sql_dialect="tsql"):
        assert check_source(source, ("TAG",)) == []


@needs_parsers
@pytest.mark.subprocess
def test_sql_dialect_and_languages_through_flake8(tmp_path: Path) -> None:
    (tmp_path / "q.py").write_text('from db import query\nt = 1\nq = query"SELECT TOP 5 a FROM {t}"\n',
                                   encoding="utf-8")
    plain = flake8(["--tag-languages=db.query=sql", "q.py"], cwd=tmp_path)
    assert [(h.row, h.col, h.code) for h in plain.hits] == [(3, 22, "TAG201")]  # sqlglot: "TOP" is a column
    tsql = flake8(["--tag-languages=db.query=sql", "--tag-sql-dialect=tsql", "q.py"], cwd=tmp_path)
    assert [(h.row, h.col, h.code) for h in tsql.hits] == [(3, 31, "TAG202")]
    wrong = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--tag-languages=db.query=cobol", "q.py"],
        capture_output=True, text=True, cwd=tmp_path, env=ENV,
    )
    assert wrong.returncode != 0 and "cobol" in wrong.stdout + wrong.stderr
    assert "Traceback" not in wrong.stderr


_BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.partition('.')[0] in {blocked!r}:
            raise ImportError(name + ' is not installed', name=name)
sys.meta_path.insert(0, Block())
from flake8.main.cli import main
main(sys.argv[1:])
"""


@pytest.mark.subprocess
def test_missing_parser_one_note_per_run(tmp_path: Path) -> None:
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(HEAD + 'x = html"<p></b>"\ny = sql"SELECT * FROM {t}"\n', encoding="utf-8")
    run = flake8(["--jobs=2", "a.py", "b.py"], cwd=tmp_path,  # two workers, one note
                 python=[sys.executable, "-c", _BLOCK.format(blocked={"html5lib"})])
    assert run.stderr.count("pip install 'tagstr-toolkit[html]'") == 1, run.stderr
    codes_found = {h.code for h in run.hits}
    assert not any(code.startswith("TAG1") for code in codes_found)
    if importlib.util.find_spec("sqlglot") is not None:  # the other languages are still checked
        assert {(h.path, h.code) for h in run.hits if h.code.startswith("TAG2")} == {
            ("a.py", "TAG202"), ("b.py", "TAG202")}


_IMPORTS = """
import sys
from tagstr_flake8 import check_source, source_messages
source = open(sys.argv[1], encoding="utf-8").read()
check_source(source, ("TAG",))
parsers = ("html5lib", "sqlglot", "tinycss2", "yaml", "tree_sitter", "tree_sitter_javascript")
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in parsers or m.startswith(
    "tagstr_runtime.analysis.embedded."))
print(",".join(loaded))
"""


@pytest.mark.subprocess
@pytest.mark.parametrize("declared", [False, True])
def test_no_parser_imported_without_a_declared_language(tmp_path: Path, declared: bool) -> None:
    source = 'def page(*args): ...\nx = page"<p>{1}</b>"\ny = f"{x}"\n'
    if declared:
        source = HEAD + 'z = sql"SELECT 1"\n' + source
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", _IMPORTS, "m.py"], capture_output=True, text=True,
                         cwd=tmp_path, env=ENV, check=True)
    loaded = set(filter(None, run.stdout.strip().split(",")))
    if declared:
        assert "tagstr_runtime.analysis.embedded.sql" in loaded
        assert "tagstr_runtime.analysis.embedded.html" not in loaded and "html5lib" not in loaded
    else:  # only the reader of declarations
        readers = ("declared", "qualified", "registry", "written")
        assert loaded == {f"tagstr_runtime.analysis.embedded.{name}" for name in readers}


def test_a_parser_failure_costs_the_tag_string_not_the_file(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A check raising on odd input is TAG901 at that tag string, naming the failure; the file's other
    tag strings keep their checks; under TAGSTR_STRICT the traceback is logged as an error too."""
    import tagstr_flake8.lint.language_checks as languages

    real = languages.check

    def broken(language: str, strings: list[str], *args: object) -> object:
        if "</b>" in strings[0]:
            raise RuntimeError("parser bug")
        return real(language, strings, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(languages, "check", broken)
    source = HEAD + 'a = html"<p></b>"\nb = html"<p></span>"\n'
    for strict in (False, True):
        monkeypatch.setattr(languages, "strict", lambda strict=strict: strict)
        caplog.clear()
        assert check_source(source, DEFAULT) == [(5, 9, "TAG901"), (6, 12, "TAG101")]
        assert any(r.levelname == ("ERROR" if strict else "DEBUG") for r in caplog.records) or not strict
    [message] = [m for m in source_messages(source, DEFAULT) if m.code == "TAG901"]
    assert "RuntimeError: parser bug" in message.text


@pytest.mark.parametrize(
    ("finding", "says"),
    [
        (("html.no-such-kind", ()), "unknown kind 'html.no-such-kind'"),
        (("html.syntax", (("detail", "x"), ("fix", ""))), "empty fix"),
        (("html.unclosed", ()), "without name"),
    ],
    ids=["misspelt-kind", "empty-fix", "missing-field"],
)
def test_a_bad_finding_is_said_not_dropped(
        monkeypatch: pytest.MonkeyPatch, finding: tuple[str, tuple[tuple[str, str], ...]], says: str) -> None:
    """A checker's finding its message cannot report (a misspelt kind, an empty or a missing value)
    is TAG901 naming the mistake: never a KeyError out of flake8, never a blank in a message."""
    import tagstr_flake8.lint.language_checks as languages
    from tagstr_runtime.analysis.embedded import Finding

    kind, args = finding
    monkeypatch.setattr(languages, "check", lambda *a: [Finding(kind, 0, 0, None, args)])
    [message] = source_messages(HEAD + 'a = html"<p></b>"\n', DEFAULT)
    assert message.code == "TAG901" and says in message.text, message.text


def test_a_default_fix_is_kept() -> None:
    """A finding without a fix gets its message's default one."""
    [message] = source_messages(HEAD + 'a = html"<a href=\\"x>"\n', ("TAG104",))
    assert message.text.endswith("write what you mean")


def tstring_twin(text: str) -> tuple[str, Callable[[int, int], tuple[int, int]]]:
    """``text`` with each outermost tag string ``tag"..."`` written ``tag(t"...")``, and the map
    of a (line, 0-based byte column) of ``text`` to the twin's."""
    from tagstr_runtime.frontend import SourceText, parse

    found = parse(text, template_strings=False).tag_strings
    inserts = sorted([(tag.tag_span.end, "(t") for tag in found] + [(tag.span.end, ")") for tag in found])
    pieces, last = [], 0
    for at, piece in inserts:
        pieces.extend((text[last:at], piece))
        last = at
    pieces.append(text[last:])
    old, new = SourceText(text), SourceText("".join(pieces))

    def moved(line: int, col: int) -> tuple[int, int]:
        offset = old.offset(line, col)
        return new.line_col_byte(offset + sum(len(piece) for at, piece in inserts if at <= offset))

    return new.text, moved


TWINNED = [p for p in sorted([*EXAMPLES.glob("lang_*.py"), *EXAMPLES.glob("lang_pkg/*.py")])
           if not p.stem.endswith(("_ge314", "_ge312"))]


@pytest.mark.skipif(sys.version_info < (3, 14), reason="t-strings: Python 3.14+")
@pytest.mark.parametrize("path", TWINNED, ids=lambda p: name_of(p).removesuffix(".py"))
def test_tstring_twin_of_each_example(path: Path) -> None:
    """Every example again as ``tag(t"...")`` (3.14): the same reports, moved with the text."""
    if not runs_here(path):
        pytest.skip("a parser it needs is not installed")
    text = path.read_text(encoding="utf-8")
    twin, moved = tstring_twin(text)
    select = [cls.code for cls in LANGUAGE_MESSAGES if cls.code not in OFF_BY_DEFAULT]
    select += re.findall(r"TAG\d{3}", " ".join(options(path)))
    mapping = " ".join(o.removeprefix("--tag-languages=") for o in options(path) if o.startswith("--tag-languages="))
    with configured(mapping):
        original = check_source(text, select, filename=str(path))
        assert original or path.stem == "lang_clean" or path.parent.name == "lang_pkg" and path.stem != "views"
        twinned = check_source(twin, select, filename=str(path))
        assert twinned == [(*moved(line, col), code) for line, col, code in original]


@needs_parsers
@pytest.mark.subprocess
def test_configuration_file(tmp_path: Path) -> None:
    """``tag-languages`` over several lines of a configuration file, as docs/languages.md writes it."""
    (tmp_path / "setup.cfg").write_text(
        "[flake8]\ntag-languages =\n    myapp.web.page = html,\n    myapp.db.query = sql\n"
        "tag-sql-dialect = postgres\n", encoding="utf-8")
    (tmp_path / "m.py").write_text(
        "from myapp.web import page\nfrom myapp.db import query\nt = 1\n"
        'a = page"<p></b>"\nb = query"SELECT * FROM {t}"\n', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "flake8", "--format=%(row)d:%(col)d:%(code)s", "m.py"],
                         capture_output=True, text=True, cwd=tmp_path, env=ENV)
    assert run.stdout.split() == ["4:13:TAG101", "5:25:TAG202"], run.stderr
