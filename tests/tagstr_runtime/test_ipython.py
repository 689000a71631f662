"""The IPython extension, through a real ``ipython`` reading a session from stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("IPython", reason="IPython is not installed (the tests dependency group has it)")

pytestmark = pytest.mark.subprocess

TAG = 'def html(*args): return "".join(a if isinstance(a, str) else str(a[0]()) for a in args)\n'


def ipython(session: str, tmp_path: Path, *options: str) -> str:
    """The transcript of a terminal IPython fed ``session`` line by line."""
    env = {**os.environ, "IPYTHONDIR": str(tmp_path / "ipythondir"), "TERM": "dumb"}
    proc = subprocess.run(
        [sys.executable, "-m", "IPython", "--quick", "--simple-prompt", "--colors=nocolor",
         "--HistoryManager.enabled=False", *options],
        input=session, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_load_ext_makes_cells_accept_tag_strings(tmp_path: Path) -> None:
    session = (
        "%load_ext tagstr_runtime\n" + TAG + "\nname = '<i>'\nhtml\"<b>{name}</b>\"\n"
        "def fields(*args): return [a[1:] for a in args if not isinstance(a, str)]\n\n"
        "fields\"{name!r:>{6}}\"\n"
    )
    out = ipython(session, tmp_path)
    assert "Out[4]: '<b><i></b>'" in out, out
    assert "Out[6]: [('name', 'r', '>6')]" in out, out


def test_without_the_extension_a_tag_string_is_a_syntax_error(tmp_path: Path) -> None:
    out = ipython(TAG + "\nhtml\"<b>{1}</b>\"\n", tmp_path)
    assert "SyntaxError: invalid syntax" in out, out


def test_tracebacks_point_into_the_cell(tmp_path: Path) -> None:
    # a three-line cell: the failing interpolation is on its line 3
    session = TAG + "\nif True:\n    x = 1\n    html\"a {x / 0} b\"\n\n"
    out = ipython(session, tmp_path, "--ext", "tagstr_runtime")
    assert "ZeroDivisionError" in out, out
    assert "Cell In[2], line 3" in out, out
    assert '----> 3     html"a {x / 0} b"' in out, out


def test_malformed_tag_string_is_shown_at_its_position(tmp_path: Path) -> None:
    out = ipython("%load_ext tagstr_runtime\nhtml\"{name\"\n", tmp_path)
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "TagSyntaxError" in line)
    assert lines[at].endswith("TagSyntaxError: tag string: expecting '}'"), out
    assert lines[at - 2].strip() == 'html"{name"' and lines[at - 1].index("^") == 14, out
    assert "Traceback" not in out and "tagstr_runtime/_" not in out, out


def test_plain_cells_and_unload_are_stock(tmp_path: Path) -> None:
    typo = 'x = f"{1!z}"'  # complete on every version (3.12+ would wait for more of f"{1)
    try:
        compile(typo, "<cell>", "exec")
    except SyntaxError as exc:
        stock = f"SyntaxError: {exc.msg}"
    session = (
        "%load_ext tagstr_runtime\n" + typo + "\n"  # CPython's own error, not ours
        + TAG + "\n%unload_ext tagstr_runtime\nhtml\"{1}\"\n"
    )
    out = ipython(session, tmp_path)
    assert stock in out, out
    assert "TagSyntaxError" not in out, out
    assert out.count("SyntaxError: invalid syntax") == 1, out  # after unloading


def test_run_magic_runs_a_script_with_tag_strings(tmp_path: Path) -> None:
    """Issue 36: ``%run script.py`` compiles the file with the builtin ``compile``; the
    extension installs the compile hook while it is loaded (and removes it on unload)."""
    (tmp_path / "script.py").write_text(
        TAG + "who = 'world'\nprint(html\"hello {who}\")\n", encoding="utf-8"
    )
    session = "%load_ext tagstr_runtime\n%run script.py\nwho\n%unload_ext tagstr_runtime\n%run script.py\n"
    out = ipython(session, tmp_path)
    assert "hello world" in out, out
    assert "Out[3]: 'world'" in out, out
    assert out.count("SyntaxError: invalid syntax") == 1, out  # after unloading, as without it
