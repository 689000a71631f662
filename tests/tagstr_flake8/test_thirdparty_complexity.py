"""flake8-cognitive-complexity on files with tag strings: the f-string twin's numbers.

The plugin scores each function by its nesting, and a lambda nests: in the
lint tree an interpolation's lambda would make ``{a if b else c}`` cost one
more than in the f-string twin (``host.eager_tree``).  Differential: the same
functions with tag strings and with ``lazy(f"...")``, every score reported
(``--max-cognitive-complexity=0``); and real code, click's ``termui.py`` (36
against the original's 28 before), its f-strings turned into tag strings.

Skipped where the plugin is not installed (the dependency group
``thirdparty-flake8``; tox -e flake8-thirdparty).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from flake8_harness import Hit, flake8
from fstring_tags import converted, package_files

pytest.importorskip("flake8_cognitive_complexity", reason="not installed (tox -e flake8-thirdparty)")

pytestmark = pytest.mark.subprocess

RUNNER = Path(__file__).parent / "thirdparty_runner.py"
KEEP = "--keep=flake8_cognitive_complexity,tagstr-toolkit"

CASES = '''\
from tags import lazy


def pick(a, b, items):
    out = []
    for item in items:
        if item:
            out.append(lazy"{a if b else item} {[x for x in items if x]}")
    return out, lazy"{a and b or items}"


def users_own_lambda(a, b):
    return lazy"{(lambda: a if b else b)()}"


def nested(a, b, c):
    if a:
        return lazy"{lazy'{b if c else a}' if a else c}"
    return None
'''
# the same, each tag string written tag(f"..."), by hand
TWIN = CASES.replace(
    'lazy"{a if b else item} {[x for x in items if x]}"', 'lazy(f"{a if b else item} {[x for x in items if x]}")'
).replace('lazy"{a and b or items}"', 'lazy(f"{a and b or items}")').replace(
    'lazy"{(lambda: a if b else b)()}"', 'lazy(f"{(lambda: a if b else b)()}")'
).replace('''lazy"{lazy'{b if c else a}' if a else c}"''', '''lazy(f"{lazy(f'{b if c else a}') if a else c}")''')


def scores(folder: Path, *files: str) -> list[Hit]:
    run = flake8(["--select=CCR", "--max-cognitive-complexity=0", *files], cwd=folder,
                 python=[sys.executable, str(RUNNER), KEEP, "--"])
    return sorted(run.hits)


def test_scores_are_the_f_string_twins(tmp_path: Path) -> None:
    assert "lazy\"" not in TWIN and "lazy'" not in TWIN
    (tmp_path / "tagged.py").write_text(CASES, encoding="utf-8")
    (tmp_path / "twin.py").write_text(TWIN, encoding="utf-8")
    ours = [(h.row, h.col, h.text) for h in scores(tmp_path, "tagged.py")]
    theirs = [(h.row, h.col, h.text) for h in scores(tmp_path, "twin.py")]
    assert ours == theirs
    assert len(ours) == 3 and ours[0][2].startswith("Cognitive complexity is too high (")


def test_real_code_scores_are_the_originals(tmp_path: Path) -> None:
    pytest.importorskip("click")
    original = next(p for p in package_files("click") if p.name == "termui.py")
    text = original.read_text(encoding="utf-8")
    tagged, count = converted(text)
    assert count > 10
    (tmp_path / "tagged").mkdir()
    (tmp_path / "tagged" / "termui.py").write_text(tagged, encoding="utf-8")
    (tmp_path / "twin").mkdir()
    (tmp_path / "twin" / "termui.py").write_text(text, encoding="utf-8")
    ours = [(h.row, h.col, h.text) for h in scores(tmp_path / "tagged", "termui.py")]
    theirs = [(h.row, h.col, h.text) for h in scores(tmp_path / "twin", "termui.py")]
    assert ours == theirs and len(ours) > 10
