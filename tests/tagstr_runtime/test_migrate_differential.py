"""The migration, differentially: every program of the corpus behaves the same before and after it.

``migrate_corpus/app`` is a tree written for tag strings (a shop, a logging
kit, little languages, code in the style of the tagstr site, and the scope,
binding and lexing cases); ``migrate_corpus/vendor`` is a library outside it.
The tree is migrated with default flags, then each program (``app/run_*.py``)
runs before (tag strings, as 3.11-3.13 run them) and after (natively as
t-strings on CPython 3.14: the ``pyodide314`` env runs this file with the rest
of the suite, in the one Pyodide session) and must show the same: output, the
shape of its error output (warnings, lines, the error that ended it) and exit
status.  Every tag string the command keeps must be announced in the corpus
(``# expect: MIGnnn``, or ``# expect@-N:`` for the tag string N lines up), and
every announced reason reported: the kept ones name their reason.
"""

from __future__ import annotations

import io
import re
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from migrate_programs import (
    PY314, Expectation, Outcome, compile_after, compile_before, reported, run_outcome, stand_ins, tag_string_lines,
)

from tagstr_runtime.migrate import main
from tagstr_runtime.syntax.source import decode_source

CORPUS = Path(__file__).resolve().parent / "migrate_corpus"
PROGRAMS = sorted(p.stem for p in (CORPUS / "app").glob("run_*.py"))
_EXPECT = re.compile(r"#\s*expect(?:@-(\d+))?:\s*((?:MIG\d{3}\s*)+)$")


def expectations(root: Path) -> set[Expectation]:
    """The ``# expect: MIGnnn`` comments of every module under ``root`` (``expect@-N``: N lines up)."""
    found: set[Expectation] = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(decode_source(path.read_bytes()).splitlines(), 1):
            match = _EXPECT.search(line)
            if match:
                at = number - int(match.group(1) or 0)
                found.update(Expectation(path.resolve(), at, code) for code in match.group(2).split())
    return found


class Migrated:
    """A copy of the corpus, migrated in place by the command with default flags."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(CORPUS, root)
        self.app = root / "app"
        self.roots = [self.app, root / "vendor"]
        said, again = io.StringIO(), io.StringIO()
        with redirect_stdout(said):
            self.status = main([str(self.app)])
        with redirect_stdout(again):
            self.check = main(["--check", str(self.app)])
        self.said, self.again = said.getvalue(), again.getvalue()


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Migrated:
    return Migrated(tmp_path_factory.mktemp("corpus") / "corpus")


def test_the_corpus_is_large_enough() -> None:
    tags = sum(len(list(tag_string_lines(decode_source(p.read_bytes())))) for p in (CORPUS / "app").rglob("*.py"))
    assert len(PROGRAMS) >= 10 and tags >= 100


def test_the_command_keeps_exactly_the_announced_tag_strings(migrated: Migrated) -> None:
    assert migrated.status == 0, migrated.said
    expected = {e._replace(path=migrated.root / e.path.relative_to(CORPUS)) for e in expectations(CORPUS / "app")}
    assert reported(migrated.said) == expected, migrated.said
    # a second run changes nothing, says the same again, and fails a check on what is kept
    assert migrated.check == 1 and reported(migrated.again) == expected, migrated.again
    assert migrated.again.splitlines()[-1].startswith("would migrate 0 tag strings in 0 files; kept ")
    kept = {(e.path, e.line) for e in expected}
    for path in sorted(migrated.app.rglob("*.py")):
        left = {(path, line) for line in tag_string_lines(decode_source(path.read_bytes()))}
        assert left <= kept, f"tag strings kept without a reason: {sorted(left - kept)}"


@pytest.mark.skipif(not PY314, reason="needs CPython 3.14's t-strings (tox -e pyodide314)")
@pytest.mark.parametrize("name", PROGRAMS)
def test_every_program_behaves_the_same_before_and_after(name: str, migrated: Migrated) -> None:
    before = run_outcome(CORPUS / "app" / f"{name}.py", [CORPUS / "app", CORPUS / "vendor"], compile_before, {})
    after = run_outcome(migrated.app / f"{name}.py", migrated.roots, compile_after, stand_ins())
    assert before.stdout.count("\n") >= 3, before
    assert after == before


def test_the_programs_run_before_the_migration() -> None:
    """On any Python: each program runs as tag strings, and what it shows is what it was written to show."""
    outcomes: dict[str, Outcome] = {
        name: run_outcome(CORPUS / "app" / f"{name}.py", [CORPUS / "app", CORPUS / "vendor"], compile_before, {})
        for name in PROGRAMS
    }
    failing = {name: o.stderr[-1:] for name, o in outcomes.items() if o.status}
    assert failing == {
        "run_logkit_stream": ("ZeroDivisionError: division by zero",),
        "run_shop_orders": ("ValueError: not an identifier: 'no such'",),
    }


#: tags the command keeps, asserted eager by hand: each changes what its program shows
VOUCHED = {
    "run_logkit_stream": "logkit.tags.stream",  # writes its first part before a failing field
    "run_logkit_nesting": "logkit.tags.scoped",  # nested strings see another depth
    "run_dsl_order": "dsl.order.backwards",  # reads right to left
    "run_tsite": "tsite.htmltag.html",  # prints while it compiles, before its values
    "run_shop_orders": "shop.tags.sql",  # its check raises before a later value runs
    "run_shapes": "dsl.shapes.numbered",  # reads the log its values append to
}


@pytest.mark.skipif(not PY314, reason="needs CPython 3.14's t-strings (tox -e pyodide314)")
def test_the_suite_sees_a_difference_where_the_user_vouches_wrongly(tmp_path: Path) -> None:
    """The comparison can fail: with --eager-tag for tags that are not, the programs differ."""
    shutil.copytree(CORPUS, tmp_path / "corpus")
    app = tmp_path / "corpus" / "app"
    options = [arg for name in VOUCHED.values() for arg in ("--eager-tag", name)]
    with redirect_stdout(io.StringIO()):
        assert main([*options, str(app)]) == 0
    roots = [app, tmp_path / "corpus" / "vendor"]
    for program in VOUCHED:
        before = run_outcome(CORPUS / "app" / f"{program}.py", [CORPUS / "app", CORPUS / "vendor"], compile_before, {})
        after = run_outcome(app / f"{program}.py", roots, compile_after, stand_ins())
        assert after != before, program
