"""A team's whole toolchain on one sample project with tag strings (``tests/sample_project``).

The project: a tag module documented by doctests (``shop/tags.py``), a module
of tag strings (``shop/views.py``), a plain module importing from it
(``shop/report.py``) and tests; its ``pyproject.toml`` turns on the coverage
plugin, doctests, black, ruff and pyright as a project would.  Each tool runs
for real on a copy, clean first, then on a *failing twin* (one deliberate
mistake) that the tool must report at the right place.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

SAMPLE = Path(__file__).resolve().parent / "sample_project"
MYPY_INI = "[mypy]\nplugins = tagstr_mypy\nstrict = True\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    work = tmp_path / "project"
    shutil.copytree(SAMPLE, work)
    return work


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    env.pop("COVERAGE_PROCESS_START", None)
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600, env=env)


def python(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, *args, cwd=cwd, stdin=stdin)


def add(project: Path, name: str, text: str) -> None:
    path = project / name
    path.write_text(path.read_text(encoding="utf-8") + text if path.exists() else text, encoding="utf-8")


def test_pytest_cov_doctests_and_coverage_html(project: Path) -> None:
    pytest.importorskip("pytest_cov")
    clean = python("-m", "pytest", "--cov", "--cov-fail-under=100", "-q", cwd=project)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "5 passed" in clean.stdout  # 3 tests and the 2 docstrings of shop/tags.py
    rows = {line.split()[0]: line.split()[1:] for line in clean.stdout.splitlines() if line.startswith("shop/")}
    assert rows["shop/tags.py"] == ["12", "0", "4", "0", "100%"], clean.stdout
    assert rows["shop/views.py"] == ["10", "0", "2", "0", "100%"], clean.stdout
    html = python("-m", "coverage", "html", cwd=project)
    assert html.returncode == 0, html.stdout + html.stderr
    page = next((project / "htmlcov").glob("*views_py.html")).read_text(encoding="utf-8")
    assert "{price:.2f}" in page and "money" in page  # the original source, tag strings and all
    # the twin: an untested function with a tag string; a wrong doctest
    add(project, "shop/views.py", '\n\ndef unused(code: int) -> str:\n    return html"<i>{code}</i>"\n')
    tags = project / "shop" / "tags.py"
    tags.write_text(tags.read_text(encoding="utf-8").replace("'&amp;'", "'&'"), encoding="utf-8")
    failing = python("-m", "pytest", "--cov", "--cov-fail-under=100", "-q", cwd=project)
    assert failing.returncode != 0
    assert "FAIL Required test coverage of 100% not reached" in failing.stdout, failing.stdout
    views = next(line for line in failing.stdout.splitlines() if line.startswith("shop/views.py"))
    assert views.split()[1:3] == ["12", "1"] and views.endswith("20"), views
    assert "shop/tags.py:20: DocTestFailure" in failing.stdout, failing.stdout


def test_mypy_and_flake8(project: Path) -> None:
    (project / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
    clean = python("-m", "mypy", "shop", "tests", cwd=project)
    assert clean.returncode == 0, clean.stdout
    assert python("-m", "flake8", "--max-line-length", "100", "shop", "tests", cwd=project).stdout == ""
    add(project, "shop/views.py", '\n\nPRICE = money"{\'free\'}"\nTOTAL = html"{totl}"\n')
    mypy = python("-m", "mypy", "--show-column-numbers", "shop", cwd=project).stdout
    assert 'shop/views.py:19:16: error: Interpolation "{\'free\'}" has type "str"; tag "money" accepts' in mypy
    assert 'shop/views.py:20:15: error: Name "totl" is not defined  [name-defined]' in mypy, mypy
    flake8 = python("-m", "flake8", "--max-line-length", "100", "shop", cwd=project).stdout
    assert flake8 == "shop/views.py:20:15: F821 undefined name 'totl'\n", flake8


@pytest.mark.parametrize("tool", ["black", "ruff"])
def test_formatter_check(project: Path, tool: str) -> None:
    pytest.importorskip(tool)
    clean = python("-m", "tagstr_runtime", "--format", "--tool", tool, "--check", "shop", "tests", cwd=project)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    add(project, "shop/views.py", '\n\nSPACED=html"{ TITLE }"   \n')
    failing = python("-m", "tagstr_runtime", "--format", "--tool", tool, "--check", "shop", cwd=project)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "shop/views.py" in failing.stdout + failing.stderr
    fixed = python("-m", "tagstr_runtime", "--format", "--tool", tool, "shop", cwd=project)
    assert fixed.returncode == 0, fixed.stderr
    assert (project / "shop" / "views.py").read_text(encoding="utf-8").endswith('\n\nSPACED = html"{ TITLE }"\n')


def test_ruff_check(project: Path) -> None:
    pytest.importorskip("ruff")
    clean = python("-m", "tagstr_runtime", "--ruff-check", "shop", "tests", cwd=project)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    add(project, "shop/views.py", '\n\nGONE = html"<p>{missing_name}</p>"\n')
    failing = python("-m", "tagstr_runtime", "--ruff-check", "--output-format", "concise", "shop", cwd=project)
    assert failing.returncode == 1
    assert "shop/views.py:19:17: F821 Undefined name `missing_name`" in failing.stdout, failing.stdout


def test_pyright_on_the_plain_importer(project: Path, pyright: list[str]) -> None:
    stubs = python("-m", "tagstr_mypy.stubgen", "shop", cwd=project)
    assert stubs.returncode == 0, stubs.stderr

    def errors() -> list[tuple[str, int, int, str]]:
        proc = run(*pyright, "--outputjson", "--pythonpath", sys.executable, cwd=project)
        report = json.loads(proc.stdout)
        return sorted((Path(d["file"]).name, d["range"]["start"]["line"] + 1,
                       d["range"]["start"]["character"] + 1, d["rule"])
                      for d in report["generalDiagnostics"] if d["severity"] == "error")

    assert errors() == []
    add(project, "shop/report.py", "\n\nCOUNT: int = TITLE\n")
    assert errors() == [("report.py", 12, 14, "reportAssignmentType")]


def test_ipython_session(project: Path) -> None:
    pytest.importorskip("IPython")
    session = (
        "%load_ext tagstr_runtime\nfrom shop.tags import html\nfrom shop.views import product\n"
        "product('<tea>', 2)\nhtml\"{len(1}\"\n"
    )
    proc = python("-m", "IPython", "--quick", "--simple-prompt", "--colors=nocolor",
                  "--HistoryManager.enabled=False", cwd=project, stdin=session)
    assert "Out[4]: '<li>&lt;tea&gt;: 2.00 EUR</li>'" in proc.stdout, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "TagSyntaxError" in line)
    assert lines[at].endswith(
        "TagSyntaxError: tag string: closing parenthesis '}' does not match opening parenthesis '('"
    ), proc.stdout
    # the caret under the "}" that does not close "len("
    assert lines[at - 1].index("^") - lines[at - 2].index("html") == 11, proc.stdout
