"""pyflakes and bugbear on the closures of interpolations, against the f-string twin.

An interpolation is a lambda in the lint tree; where that lambda alone makes a
report (B023, a loop variable bound late; F821/F841, the name of an ``except
... as`` read after the clause deleted it) the f-string twin of the file gets
none, and neither does the tag string: the TAG rules (TAG006, TAG013) report
the hazard instead.  Where a function the user wrote makes it, both get it.
Differential: each case is written once with tag strings and once with
``tag(f"...")``, and the F and B reports must be the same, at the same place
(the twin's columns shifted by the two characters of ``(f``).  On real code too:
the f-strings of click, httpx and rich turned into same-width tag strings
(``fstring_tags``), against the originals.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flake8_harness import flake8
from fstring_tags import converted, package_files

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


def assigned_in_the_loop(log, rows):
    for row in rows:
        label = row.upper()
        log.append(lazy"<td>{label}</td>")
        log.append(lambda: lazy"<td>{label}</td>")
    while rows:
        last = rows.pop()
        log.append(lazy"{last}")
    for row in rows:
        def cell():
            return lazy"{row} {label}"
        log.append(cell)
        log.append([lazy"{c} {row}" for c in row])
        log.append([[lazy"{c} {d}" for d in c] for c in row])
        log.append(lambda: [lazy"{c} {row}" for c in row])


def called_in_the_iteration(log, rows):
    # functions bugbear leaves out (called before the iteration ends): the twin gets no
    # B023, and neither does the tag string (issue 38)
    for row in rows:
        def show():
            return lazy"{row}"
        show()
    for key in rows:
        log.sort(key=lambda r: lazy"{r}{key}")
    for each in rows:
        log.append(list(map(lambda r: lazy"{r}{each}", rows)))
    for now in rows:
        log.append((lambda: lazy"{now}")())


def rebound_by_the_function(log, rows):
    total = 0
    for row in rows:
        total = total + 1

        def bump(row=row):
            nonlocal total
            total = lazy"{total} {row}"
        log.append(bump)
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
        # the twin of each tag string before the column has "(f" more, and ")" after it
        shift = 0
        for match in _TAG_STRING.finditer(line):
            if match.start() + shift < col - 1:
                shift += 2 if match.end() + shift + 2 >= col else 3
        shifted.append((row, col - shift, code, text))
    assert ours == shifted
    assert {code for *_, code, _ in ours} >= {"F821", "F841", "B023"}  # the user's own closures
    # a name assigned in the loop's body is bound late only by the user's own functions
    late = {(row, text.split("'")[1]) for row, _, code, text in ours if code == "B023" and row > 35}
    users = {(41, "label"), (47, "row"), (51, "row")}
    assert users <= late
    # older bugbear (24.12) also reports the functions called before the iteration ends, on
    # the twin alike (compared above); nothing else
    called = 3 + lines.index("def called_in_the_iteration(log, rows):") + 1
    assert all(row > called for row, _ in late - users), late - users


# Real code (the three packages): files whose f-strings, turned into tag strings,
# read names assigned in a loop's body; the whole packages in the slow test.
REAL_FILES = ["click/formatting.py", "httpx/_urls.py", "rich/markup.py"]
PACKAGES = ["click", "httpx", "rich"]


def _bugbear_on_both(files: list[Path], folder: Path) -> tuple[set[tuple[str, ...]], set[tuple[str, ...]], int]:
    """bugbear's reports on the converted files and on the originals (their twins), and the
    number of tag strings: each side in one flake8 run."""
    count = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        tagged, converted_here = converted(text)
        if not converted_here:  # the same file on both sides
            continue
        count += converted_here
        relative = Path(path.parent.name, path.name) if path.parent.name in PACKAGES else path
        for side, content in (("tagged", tagged), ("twin", text)):
            (folder / side / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / side / relative).write_text(content, encoding="utf-8")
    sides = []
    for side in ("tagged", "twin"):
        run = flake8(["--select=B", "."], cwd=folder / side)
        sides.append({(hit.path, str(hit.row), str(hit.col), hit.code, hit.text) for hit in run.hits})
    return sides[0], sides[1], count


def _installed(relative: str) -> Path:
    package, _, name = relative.partition("/")
    pytest.importorskip(package, reason=f"{package} is not installed (dependency group 'tests')")
    found = [p for p in package_files(package) if p.name == name and p.parent.name == package]
    assert found, relative
    return found[0]


def test_bugbear_on_real_code_is_the_f_string_twins(tmp_path: Path) -> None:
    ours, theirs, count = _bugbear_on_both([_installed(f) for f in REAL_FILES], tmp_path)
    assert count >= 20
    assert ours == theirs


@pytest.mark.slow
def test_bugbear_on_whole_packages_is_the_f_string_twins(tmp_path: Path) -> None:
    files = [p for package in PACKAGES for p in package_files(pytest.importorskip(package).__name__)]
    ours, theirs, count = _bugbear_on_both(files, tmp_path)
    assert count > 300 and theirs
    assert ours == theirs
