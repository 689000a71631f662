"""A language check that fails, through the real flake8: TAG901 at that tag string, naming the
failure, the other checks kept, and a non-zero exit (with the traceback under TAGSTR_STRICT=1).

The failure is real code raising in the real process: a ``sitecustomize`` on the path makes the
HTML checker raise on one tag string's text, as a parser's bug would.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.skipif(importlib.util.find_spec("html5lib") is None, reason="html5lib is not installed"),
]

BROKEN = '''
from tagstr_runtime.analysis.embedded import html

_real = html.check


def check(strings, slots, options):
    if "boom" in strings[0]:
        raise RuntimeError("a parser's bug")
    return _real(strings, slots, options)


html.check = check
'''
SOURCE = '''from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str: ...


a = html"<p>boom</b>"
b = html"<p onclick=\\"go({a})\\">x</p></span>"
'''


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_a_failed_check_is_reported_and_the_others_go_on(tmp_path: Path, strict: bool) -> None:
    (tmp_path / "sitecustomize.py").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "page.py").write_text(SOURCE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    env.pop("TAGSTR_STRICT", None)
    if strict:
        env["TAGSTR_STRICT"] = "1"
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select=TAG", "page.py"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1, proc.stderr
    assert any(line.startswith("page.py:9:10: TAG901 the html check of this tag string failed: RuntimeError: "
                               "a parser's bug") for line in lines), lines
    codes = sorted(line.split()[1] for line in lines)
    assert codes == ["TAG101", "TAG114", "TAG901"], lines  # the other tag string: checked as usual
    assert ("Traceback" in proc.stderr) == strict, proc.stderr
