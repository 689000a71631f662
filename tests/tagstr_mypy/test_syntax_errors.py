"""SPEC 5: every malformed tag string is a mypy syntax error at its exact position.

The sources and positions are the shared SPEC error table (``tests/spec_errors.py``,
which ``tests/tagstr_runtime/parser/test_errors.py`` asserts against the runtime); here
mypy must print the same line and column, on both of its parsers, and never crash.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from harness import write_config
from spec_errors import SPEC_ERRORS

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]  # mypy runs once per case and parser (the fixture)


ERRORS = [case[1:] for case in SPEC_ERRORS]  # (source, message, kind, line, offset, end_line, end_offset)

# Runs mypy in one process per parser over every source, one file per run (a
# syntax error is a blocker: mypy stops at the first).
DRIVER = """
import json, sys
from mypy import api
for flags, path in json.loads(sys.argv[1]):
    out, err, status = api.run([*flags, "--show-column-numbers", "--cache-dir", ".cache", path])
    print(json.dumps([path, flags, out, err, status]))
"""

_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)  \[syntax\]$")


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], tuple[str, int]]:
    work = tmp_path_factory.mktemp("syntax")
    write_config(work)
    jobs = []
    for index, (source, *_rest) in enumerate(ERRORS):
        name = f"case{index}.py"
        (work / name).write_text(source, encoding="utf-8")
        jobs.append(([], name))
        jobs.append((["--no-native-parser"], name))
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(jobs)],
        cwd=work, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    found: dict[tuple[str, bool], tuple[str, int]] = {}
    for line in proc.stdout.splitlines():
        path, flags, out, err, status = json.loads(line)
        found[(path, bool(flags))] = (out + err, status)
    return found


def _capitalized(message: str) -> str:
    return message[0].upper() + message[1:]


@pytest.mark.parametrize("native", [True, False], ids=["native", "stdlib-ast"])
@pytest.mark.parametrize(("index", "case"), list(enumerate(ERRORS)), ids=[case.id for case in SPEC_ERRORS])
def test_syntax_error_position(
    index: int, case: tuple[str, str, str, int, int, int, int], native: bool,
    reports: dict[tuple[str, bool], tuple[str, int]],
) -> None:
    source, message, _kind, line, offset, _end_line, _end_offset = case
    output, status = reports[(f"case{index}.py", not native)]
    assert "INTERNAL ERROR" not in output and "Traceback" not in output, output
    assert status == 2, output
    first = output.splitlines()[0]
    match = _LINE.match(first)
    assert match, output
    # SyntaxError columns are characters on both parsers (only tree positions differ)
    assert int(match["col"]) == offset, output
