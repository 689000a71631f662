"""``tagstr_mypy.plugin(version)`` refuses a mypy it does not support with one line, as mypy runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tagstr_mypy


@pytest.mark.parametrize("version", ["2.0.0", "2.4.1", "2.1.0+dev.abc123", "2.3.0rc1"])
def test_supported_versions_get_the_plugin(version: str) -> None:
    assert tagstr_mypy.plugin(version).__name__ == "TagstrPlugin"


@pytest.mark.parametrize("version", ["1.15.0", "1.19.1", "2.5.0", "3.0.0", "0.991"])
def test_other_versions_are_refused_in_one_line(version: str) -> None:
    with pytest.raises(SystemExit) as refused:
        tagstr_mypy.plugin(version)
    message = str(refused.value)
    assert "\n" not in message and f"this is mypy {version}" in message and "mypy >= 2.0, < 2.5" in message


@pytest.mark.subprocess
def test_mypy_prints_the_line_and_stops(tmp_path: Path) -> None:
    """What the VS Code extension's bundled mypy shows: the line, no traceback (here a mypy
    that reports an old version: the real 1.15 cannot be installed beside the tests' mypy)."""
    pytest.importorskip("mypy")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    driver = "import mypy.build, mypy.main; mypy.build.__version__ = '1.15.0'; mypy.main.main()"
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    proc = subprocess.run([sys.executable, "-c", driver, "--no-incremental", "m.py"], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "tagstr_mypy needs mypy >= 2.0, < 2.5 (this is mypy 1.15.0)" in output, output
    assert "Traceback" not in output and "AttributeError" not in output, output
