"""Every case file under cases/, checked in one mypy run, against its inline expectations.

cases314/ holds files checked with ``--python-version 3.14`` (template strings:
``tag(t"...")``); they have no tag strings, so mypy's native parser reads their
t-strings on any host.

The expectations are written for mypy's native parser (character columns, each
expression at its own position), which every supported mypy has and which the
run asks for.  What its stdlib-``ast`` parser makes of the same tag strings is
what it makes of their f-string twins (``test_fstring_parity``, ``test_real_code``).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from harness import (
    CASES, Diagnostic, diagnostics, expectations, native_parser_available, notes_by_position, run_mypy,
    write_config,
)

pytestmark = pytest.mark.subprocess

CASE_FILES = sorted(CASES.glob("*.py"))
CASE_FILES_314 = sorted((CASES.parent / "cases314").glob("*.py"))


def check_all(work: Path, cases: list[Path], python_version: str) -> dict[str, list[Diagnostic]]:
    write_config(work)
    for case in cases:
        shutil.copy(case, work)
    parser = ["--native-parser"] if native_parser_available() else []
    proc = run_mypy(
        "--output", "json", "--no-incremental", "--python-version", python_version, *parser,
        *[case.name for case in cases], cwd=work,
    )
    by_file: dict[str, list[Diagnostic]] = {case.name: [] for case in cases}
    for found in diagnostics(proc, in_order=True):
        by_file.setdefault(found.file, []).append(found)
    return by_file


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Diagnostic]]:
    return check_all(tmp_path_factory.mktemp("cases"), CASE_FILES, "3.12")


@pytest.fixture(scope="module")
def results_314(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Diagnostic]]:
    if sys.version_info < (3, 14) and not native_parser_available():
        pytest.skip("t-strings need mypy's native parser (mypy >= 2.4) or a Python 3.14 host")
    return check_all(tmp_path_factory.mktemp("cases314"), CASE_FILES_314, "3.14")


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.stem)
def test_case(case: Path, results: dict[str, list[Diagnostic]]) -> None:
    missing = [name for name in requires(case) if importlib.util.find_spec(name) is None]
    if missing:  # the embedded-language checks' parsers (an optional extra)
        pytest.skip(f"needs {', '.join(missing)}")
    compare(case, results)


def requires(case: Path) -> list[str]:
    """The modules a ``# REQUIRES: mod ...`` line among the first three names."""
    head = case.read_text(encoding="utf-8").split("\n", 3)[:3]
    return [name for line in head if line.startswith("# REQUIRES:") for name in line.split(":", 1)[1].split()]


@pytest.mark.parametrize("case", CASE_FILES_314, ids=lambda p: p.stem)
def test_case_314(case: Path, results_314: dict[str, list[Diagnostic]]) -> None:
    compare(case, results_314)


def compare(case: Path, results: dict[str, list[Diagnostic]]) -> None:
    got = results[case.name]
    want = expectations(case, byte_columns=not native_parser_available())
    missing = [str(d) for d in want if d not in got]
    unexpected = [str(d) for d in got if d not in want]
    report = ["missing:", *missing, "unexpected:", *unexpected]
    assert not missing and not unexpected, "\n".join(report)
    assert notes_by_position(got) == notes_by_position(want), "notes out of order"
