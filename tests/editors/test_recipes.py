"""The configuration recipes of docs/recipes.md, run as a user would run them.

Each ``<!-- file: NAME -->`` block is written into a fresh project holding
``examples/`` (clean) and one file with a deliberate tag-string error, which
the configured tool must report (so a recipe that silently disables the
plugin fails).  The formatting and ruff hooks (``<!-- file: NAME (LABEL) -->``)
run on a formatted and an unformatted tag-string module: the one must be left
alone, the other formatted, its tag strings as written and its undefined name
reported in place.  The exclusions of troubleshooting.md must keep black and
ruff off a tag-string module named on their command line.
"""

from __future__ import annotations

import importlib.util
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
#: The recipes name the unpublished package by a git checkout at this path (the
#: documented form); the tests put this checkout's path there and nothing else.
DOCUMENTED_PATH = "/path/to/tagstr-toolkit"
# <!-- file: NAME --> or, for a second recipe of one file, <!-- file: NAME (LABEL) -->
_BLOCK = re.compile(r"<!-- file: (?P<key>(?P<name>\S+)(?: \([^)]+\))?) -->\s*```\w*\n(?P<body>.*?)```", re.S)

BAD = '''\
from tagstr_runtime import Decoded, Interpolation


def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


label = "x"
shown = ints"{label}"
missing = ints"{undefined_name}"
'''


def recipes() -> dict[str, str]:
    return {m["key"]: m["body"] for m in _BLOCK.finditer(RECIPES.read_text(encoding="utf-8"))}


def project(tmp_path: Path, key: str) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    for example in (ROOT / "examples").glob("*.py"):
        if example.name != "quickstart.py":  # the demo's driver, not example code
            shutil.copy(example, work)
    (work / "bad.py").write_text(BAD, encoding="utf-8")
    (work / key.split(" ")[0]).write_text(recipes()[key], encoding="utf-8")
    return work


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **(env or {})}
    full.pop("MYPYPATH", None)
    return subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, timeout=900)


def test_every_recipe_is_tested() -> None:
    assert set(recipes()) == {"pyproject.toml", "mypy.ini", "setup.cfg", "tox.ini", ".flake8",
                              ".pre-commit-config.yaml", "pytest.ini", "ipython_config.py", ".coveragerc",
                              ".pre-commit-config.yaml (formatting)", ".pre-commit-config.yaml (ruff)"}


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
        config.read_text(encoding="utf-8").replace(DOCUMENTED_PATH, ROOT.as_posix()),
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


# -- formatting and ruff ----------------------------------------------------------

FORMATTED = '''\
from tagstr_runtime import Decoded, Interpolation


def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


count = 3
shown = ints"{count}"
'''
UGLY = '''\
import os
from tagstr_runtime import Decoded, Interpolation
def ints( *args: Decoded|Interpolation[int] )->str:
    return ""
shown = ints"{  undefined_name  }"
longer = [ints"{1}",ints'{2}' ,]
'''
UGLY_FORMATTED = '''\
def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


shown = ints"{  undefined_name  }"
longer = [
    ints"{1}",
    ints'{2}',
]
'''


def tools_project(tmp_path: Path) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    (work / "formatted.py").write_text(FORMATTED, encoding="utf-8")
    (work / "ugly.py").write_text(UGLY, encoding="utf-8")
    return work


def run_hook(key: str, index: int, work: Path) -> subprocess.CompletedProcess[str]:
    """Hook ``index`` of a pre-commit recipe, run as pre-commit runs it on every file (here)."""
    yaml = pytest.importorskip("yaml")
    hook = yaml.safe_load(recipes()[key])["repos"][0]["hooks"][index]
    assert hook["types_or"] == ["python", "pyi"] and hook["language"] == "python"
    script, *args = hook["entry"].split()
    assert script in ("tagstr-format", "tagstr-ruff-check")  # the console scripts, not python -m
    return run(str(Path(sys.executable).parent / script), *args, "formatted.py", "ugly.py", cwd=work)


