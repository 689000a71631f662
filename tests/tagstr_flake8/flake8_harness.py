"""Helpers of the flake8 plugin tests: run the real flake8 in a subprocess, read expectations."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

__all__ = ["EXAMPLES", "STOCK", "Hit", "Run", "example_files", "expectations", "flake8", "name_of", "options"]

EXAMPLES = Path(__file__).parent / "examples"


def example_files(pattern: str = "*.py") -> list[Path]:
    """The example files matching ``pattern``, with those of the packages under ``examples/``
    (``lang_pkg/``: tags imported across modules), that run here."""
    found = [*EXAMPLES.glob(pattern), *EXAMPLES.glob(f"*/{pattern}")]
    return sorted(p for p in found if runs_here(p))


def name_of(path: Path) -> str:
    """An example's path as flake8 prints it when run in ``examples/`` (``lang_pkg/views.py``)."""
    return path.relative_to(EXAMPLES).as_posix()


FORMAT = "%(path)s|%(row)d|%(col)d|%(code)s|%(text)s"
# Rules that raise fail the run instead of being logged and skipped.
ENV = {**os.environ, "TAGSTR_STRICT": "1", "PYTHONWARNINGS": "ignore"}


# Stock flake8: the same flake8 and plugins, this plugin's entry point left out of discovery
# (as benchmarks/bench_flake8.py does), so nothing of ours is even imported.
_STOCK = """
import sys
from flake8.plugins import finder
from flake8.main.cli import main

_find = finder.find_plugins


def find_plugins(cfg, opts):
    return [p for p in _find(cfg, opts) if p.package != "tagstr-toolkit"]


finder.find_plugins = find_plugins
sys.exit(main(sys.argv[1:]))
"""
#: ``python=`` for ``flake8()``: stock flake8, without this plugin.
STOCK = [sys.executable, "-c", _STOCK]


class Hit(NamedTuple):
    path: str
    row: int
    col: int
    code: str
    text: str


class Run(NamedTuple):
    hits: list[Hit]
    returncode: int
    stdout: str
    stderr: str


def flake8(args: list[str], *, stdin: str | None = None, cwd: Path | None = None,
           python: list[str] | None = None) -> Run:
    """Run the real flake8 (``python -m flake8`` of this interpreter) and parse its output."""
    command = [*(python or [sys.executable, "-m", "flake8"]), f"--format={FORMAT}", "--isolated", *args]
    proc = subprocess.run(
        command, input=stdin, capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300,
        encoding="utf-8",
    )
    hits = []
    for line in proc.stdout.splitlines():
        fields = line.split("|", 4)
        if len(fields) == 5 and fields[1].isdigit():  # not a --show-source line
            hits.append(Hit(fields[0], int(fields[1]), int(fields[2]), fields[3], fields[4]))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr)
    return Run(hits, proc.returncode, proc.stdout, proc.stderr)


_EXPECT = re.compile(r"#\s*(?:@([-+]\d+)\s+)?((?:[A-Z]+\d+:\d+\s*)+)$")
_ITEM = re.compile(r"([A-Z]+\d+):(\d+)")
_OPTIONS = re.compile(r"#\s*OPTIONS:\s*(.*)$")
_REQUIRES = re.compile(r"#\s*REQUIRES:\s*(.*)$", re.MULTILINE)


def expectations(path: Path) -> set[tuple[int, int, str]]:
    """``(row, col, code)`` from trailing ``# CODE:col`` comments (``# @-1 CODE:col``: another line).

    Columns are flake8's printed, 1-based ones.
    """
    found = set()
    # split at newlines only, as flake8 numbers lines (a form feed or U+2028 ends none)
    for row, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        match = _EXPECT.search(line)
        if match is None:
            continue
        target = row + int(match.group(1) or 0)
        for code, col in _ITEM.findall(match.group(2)):
            found.add((target, int(col), code))
    return found


def options(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    match = _OPTIONS.match(first)
    return match.group(1).split() if match else []


def requires(path: Path) -> list[str]:
    """The modules a ``# REQUIRES: mod ...`` line among the first three names (a language's parser)."""
    head = "\n".join(path.read_text(encoding="utf-8").split("\n", 3)[:3])
    return [name for found in _REQUIRES.findall(head) for name in found.split()]


def runs_here(path: Path) -> bool:
    """Whether an example file is for this Python: a ``_lt314`` suffix means before 3.14
    (there ``t"..."`` is a t-string), ``_ge312`` from 3.12 on (newer syntax), ``_ge314``
    from 3.14 on (``tag(t"...")``); a ``# REQUIRES:`` line names modules it needs installed."""
    if any(importlib.util.find_spec(name) is None for name in requires(path)):
        return False
    if path.stem.endswith("_lt314"):
        return sys.version_info < (3, 14)
    if path.stem.endswith("_ge312"):
        return sys.version_info >= (3, 12)
    if path.stem.endswith("_ge314"):
        return sys.version_info >= (3, 14)
    return True
