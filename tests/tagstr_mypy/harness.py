"""Run real mypy (with the plugin) and compare with expectations written in case files.

A case file is plain Python whose lines may end with expectations::

    x = html"{n.foo}"  # E:11: "int" has no attribute "foo"  [attr-defined]
    reveal_type(x)     # N:13: Revealed type is "str"

``E``/``N``/``W`` is the severity, then the 1-based column mypy prints with
``--show-column-numbers``, then the message and code exactly as mypy prints
them.  Several expectations on one line are separate ``# E:`` comments.  An
expectation for another line is written ``# E@LINE:COL: ...``.  A line with
no expectation must get no diagnostic.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).parent
CASES = HERE / "cases"
SEVERITY = {"E": "error", "N": "note", "W": "warning"}
_EXPECT = re.compile(r"#\s*([ENW])(?:@(\d+))?:(\d+):\s(.*?)(?=\s+#\s*[ENW](?:@\d+)?:\d+:\s|$)")


#: ``tags.py`` of the configuration tests: a tag function, and a function that is no tag.
TAGS = '''\
from tagstr_runtime import Decoded, Interpolation


def html(*args: Decoded | Interpolation[object]) -> str:
    return ""


def shout(text: str) -> str:
    return text
'''


class Diagnostic(NamedTuple):
    file: str
    line: int
    column: int  # 1-based, as mypy prints it
    severity: str
    message: str  # with the code appended as mypy prints it: "msg  [code]"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


def native_parser_by_default() -> bool:
    """mypy 2.x parses natively by default (character columns); older mypy with
    the stdlib ``ast`` (UTF-8 byte columns). Case files are written in characters."""
    try:
        from mypy.options import Options
    except ImportError:  # collected where mypy cannot run (Pyodide): tests deselected
        return False
    return bool(getattr(Options(), "native_parser", False))


def native_parser_available() -> bool:
    """mypy's native parser can be asked for (``--native-parser``: every mypy 2.x with its
    ``ast_serialize``)."""
    try:
        import ast_serialize  # noqa: F401
        from mypy.options import Options
    except ImportError:
        return False
    return hasattr(Options(), "native_parser")


def expectations(path: Path, byte_columns: bool = False) -> list[Diagnostic]:
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        for sev, at, col, message in _EXPECT.findall(line):
            lineno, column = (int(at) if at else number), int(col)
            if byte_columns:
                column = len(lines[lineno - 1][: column - 1].encode("utf-8")) + 1
            found.append(Diagnostic(path.name, lineno, column, SEVERITY[sev], message.rstrip()))
    return found


def run_mypy(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python -m mypy ARGS`` with the plugin enabled by ``cwd``'s config (if any)."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("MYPYPATH", None)
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout,
    )


def diagnostics(proc: subprocess.CompletedProcess[str], *, in_order: bool = False) -> list[Diagnostic]:
    """Parse ``--output json`` (one object per line); fail on crashes.  The
    notes mypy prints after an error at its position come as that error's
    ``hint``: each line is one note.  Sorted unless ``in_order``."""
    assert "INTERNAL ERROR" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    found = []
    for line in proc.stdout.splitlines():
        if not line.startswith("{"):
            continue
        item = json.loads(line)
        message = item["message"]
        if item.get("code") and item["severity"] != "note":
            message += f"  [{item['code']}]"
        at = (Path(item["file"]).name, item["line"], item["column"] + 1)
        found.append(Diagnostic(*at, item["severity"], message))
        found.extend(Diagnostic(*at, "note", hint) for hint in (item.get("hint") or "").splitlines())
    return found if in_order else sorted(found)


def notes_by_position(found: list[Diagnostic]) -> dict[tuple[str, int, int], list[str]]:
    """The notes at each position, in the order given."""
    notes: dict[tuple[str, int, int], list[str]] = {}
    for d in found:
        if d.severity == "note":
            notes.setdefault((d.file, d.line, d.column), []).append(d.message)
    return notes


def write_config(directory: Path, extra: str = "") -> Path:
    config = directory / "mypy.ini"
    config.write_text(f"[mypy]\nplugins = tagstr_mypy\n{extra}", encoding="utf-8")
    return config