def test_formatting_recipe(tmp_path: Path) -> None:
    pytest.importorskip("black")
    work = tools_project(tmp_path)
    proc = run_hook(".pre-commit-config.yaml (formatting)", 0, work)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["reformatted ugly.py", "1 file reformatted, 1 file left unchanged."]
    assert (work / "ugly.py").read_text(encoding="utf-8") == (
        "import os\nfrom tagstr_runtime import Decoded, Interpolation\n\n\n" + UGLY_FORMATTED
    )
    assert (work / "formatted.py").read_text(encoding="utf-8") == FORMATTED
    again = run_hook(".pre-commit-config.yaml (formatting)", 0, work)
    assert again.stderr.splitlines() == ["2 files left unchanged."]


def test_ruff_recipe(tmp_path: Path) -> None:
    pytest.importorskip("ruff")
    work = tools_project(tmp_path)
    check = run_hook(".pre-commit-config.yaml (ruff)", 0, work)
    assert check.returncode == 1, check.stderr
    fixed = (work / "ugly.py").read_text(encoding="utf-8")
    assert "import os" not in fixed  # the tag's own import is kept: it is used
    assert fixed.endswith(UGLY.split("\n", 2)[2])  # nothing else changed, certainly no tag string
    row = fixed[: fixed.index("undefined_name")].count("\n") + 1
    assert check.stdout.splitlines()[0] == f"ugly.py:{row}:17: F821 Undefined name `undefined_name`"
    fmt = run_hook(".pre-commit-config.yaml (ruff)", 1, work)
    assert fmt.returncode == 0, fmt.stderr
    assert (work / "ugly.py").read_text(encoding="utf-8") == (
        "from tagstr_runtime import Decoded, Interpolation\n\n\n" + UGLY_FORMATTED
    )
    assert (work / "formatted.py").read_text(encoding="utf-8") == FORMATTED


def test_troubleshooting_exclusions_apply_to_files_named(tmp_path: Path) -> None:
    """The exclusions of troubleshooting.md keep black and ruff off a tag-string module
    even when it is named on the command line (as pre-commit and editors do)."""
    text = (ROOT / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    config = re.search(r"```toml\n(\[tool\.black\].*?)```", text, re.S)
    assert config is not None
    module = tmp_path / "src" / "app" / "templates" / "page.py"
    module.parent.mkdir(parents=True)
    module.write_text(BAD, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(config[1], encoding="utf-8")
    named = "src/app/templates/page.py"
    checked = 0
    if importlib.util.find_spec("black") is not None:
        proc = run(sys.executable, "-m", "black", "--check", named, cwd=tmp_path)
        assert proc.returncode == 0 and "No Python files are present" in proc.stderr, proc.stderr
        checked += 1
    if importlib.util.find_spec("ruff") is not None:
        for command in (["check"], ["format", "--check"]):
            proc = run(sys.executable, "-m", "ruff", *command, named, cwd=tmp_path)
            assert proc.returncode == 0, proc.stdout + proc.stderr
        checked += 1
    if not checked:
        pytest.skip("neither black nor ruff is installed (dependency group 'tools')")


@pytest.mark.slow  # pre-commit builds its hook environments (pip installs)
@pytest.mark.parametrize("key", [".pre-commit-config.yaml (formatting)", ".pre-commit-config.yaml (ruff)"])
def test_tool_recipes_under_pre_commit(tmp_path: Path, key: str) -> None:
    pytest.importorskip("pre_commit")
    shutil.which("git") or pytest.skip("git is needed by pre-commit")
    work = tools_project(tmp_path)
    # the released package is not on the index this test can reach: use the checkout
    config = recipes()[key].replace(DOCUMENTED_PATH, ROOT.as_posix())
    (work / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull}
    for command in (["git", "init", "-q"], ["git", "add", "-A"]):
        run(*command, cwd=work, env=env).check_returncode()
    pre_commit = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    first = run(*pre_commit, cwd=work, env=env)
    assert first.returncode == 1, first.stdout + first.stderr  # ugly.py changed (and, for ruff, F821)
    assert "files were modified by this hook" in first.stdout, first.stdout
    assert (work / "ugly.py").read_text(encoding="utf-8").endswith(UGLY_FORMATTED)
    assert (work / "formatted.py").read_text(encoding="utf-8") == FORMATTED
    run("git", "add", "-A", cwd=work, env=env).check_returncode()
    second = run(*pre_commit, cwd=work, env=env)
    if "ruff" in key:
        assert second.returncode == 1 and "F821 Undefined name `undefined_name`" in second.stdout, second.stdout
    else:
        assert second.returncode == 0, second.stdout + second.stderr
