"""What the shipping tests share: running a user's commands in a venv (fixtures: conftest.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from clean_python import clean_env

REPO = Path(__file__).resolve().parents[2]
BIN = "Scripts" if os.name == "nt" else "bin"


def venv_python(venv: Path) -> Path:
    return venv / BIN / ("python.exe" if os.name == "nt" else "python")


def user_env(**extra: str) -> dict[str, str]:
    """A user's environment: none of this test run's ``PYTHON*``/``TAGSTR_*`` variables,
    no ``PYTHONPATH`` (the venv's own installed copy runs)."""
    return clean_env("PIP_REQUIRE", src=False, **extra)


def run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(arg) for arg in args], cwd=cwd, env=user_env() if env is None else env,
                          capture_output=True, text=True, timeout=timeout)
