"""What the plugin builds for a file with tag strings: in which generation of the collector, and for how long.

In-process: where an object sits in the cyclic collector, and what stays
alive, is no output of flake8's.  Why it matters is in ``tagstr_flake8.lint.collector``.
"""

from __future__ import annotations

import ast
import gc
import weakref
from pathlib import Path

import pytest

from tagstr_flake8.lint.tag_file import TagFile, analyse

FUNCTION = 'def page(user):\n    return html"<b>{user.name}</b> {user.email!r}"\n\n\n'
LARGE = FUNCTION * 1000  # some 75,000 objects: above _collector.LARGE
SMALL = FUNCTION * 20


def analysed(source: str = LARGE) -> TagFile:
    lines = source.splitlines(keepends=True)
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return analyse(lines, "t.py", exc)
    raise AssertionError("no tag string")


def oldest() -> set[int]:
    return {id(obj) for obj in gc.get_objects(generation=2)}


def test_a_large_build_goes_to_the_oldest_generation_and_others_gc_state_is_kept() -> None:
    interpreters_own = gc.get_freeze_count()  # CPython 3.12 freezes a few hundred tuples at start-up
    if not interpreters_own:
        tagfile = analysed()
        moved = oldest()
        assert id(tagfile.tree) in moved and all(id(site.call) in moved for site in tagfile.sites())
        assert gc.isenabled() and gc.get_freeze_count() == 0
        assert id(analysed(SMALL).tree) not in oldest()  # a small one is left to CPython
        gc.freeze()  # from here on, someone else's objects are frozen
    try:
        frozen = gc.get_freeze_count()
        analysed()  # the move is skipped: unfreezing would release those objects too
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        if not interpreters_own:
            gc.unfreeze()

    gc.disable()  # a collector turned off stays off
    try:
        analysed()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_trees_of_large_files_done_with_are_collected() -> None:
    """Moved objects count towards CPython's next full collection, as if they had aged there."""
    gc.collect()
    done = []
    for _ in range(3):
        tagfile = analysed()
        tagfile.tree.cycle = tagfile  # type: ignore[attr-defined]  # as pyflakes' parent links make one
        done.append(weakref.ref(tagfile.tree))
        del tagfile
    analysed()
    assert sum(ref() is not None for ref in done) <= 1


def test_nothing_of_ours_outlives_the_files_flake8_is_done_with(tmp_path: Path) -> None:
    """A plugin may keep the trees (bugbear caches its last 128 checkers): not our model with them."""
    from flake8.main.cli import main

    pytest.importorskip("bugbear")
    for index in range(3):  # B006: bugbear's cache of its checkers fills when it reports
        (tmp_path / f"m{index}.py").write_text(SMALL + "def mutable(x=[]):\n    return x\n", encoding="utf-8")
    main(["--isolated", "--jobs=1", f"--output-file={tmp_path / 'out.txt'}", str(tmp_path)])
    assert "B006" in (tmp_path / "out.txt").read_text(encoding="utf-8")
    gc.collect()
    assert not [obj for obj in gc.get_objects() if isinstance(obj, TagFile)]
