"""Every case file under cases/, checked in one mypy run, against its inline expectations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness import (
    CASES, Diagnostic, diagnostics, expectations, native_parser_by_default, notes_by_position, run_mypy,
    write_config,
)

pytestmark = pytest.mark.subprocess

CASE_FILES = sorted(CASES.glob("*.py"))


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Diagnostic]]:
    work = tmp_path_factory.mktemp("cases")
    write_config(work)
    for case in CASE_FILES:
        shutil.copy(case, work)
    proc = run_mypy(
        "--output", "json", "--no-incremental", "--python-version", "3.12",
        *[case.name for case in CASE_FILES], cwd=work,
    )
    by_file: dict[str, list[Diagnostic]] = {case.name: [] for case in CASE_FILES}
    for found in diagnostics(proc, in_order=True):
        by_file.setdefault(found.file, []).append(found)
    return by_file


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.stem)
def test_case(case: Path, results: dict[str, list[Diagnostic]]) -> None:
    got = results[case.name]
    want = expectations(case, byte_columns=not native_parser_by_default())
    missing = [str(d) for d in want if d not in got]
    unexpected = [str(d) for d in got if d not in want]
    report = ["missing:", *missing, "unexpected:", *unexpected]
    assert not missing and not unexpected, "\n".join(report)
    assert notes_by_position(got) == notes_by_position(want), "notes out of order"
