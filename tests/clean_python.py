"""Python in a clean environment: the one helper of the tests that start interpreters as users do.

A child interpreter must not inherit what this test run set up: ``PYTHON*``
variables (a ``PYTHONPATH``, ``PYTHONWARNINGS``, ``PYTHONDONTWRITEBYTECODE``
change what it imports and how), ``TAGSTR_*`` switches (``TAGSTR_STRICT``,
``TAGSTR_AUTOLOAD``), and whatever else a test names.  It sees the runtime of
this checkout (or of the installed wheel under tox) through ``PYTHONPATH``.
(``tests/`` is on ``sys.path``: see ``tests/conftest.py``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import tagstr_runtime

__all__ = ["SRC", "clean_env", "run_python"]

#: the folder holding ``tagstr_runtime``: ``src/``, or site-packages when tox installs the wheel
SRC = Path(tagstr_runtime.__file__).resolve().parents[1]
#: variables of this test run that a user's interpreter would not have
INHERITED = ("PYTHON", "TAGSTR_")


def clean_env(*drop: str, keep: tuple[str, ...] = (), src: bool = True, **set_vars: str) -> dict[str, str]:
    """``os.environ`` without the variables starting with ``PYTHON``, ``TAGSTR_`` (unless
    named in ``keep``) or a prefix of ``drop``, with ``PYTHONPATH`` naming this runtime
    (unless ``src`` is false), then ``set_vars``."""
    prefixes = tuple(p for p in (*INHERITED, *drop) if p not in keep)
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    if src:
        env["PYTHONPATH"] = str(SRC)
    env.update(set_vars)
    return env


def run_python(
    *args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` (this interpreter) in ``cwd``, in ``env`` (default: ``clean_env()``)."""
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=clean_env() if env is None else env, input=stdin,
        capture_output=True, text=True, timeout=timeout,
    )
