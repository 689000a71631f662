"""The README's quick start: the examples run, then mypy and flake8 check them and a file of mistakes.

1. Every example runs (``run_all.py``).
2. mypy with ``plugins = tagstr_mypy`` and flake8 with the ``TAG`` plugin check
   ``examples/``: no diagnostic.
3. In ``examples/mistakes/``, a small project with its own ``setup.cfg``, they
   check files of deliberate mistakes and print what they report, each at its
   line and column.  mypy runs once per file there: a malformed tag string is a
   syntax error, which stops mypy before it checks anything else.

It is a demo and a test of itself: the exit status is 0 only if steps 1 and 2
are clean and the diagnostics of step 3 are exactly those the ``# expect:``
comments of the mistake files announce (``tool[code]:column`` on the line
reported; ``(before 3.N)`` for one reported on older Pythons only).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

import run_all

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MISTAKES = HERE / "mistakes"
MISTAKE_FILES = ("mistakes.py", "malformed.py")

_EXPECTED = re.compile(r"(mypy|flake8)\[([\w-]+)\]:(\d+)(?: \(before 3\.(\d+)\))?")
_MYPY_LINE = re.compile(r"(?P<file>[^:\s]+):(?P<line>\d+):(?P<column>\d+): error: .*\[(?P<code>[\w-]+)\]$")
_FLAKE8_LINE = re.compile(r"(?P<file>[^:\s]+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]+[0-9]+) ")


class Diagnostic(NamedTuple):
    """One report, as the mistake files' comments spell it."""

    file: str
    line: int
    column: int
    tool: str
    code: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column} {self.tool}[{self.code}]"


def expected_diagnostics(python: tuple[int, int] = (sys.version_info[0], sys.version_info[1])) -> set[Diagnostic]:
    """What the ``# expect:`` comments announce for a Python version (the running one by default)."""
    found: set[Diagnostic] = set()
    for name in MISTAKE_FILES:
        lines = (MISTAKES / name).read_text(encoding="utf-8").splitlines()
        for number, text in enumerate(lines, start=1):
            _, marker, expectations = text.partition("# expect:")
            for tool, code, column, before in _EXPECTED.findall(expectations if marker else ""):
                if not before or python < (3, int(before)):
                    found.add(Diagnostic(name, number, int(column), tool, code))
    return found


def run(tool: str, args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tool args`` in ``cwd`` and show its output under a header."""
    where = "" if cwd == ROOT else f"(in {cwd.relative_to(ROOT).as_posix()}) "
    print(f"\n=== {where}{tool} {' '.join(args)} ===", flush=True)
    done = subprocess.run(
        [sys.executable, "-m", tool, *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    print(done.stdout.rstrip("\n") if done.stdout.strip() else "(nothing to report)", flush=True)
    return done


def reported(tool: str, output: str) -> set[Diagnostic]:
    pattern = _MYPY_LINE if tool == "mypy" else _FLAKE8_LINE
    return {
        Diagnostic(m["file"], int(m["line"]), int(m["column"]), tool, m["code"])
        for m in map(pattern.match, output.splitlines())
        if m
    }


def check(env: dict[str, str]) -> set[Diagnostic] | None:
    """The diagnostics on the mistakes, or ``None`` if the examples do not check clean."""
    clean = [
        run("mypy", ["--strict", "--config-file", "examples/mypy.ini", "examples"], ROOT, env),
        run("flake8", ["examples"], ROOT, env),
    ]
    if any(done.returncode for done in clean):
        return None
    actual: set[Diagnostic] = set()
    for name in MISTAKE_FILES:
        actual |= reported("mypy", run("mypy", [name], MISTAKES, env).stdout)
    return actual | reported("flake8", run("flake8", list(MISTAKE_FILES), MISTAKES, env).stdout)


def main() -> int:
    status = run_all.main()
    if status:
        return status
    # One mypy cache for the runs below, new each time: what the demo shows
    # never depends on what another mypy run left behind.
    with tempfile.TemporaryDirectory(prefix="tagstr-quickstart-") as cache:
        actual = check(dict(os.environ, MYPY_CACHE_DIR=cache))
    if actual is None:
        print("\nThe examples should check clean: is the project installed with its mypy and flake8 extras?")
        return 1
    expected = expected_diagnostics()
    if actual == expected:
        print(f"\n=== {len(actual)} diagnostics, exactly the ones the comments in examples/mistakes/ expect ===")
        return 0
    print("\n=== the diagnostics differ from the comments in examples/mistakes/ ===")
    for diagnostic in sorted(expected - actual):
        print(f"missing:    {diagnostic}")
    for diagnostic in sorted(actual - expected):
        print(f"unexpected: {diagnostic}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
