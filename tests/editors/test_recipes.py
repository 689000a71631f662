"""The configuration recipes of docs/recipes.md, run as a user would run them.

Each ``<!-- file: NAME -->`` block is written into a fresh project holding
``examples/`` (clean) and one file with a deliberate tag-string error, which
the configured tool must report (so a recipe that silently disables the
plugin fails).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "docs" / "recipes.md"
_BLOCK = re.compile(r"<!-- file: (?P<name>\S+) -->\s*```\w*\n(?P<body>.*?)```", re.S)

BAD = '''\
from tagstr_runtime import Decoded, Interpolation


def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


label = "x"
shown = ints"{label}"
missing = ints"{undefined_name}"
'''


def recipes() -> dict[str, str]:
    return {m["name"]: m["body"] for m in _BLOCK.finditer(RECIPES.read_text(encoding="utf-8"))}


def project(tmp_path: Path, name: str) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    for example in (ROOT / "examples").glob("*.py"):
        shutil.copy(example, work)
    (work / "bad.py").write_text(BAD, encoding="utf-8")
    (work / name).write_text(recipes()[name], encoding="utf-8")
    return work


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **(env or {})}
    full.pop("MYPYPATH", None)
    return subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, timeout=900)


def test_every_recipe_is_tested() -> None:
    assert set(recipes()) == {"pyproject.toml", "mypy.ini", "setup.cfg", "tox.ini", ".flake8",
                              ".pre-commit-config.yaml", "pytest.ini", "ipython_config.py", ".coveragerc"}


@pytest.mark.parametrize("name", ["pyproject.toml", "mypy.ini", "setup.cfg"])
def test_mypy_recipes(tmp_path: Path, name: str) -> None:
    pytest.importorskip("mypy.api")
    work = project(tmp_path, name)
    proc = run(sys.executable, "-m", "mypy", "--no-incremental", ".", cwd=work)
    output = proc.stdout + proc.stderr
    reported = sorted(line.split(": error: ")[0] for line in output.splitlines() if ": error: " in line)
    assert reported == ["bad.py:10", "bad.py:9"], output
    assert "[tagstr-interpolation]" in output and "[name-defined]" in output, output


@pytest.mark.parametrize("name", ["setup.cfg", "tox.ini", ".flake8"])
def test_flake8_recipes(tmp_path: Path, name: str) -> None:
    pytest.importorskip("flake8.main")
    pytest.importorskip("libcst")
    work = project(tmp_path, name)
    proc = run(sys.executable, "-m", "flake8", ".", cwd=work)
    assert proc.stdout.splitlines() == ["./bad.py:10:17: F821 undefined name 'undefined_name'"], (
        proc.stdout + proc.stderr
    )


def test_coverage_recipe(tmp_path: Path) -> None:
    """Without the plugin the report stops at the first tag-string module."""
    pytest.importorskip("coverage")
    work = project(tmp_path, ".coveragerc")
    (work / "use.py").write_text("import tagstr_runtime\n\ntagstr_runtime.install()\nimport bad, greet\n")
    run(sys.executable, "-m", "coverage", "run", "--source=.", "use.py", cwd=work).check_returncode()
    proc = run(sys.executable, "-m", "coverage", "report", cwd=work)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines() if ".py " in line}
    assert rows["bad.py"][:2] == ["6", "0"], proc.stdout  # statements, missed: all of it ran
    assert rows["greet.py"][1] != rows["greet.py"][0], proc.stdout  # imported: some lines ran
    assert rows["sql.py"][1] == rows["sql.py"][0], proc.stdout  # never imported, still reported


@pytest.mark.slow  # pre-commit builds its hook environments (pip installs)
def test_pre_commit_recipe(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit")
    shutil.which("git") or pytest.skip("git is needed by pre-commit")
    work = project(tmp_path, ".pre-commit-config.yaml")
    (work / "mypy.ini").write_text(recipes()["mypy.ini"], encoding="utf-8")
    (work / ".flake8").write_text(recipes()[".flake8"], encoding="utf-8")
    config = work / ".pre-commit-config.yaml"
    # the released package is not on the index this test can reach: use the checkout
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            '"tagstr-toolkit[mypy,flake8]"', f'"tagstr-toolkit[mypy,flake8] @ {ROOT.as_uri()}"'
        ),
        encoding="utf-8",
    )
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull}
    bad = work / "bad.py"
    bad_text = bad.read_text(encoding="utf-8")
    bad.unlink()
    for command in (["git", "init", "-q"], ["git", "add", "-A"]):
        run(*command, cwd=work, env=env).check_returncode()
    pre_commit = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    clean = run(*pre_commit, cwd=work, env=env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"flake8 \(tag strings\)\.+Passed", clean.stdout), clean.stdout
    assert re.search(r"mypy \(tag strings\)\.+Passed", clean.stdout), clean.stdout
    bad.write_text(bad_text, encoding="utf-8")
    run("git", "add", "-A", cwd=work, env=env).check_returncode()
    failing = run(*pre_commit, cwd=work, env=env)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.py:10:17: F821 undefined name 'undefined_name'" in failing.stdout, failing.stdout
    assert "[tagstr-interpolation]" in failing.stdout, failing.stdout


DOCTESTED = '''\
"""
>>> html"<b>{'&'}</b>"
'<b>&amp;</b>'
"""


def html(*args):
    return "".join(a if isinstance(a, str) else str(a[0]()).replace("&", "&amp;") for a in args)
'''


def test_doctest_recipe(tmp_path: Path) -> None:
    work = project(tmp_path, "pytest.ini")
    (work / "tags.py").write_text(DOCTESTED, encoding="utf-8")
    (work / "usage.txt").write_text(">>> from tags import html\n>>> html\"{1}\"\n'2'\n", encoding="utf-8")
    proc = run(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tags.py", "usage.txt", cwd=work)
    # tags.py passes; usage.txt fails where its expected output is wrong (line 3)
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "usage.txt:2: DocTestFailure" in proc.stdout, proc.stdout


def test_ipython_recipe(tmp_path: Path) -> None:
    pytest.importorskip("IPython")
    work = project(tmp_path, "ipython_config.py")
    profile = tmp_path / "ipythondir" / "profile_default"
    profile.mkdir(parents=True)
    shutil.move(work / "ipython_config.py", profile / "ipython_config.py")
    session = "from bad import ints\nints\"{1}\"\nints\"{1\"\n"
    proc = subprocess.run(
        [sys.executable, "-m", "IPython", "--simple-prompt", "--colors=nocolor",
         "--HistoryManager.enabled=False"],
        input=session, cwd=work, capture_output=True, text=True, timeout=120,
        env={**os.environ, "IPYTHONDIR": str(tmp_path / "ipythondir"), "TERM": "dumb"},
    )
    assert "Out[2]: ''" in proc.stdout, proc.stdout + proc.stderr
    assert "TagSyntaxError: tag string: expecting '}'" in proc.stdout, proc.stdout
