"""Third-party flake8 plugins that re-read the source, on files with tag strings.

flake8-annotations, flake8-docstrings (pydocstyle), flake8-async (libcst),
flake8-builtins (stdin) and flake8-quotes (tokenize) parse or tokenize the
file's text themselves.  Each runs alone with tagstr_flake8
(``thirdparty_runner.py`` filters the installed plugins) on a file with tag
strings and a plain file in one run: the run does not stop, the tag-string
file gets the plugin's findings at their places (``# CODE:col`` comments in
``thirdparty/``), the plain file exactly what flake8 without tagstr_flake8
gives it.  A plugin that still fails on a tag-string file costs one TAG900.

Skipped where the plugins are not installed (the tox env ``flake8-thirdparty``
installs them: the dependency group ``thirdparty-flake8``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from flake8_harness import Hit, Run, expectations, flake8

for _module in ("flake8_annotations", "flake8_docstrings", "flake8_async", "flake8_builtins", "flake8_quotes"):
    pytest.importorskip(_module, reason="the third-party flake8 plugins are not installed (tox -e flake8-thirdparty)")

pytestmark = pytest.mark.subprocess

HERE = Path(__file__).parent
CASES = HERE / "thirdparty"
RUNNER = HERE / "thirdparty_runner.py"
OURS = "tagstr-toolkit"
PLAIN = "plain.py"

# (distribution, the prefix of its codes, its case file)
PLUGINS = [
    pytest.param("flake8-annotations", "ANN", "annotations.py", id="annotations"),
    pytest.param("flake8-docstrings", "D", "docstrings.py", id="docstrings"),
    pytest.param("flake8-async", "ASYNC", "cancel_scopes.py", id="async"),
    pytest.param("flake8-builtins", "A0", "shadowing.py", id="builtins"),
    pytest.param("flake8-quotes", "Q", "quotes.py", id="quotes"),
]
ALL_FIVE = ",".join(str(p.values[0]) for p in PLUGINS)


def run(keep: str, files: list[str], *extra: str, add: tuple[str, ...] = (), stdin: str | None = None) -> Run:
    prefix = [sys.executable, str(RUNNER), f"--keep={keep}", *(f"--add={a}" for a in add), "--"]
    return flake8([*extra, *files], cwd=CASES, python=prefix, stdin=stdin)


def hits_of(result: Run, path: str) -> list[Hit]:
    return sorted(hit for hit in result.hits if Path(hit.path).name == path)


def aborted(result: Run) -> bool:
    return "failed during execution" in result.stdout + result.stderr


def found(hits: list[Hit], prefix: str) -> set[tuple[int, int, str]]:
    return {(h.row, h.col, h.code) for h in hits if h.code.startswith(prefix)}


@pytest.mark.parametrize(("package", "prefix", "case"), PLUGINS)
@pytest.mark.parametrize("jobs", ["serial", "jobs"])
def test_plugin_on_tag_strings_and_plain_file(package: str, prefix: str, case: str, jobs: str) -> None:
    extra = ["--jobs=2"] if jobs == "jobs" else []
    both = run(f"{package},{OURS}", [case, PLAIN], *extra)
    assert not aborted(both), both.stdout + both.stderr

    tagged = hits_of(both, case)
    assert found(tagged, prefix) == expectations(CASES / case)
    assert not [h for h in tagged if h.code in ("E902", "E999", "TAG900")], tagged

    stock = run(package, [PLAIN])
    assert found(hits_of(stock, PLAIN), prefix), "the plain file should give the plugin something to report"
    assert hits_of(both, PLAIN) == hits_of(stock, PLAIN)


def test_quotes_tokens_of_tag_strings() -> None:
    """flake8-quotes tokenizes the text itself: no E902 (3.12's tokenizer), one Q000 per tag string."""
    result = run(f"flake8-quotes,{OURS}", ["quotes.py"])
    quotes = [(h.row, h.code) for h in result.hits if h.code.startswith(("Q", "E9"))]
    assert quotes == [(5, "Q000"), (9, "Q000"), (10, "Q000")]  # not two for line 10's html"{d["k"]}"


def test_builtins_on_stdin() -> None:
    """flake8-builtins parses stdin itself: no bogus E999, its findings where the file gets them."""
    text = (CASES / "shadowing.py").read_text(encoding="utf-8")
    result = run(f"flake8-builtins,{OURS}", ["-"], stdin=text)
    assert not [h for h in result.hits if h.code.startswith("E9")], result.hits
    assert found(result.hits, "A0") == expectations(CASES / "shadowing.py")
    from_file = run(f"flake8-builtins,{OURS}", ["shadowing.py"])
    assert [h[1:] for h in sorted(result.hits)] == [h[1:] for h in sorted(from_file.hits)]


FAILING = ("XPA=thirdparty_runner:FailsWhenBuilt", "XPB=thirdparty_runner:FailsWhileRunning")


@pytest.mark.parametrize("jobs", ["serial", "jobs"])
def test_failing_plugin_is_contained_on_tag_string_files(jobs: str) -> None:
    """One TAG900 per failing plugin on the tag-string file; every other report as usual."""
    extra = ["--jobs=2"] if jobs == "jobs" else []
    files = ["failing.py", *(str(p.values[2]) for p in PLUGINS), PLAIN]
    contained = run(f"{ALL_FIVE},{OURS}", files, *extra, add=FAILING)
    assert not aborted(contained), contained.stdout + contained.stderr

    failures = [h for h in contained.hits if h.code == "TAG900"]
    assert [(h.path, h.row, h.col) for h in failures] == [("failing.py", 2, 10), ("failing.py", 6, 12)]
    built, running = sorted(failures, key=lambda h: h.text)
    assert built.text.startswith('plugin "failing-plugin[XPA]" failed on this file, which has tag strings: ')
    assert "ValueError: cannot read a file saying 'explode'" in built.text
    assert running.text.startswith('plugin "failing-plugin[XPB]" failed')
    assert "SyntaxError: cannot parse this" in running.text
    # what the failing plugin reported before failing stays; the one failing when built has nothing
    assert [h.code for h in hits_of(contained, "failing.py") if h.code.startswith("XP")] == ["XPB001"]
    # the other plugins, the other files: as without the failing plugin
    without = run(f"{ALL_FIVE},{OURS}", files, *extra)
    others = [h for h in contained.hits if not h.code.startswith(("XP", "TAG900"))]
    assert others == [h for h in without.hits if not h.code.startswith("XP")]
    assert {(h.path, h.code) for h in others} >= {("failing.py", "ANN201"), ("failing.py", "Q000")}


def test_failing_plugin_on_a_plain_file_stops_flake8_as_stock() -> None:
    """A plugin failing on a file without tag strings: flake8's own abort, word for word."""
    ours = run(f"flake8-builtins,{OURS}", ["explode_plain.py", PLAIN], add=FAILING)
    stock = run("flake8-builtins", ["explode_plain.py", PLAIN], add=FAILING)
    assert aborted(ours)
    assert (ours.returncode, ours.stdout, ours.stderr) == (stock.returncode, stock.stdout, stock.stderr)
