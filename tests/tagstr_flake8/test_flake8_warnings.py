"""CPython's own warnings about a file with tag strings are printed once, as for any file.

flake8's ``ast.parse`` shows the warnings of the code before the first tag
string, then the desugarer parses that code again: an invalid escape
sequence was printed twice (a ``SyntaxWarning`` on 3.12+, a
``DeprecationWarning`` on 3.11, shown here with ``-W always``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess


@pytest.mark.parametrize(
    "source",
    [
        'x = "\\d"\ny = html"{x}"\n',  # before the tag string: shown by flake8's parse
        'y = html"{x}"\nx = "\\d"\n',  # after it: shown by the desugarer's parse only
        'x = "\\d"\ny = html"{x}"\nz = "\\w"\n',
    ],
    ids=["before", "after", "both"],
)
def test_each_warning_once(tmp_path: Path, source: str) -> None:
    (tmp_path / "w.py").write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONWARNINGS": "always"}
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select=E999,W605", "w.py"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )
    assert "E999" not in proc.stdout
    escapes = source.count("\\")
    assert proc.stderr.count("invalid escape sequence") == escapes, proc.stderr
