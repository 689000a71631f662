"""The repository's ``.pre-commit-hooks.yaml``, run by the real pre-commit (``try-repo``).

The project checked has its own ``json.py`` and ``types.py``: the hooks run the
console scripts, which do not put the project first on ``sys.path`` as
``python -m`` does (the standard library would be shadowed).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tools_harness import ROOT, run, write

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]  # pre-commit pip-installs the hooks

UGLY = 'from tg import h\nimport os\nx  =  h"{  undefined_name  }"\n'
# a project's own modules named like the standard library's, already formatted and clean
SHADOWS = {name: f'raise ImportError("the project\'s own {name} was imported")\n' for name in ("json.py", "types.py")}


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
    for name, text in SHADOWS.items():
        write(work / name, text)
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull}
    for command in (["git", "init", "-q"], ["git", "add", "-A"]):
        run(*command, cwd=work, env=env).check_returncode()
    # its console script, as users run it: `python -m pre_commit` would import the project's types.py
    pre_commit = Path(sys.executable).parent / "pre-commit"
    proc = run(str(pre_commit), "try-repo", str(ROOT), hook, "--all-files", cwd=work, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert reported in proc.stdout, proc.stdout
    assert "`tg.h` imported but unused" not in proc.stdout  # ruff sees the tag called
    assert path.read_text(encoding="utf-8") == formatted
    assert "Traceback" not in proc.stdout and "is not installed" not in proc.stdout, proc.stdout
    assert {name: (work / name).read_text(encoding="utf-8") for name in SHADOWS} == SHADOWS
