"""``tagstr-ruff-check --stdin-filename PATH``: an editor's unsaved buffer, checked as that file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess
pytest.importorskip("ruff")

SOURCE = 'import os\nfrom tg import t, html\n\nx = t"<p>{undefined_name}</p>"\ny = html"{x}"\n'
COMMAND = [str(Path(sys.executable).parent / "tagstr-ruff-check"), "--select", "F"]


def run(*args: str, source: str = SOURCE, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], input=source, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_reports_name_the_file(tmp_path: Path) -> None:
    proc = run("--stdin-filename", "pkg/page.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[:2] == ["pkg/page.py:1:8: F401 [*] `os` imported but unused",
                                            "pkg/page.py:4:11: F821 Undefined name `undefined_name`"]
    assert not (tmp_path / "pkg").exists()


def test_fix_writes_the_source_to_stdout_and_keeps_the_tag_import(tmp_path: Path) -> None:
    proc = run("--fix", "--stdin-filename", "page.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == SOURCE.replace("import os\n", "")  # `t` is a tag here, not a t-string prefix
    assert "page.py:3:11: F821 Undefined name `undefined_name`" in proc.stderr


def test_a_dash_and_a_malformed_buffer(tmp_path: Path) -> None:
    proc = run("-", source='x = html"<p>{name\n', cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[0] == "-:1:18: invalid-syntax: tag string: expecting '}'", proc.stdout


def test_no_path_at_all_is_an_error(tmp_path: Path) -> None:
    proc = subprocess.run(COMMAND, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "stdin" in proc.stderr
