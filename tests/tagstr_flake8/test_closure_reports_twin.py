"""pyflakes and bugbear on the closures of interpolations, against the f-string twin.

An interpolation is a lambda in the lint tree; where that lambda alone makes a
report (B023, a loop variable bound late; F821/F841, the name of an ``except
... as`` read after the clause deleted it) the f-string twin of the file gets
none, and neither does the tag string: the TAG rules (TAG006, TAG013) report
the hazard instead.  Where a function the user wrote makes it, both get it.
Differential: each case is written once with tag strings and once with
``tag(f"...")``, and the F and B reports must be the same, at the same place
(the twin's columns shifted by the two characters of ``(f``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flake8_harness import flake8

pytestmark = pytest.mark.subprocess

CASES = '''\
def handled(log):
    try:
        pass
    except ValueError as err:
        log.append(lazy"failed: {err}")
    try:
        pass
    except OSError as exc:
        return lazy"{exc!r} {[a for a in exc.args]}"


def in_a_users_lambda(log):
    try:
        pass
    except ValueError as err:
        log.append(lambda: lazy"{err}")


def unused(log):
    try:
        pass
    except ValueError as other:
        log.append(lazy"{log}")


def loops(log, items):
    for item in items:
        log.append(lazy"{item}")
    for item in items:
        log.append(lambda: lazy"{item}")
    return [lazy"{i}" for i in items]
'''

_TAG_STRING = re.compile(r'lazy"([^"]*)"')


def reports(text: str, folder: Path, name: str) -> list[tuple[int, int, str, str]]:
    (folder / name).write_text("from tags import lazy\n\n\n" + text, encoding="utf-8")
    run = flake8(["--select=F,B", name], cwd=folder)
    return [(hit.row, hit.col, hit.code, hit.text) for hit in run.hits]


def test_reports_on_closures_are_the_f_string_twins(tmp_path: Path) -> None:
    ours = reports(CASES, tmp_path, "tagged.py")
    twin_text = _TAG_STRING.sub(r'lazy(f"\1")', CASES)
    lines = CASES.splitlines()
    shifted = []
    for row, col, code, text in reports(twin_text, tmp_path, "twin.py"):
        line = lines[row - 4] if row > 3 else ""
        # each tag string before the column is two characters shorter than its twin
        before = 0
        for match in _TAG_STRING.finditer(line):
            if match.start() + 2 * before < col - 1:
                before += 1
        shifted.append((row, col - 2 * before, code, text))
    assert ours == shifted
    assert {code for *_, code, _ in ours} >= {"F821", "F841", "B023"}  # the user's own closures
