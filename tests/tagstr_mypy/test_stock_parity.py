"""A file without tag strings gets stock mypy's output (issue 11, items 2 and 3).

Differential, on both of mypy's parsers: mypy with the plugin against mypy
without it, over broken f-strings (the issue's reports and a sample of
``tests/fstring_typos.py``); and, for a malformed tag string after broken
code, against stock mypy on the same file with a plain line in the tag
string's place (the first error in source order is the one reported).
mypy stops at the first file with a syntax error, so each file is one
``mypy.api.run``, all of them in one process per configuration (the plugin,
once loaded, stays in its process: the stock runs get a process of their own).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fstring_typos import ISSUE_CASES, rejected, typo_sources

pytestmark = pytest.mark.subprocess

DRIVER = """
import json, sys
from mypy import api
for flags, path in json.loads(sys.argv[1]):
    out, err, status = api.run(
        [*flags, "--config-file", "mypy.ini", "--show-column-numbers", "--cache-dir", "/dev/null", path]
    )
    print(json.dumps([path, flags, out + err, status]))
"""

PARSERS = {"native": [], "stdlib-ast": ["--no-native-parser"]}

# (name, source, twin): the twin is what stock mypy must report the same for.
FIRST_ERROR = [
    ("def_brace", 'def f(:\n    pass\n\n\nz = html"{"\n', 'def f(:\n    pass\n\n\nz = 1\n'),
    ("comma_conversion", 'x = (1 2)\nz = html"{a!x}"\n', "x = (1 2)\nz = 1\n"),
    ("if_unterminated", 'if x\n    pass\nz = html"abc\nw = 2\n', "if x\n    pass\nz = 1\nw = 2\n"),
]


def cases() -> list[tuple[str, str, str]]:
    typos = [s for s in typo_sources() if rejected(s)]
    sample = [*ISSUE_CASES, *typos[len(ISSUE_CASES) :: max(len(typos) // 8, 1)]]
    return [(f"typo{i}", s, s) for i, s in enumerate(sample)] + FIRST_ERROR


def run_all(folder: Path, plugin: bool, names: list[str]) -> dict[tuple[str, str], str]:
    (folder / "mypy.ini").write_text("[mypy]\n" + ("plugins = tagstr_mypy\n" if plugin else ""), encoding="utf-8")
    jobs = [(flags, f"{name}.py") for name in names for flags in PARSERS.values()]
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(jobs)],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    found = {}
    for line in proc.stdout.splitlines():
        path, flags, output, status = json.loads(line)
        assert status in (0, 1, 2) and "INTERNAL ERROR" not in output and "Traceback" not in output, output
        found[(path, " ".join(flags))] = output
    return found


def test_files_without_tag_strings_get_stock_mypy_output(tmp_path: Path) -> None:
    ours_dir, stock_dir = tmp_path / "plugin", tmp_path / "stock"
    ours_dir.mkdir()
    stock_dir.mkdir()
    names = []
    for name, source, twin in cases():
        (ours_dir / f"{name}.py").write_text(source, encoding="utf-8")
        (stock_dir / f"{name}.py").write_text(twin, encoding="utf-8")
        names.append(name)
    ours = run_all(ours_dir, True, names)
    stock = run_all(stock_dir, False, names)
    assert len(stock) == 2 * len(names)
    assert all("[syntax]" in output for output in stock.values())
    differ = {key: (ours[key], stock[key]) for key in stock if ours[key] != stock[key]}
    assert differ == {}
