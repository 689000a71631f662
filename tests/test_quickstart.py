"""The README's quick start does what the README says, from a fresh clone.

The slow test runs the README's command itself, with ``sh``, in a copy of
the checkout that holds what a clone would (the files git tracks, plus new
ones not ignored, so that uncommitted work is what gets tested), with
``python3`` on ``PATH`` being the interpreter that runs the tests.  pip
installs the project and its extras from that copy, the other packages
from the package index.  Its output must be the README's, line for line.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tagstr_runtime
from clean_python import clean_env

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"


def quick_start() -> tuple[str, str]:
    """The README's quick-start command and the output it shows for it."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quick start") :]
    section = section[: section.index("\n## ", 1)]
    command = re.search(r"```sh\n(.*?)\n```", section, re.S)
    output = re.search(r"```text\n(.*?)\n```", section, re.S)
    assert command and output, "the quick start shows a command and its output"
    return command.group(1), output.group(1) + "\n"


def load_quickstart(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(REPO / "examples"))  # it imports run_all, as when run as a script
    spec = importlib.util.spec_from_file_location("quickstart", REPO / "examples" / "quickstart.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_shows_the_expected_diagnostics(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's output (from Python 3.11-3.13) is what the mistake files' comments expect."""
    quickstart = load_quickstart(monkeypatch)
    _, shown = quick_start()
    diagnostics = quickstart.reported("mypy", shown) | quickstart.reported("flake8", shown)
    expected = quickstart.expected_diagnostics((3, 13))
    assert diagnostics == expected
    assert {d.tool for d in expected} == {"mypy", "flake8"}
    assert {d.file for d in expected} == set(quickstart.MISTAKE_FILES)
    assert f"=== {len(expected)} diagnostics, exactly the ones" in shown
    assert quickstart.expected_diagnostics((3, 14)) < expected  # TAG001 is about older Pythons only


def clone(destination: Path) -> Path:
    """The checkout's files as a fresh clone would hold them, uncommitted changes included."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True,
    )
    if listed.returncode:
        pytest.skip(f"not a git checkout: {listed.stderr.strip()}")
    for name in filter(None, listed.stdout.split("\0")):
        source = REPO / name
        if source.is_file():  # a deleted, not yet committed file is still listed
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


@pytest.mark.slow
@pytest.mark.subprocess
def test_quick_start_from_a_fresh_clone(tmp_path: Path) -> None:
    if sys.version_info >= (3, 14):
        pytest.skip("the README shows the output of Python 3.11 to 3.13")
    command, shown = quick_start()
    checkout = clone(tmp_path / "clone")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))
    env = clean_env("VIRTUAL_ENV", "MYPY_", src=False)
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    done = subprocess.run(["sh", "-c", command], cwd=checkout, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == shown, done.stderr
    assert (checkout / ".venv" / "bin" / "python").exists()


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.skipif(sys.version_info >= (3, 14), reason="TAG001 concerns Pythons before 3.14")
def test_the_quick_start_fails_on_a_diagnostic_it_does_not_expect(tmp_path: Path) -> None:
    """A demo that is a test of itself: a report nobody announced makes it exit 1."""
    pytest.importorskip("mypy")
    pytest.importorskip("flake8")
    examples = shutil.copytree(REPO / "examples", tmp_path / "examples",
                               ignore=shutil.ignore_patterns("__pycache__", ".mypy_cache"))
    shutil.copy2(REPO / ".flake8", tmp_path / ".flake8")
    mistakes = examples / "mistakes" / "mistakes.py"
    text = mistakes.read_text(encoding="utf-8")
    mistakes.write_text(text.replace("  # expect: flake8[TAG001]:7 (before 3.14)", ""), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAGSTR_", "MYPY_"))}
    env["PYTHONPATH"] = str(Path(tagstr_runtime.__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, str(examples / "quickstart.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-2:] == ["=== the diagnostics differ from the comments in examples/mistakes/ ===",
                          "unexpected: mistakes.py:43:7 flake8[TAG001]"]
