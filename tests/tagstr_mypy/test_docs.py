"""The snippets of docs/mypy.md, checked as a reader would check them.

A ``<!-- checked: NAME -->`` block is saved as NAME in a project with the
plugin enabled: mypy must print exactly its ``<!-- mypy output: NAME -->``
block (nothing where it has none), and the snippet must run (its asserts
hold) under ``python -m tagstr_runtime``: the docs promise code that works.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import run_mypy, write_config

pytestmark = pytest.mark.subprocess

DOC = Path(__file__).resolve().parents[2] / "docs" / "mypy.md"
_BLOCK = re.compile(
    r"<!-- (?P<kind>checked|mypy output): (?P<name>\S+) -->\s*```\w*\n(?P<body>.*?)```", re.S
)


def blocks(kind: str) -> dict[str, str]:
    found = {}
    for match in _BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        if match["kind"] == kind:
            found[match["name"]] = textwrap.dedent(match["body"])
    return found


SNIPPETS = blocks("checked")


def test_the_pep_draft_section_is_checked() -> None:
    assert {"draft.py", "imported.py", "corrected.py", "widened.py"} <= SNIPPETS.keys()
    assert set(blocks("mypy output")) <= SNIPPETS.keys()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("docs")
    write_config(work)
    for name, body in SNIPPETS.items():
        (work / name).write_text(body, encoding="utf-8")
    return work


@pytest.fixture(scope="module")
def printed(project: Path) -> dict[str, str]:
    """What mypy prints for each snippet, checked together in one run."""
    proc = run_mypy(
        "--no-incremental", "--python-version", "3.12", "--no-error-summary", *SNIPPETS, cwd=project
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    by_file: dict[str, str] = {name: "" for name in SNIPPETS}
    for line in proc.stdout.splitlines(keepends=True):
        by_file[line.split(":", 1)[0]] += line
    return by_file


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_mypy_prints_what_the_doc_shows(name: str, printed: dict[str, str]) -> None:
    assert printed[name] == blocks("mypy output").get(name, "")


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_the_snippet_runs(name: str, project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tagstr_runtime", name], cwd=project, capture_output=True, text=True,
        timeout=300, env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    assert proc.returncode == 0, proc.stderr
