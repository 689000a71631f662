"""The repository's ``.pre-commit-hooks.yaml``, run by the real pre-commit (``try-repo``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tools_harness import ROOT, run, write

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]  # pre-commit pip-installs the hooks

UGLY = 'from tg import h\nimport os\nx  =  h"{  undefined_name  }"\n'


@pytest.mark.parametrize(
    ("hook", "formatted", "reported"),
    [
        ("tagstr-black", 'from tg import h\nimport os\n\nx = h"{  undefined_name  }"\n', ""),
        ("tagstr-ruff-format", 'from tg import h\nimport os\n\nx = h"{  undefined_name  }"\n', ""),
        ("tagstr-ruff-check", UGLY, "mod.py:3:12: F821 Undefined name `undefined_name`"),
    ],
)
def test_hook(tmp_path: Path, hook: str, formatted: str, reported: str) -> None:
    pytest.importorskip("pre_commit")
    shutil.which("git") or pytest.skip("git is needed by pre-commit")
    (ROOT / ".git").exists() or pytest.skip("not run from a git checkout")
    work = tmp_path / "project"
    path = write(work / "mod.py", UGLY)
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull}
    for command in (["git", "init", "-q"], ["git", "add", "-A"]):
        run(*command, cwd=work, env=env).check_returncode()
    proc = run("python", "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files", cwd=work, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert reported in proc.stdout, proc.stdout
    assert "`tg.h` imported but unused" not in proc.stdout  # ruff sees the tag called
    assert path.read_text(encoding="utf-8") == formatted
