"""What the plugin builds for a file with tag strings goes straight to the collector's oldest generation.

In-process: where an object sits in the cyclic collector is no output of
flake8's.  Why it matters is in ``tagstr_flake8._collector``.
"""

from __future__ import annotations

import ast
import gc

from tagstr_flake8._analysis import TagFile, analyse

SOURCE = 'def page(user):\n    return html"<b>{user.name}</b> {user.email!r}"\n\n\n' * 300


def analysed() -> TagFile:
    lines = SOURCE.splitlines(keepends=True)
    try:
        ast.parse(SOURCE)
    except SyntaxError as exc:
        return analyse(lines, "t.py", exc)
    raise AssertionError("no tag string")


def in_oldest_generation(tagfile: TagFile) -> bool:
    oldest = {id(obj) for obj in gc.get_objects(generation=2)}
    return id(tagfile.tree) in oldest and all(id(site.call) in oldest for site in tagfile.sites())


def test_built_objects_go_to_the_oldest_generation_and_others_gc_state_is_kept() -> None:
    interpreters_own = gc.get_freeze_count()  # CPython 3.12 freezes a few hundred tuples at start-up
    if not interpreters_own:
        assert in_oldest_generation(analysed())
        assert gc.isenabled() and gc.get_freeze_count() == 0
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
