"""``built_to_last``: what the plugin builds for a large file goes straight to the collector's oldest generation.

The lint tree, the parser's model and the sites of a file with tag strings
live as long as flake8 checks the file.  The desugarer pauses the cyclic
collector while it builds them (see ``tagstr_runtime``'s ``Desugaring``), so
when it resumes they are all young at once, and CPython's next two young
collections walk every one of them, cold, only to find they all survive:
on a 9,000-line module that is more than flake8 spends on the same module
written with f-strings, whose parse meets the collector in small, warm
batches.  For a build that large (``LARGE`` objects, some 3,000 lines),
``gc.freeze()`` then ``gc.unfreeze()`` moves every tracked object into the
oldest generation without walking any (both documented): where those
collections would have put them, at no cost.  Smaller builds are left to
CPython: walking them costs little, and a run over many small files keeps
CPython's own rhythm of full collections.

CPython runs a full collection once the objects that reached the oldest
generation since the last one are a quarter of those it found there; the
objects moved here are not counted (moving them all, a run over many large
files would never collect the trees of the files it is done with), so the
rule is kept by hand: once they are more than a quarter of the oldest
generation, a full collection runs before the next file is built.

Skipped where something else froze objects (the ``unfreeze`` would release
them too; CPython 3.12 itself freezes a few hundred tuples of its builtin
types at start-up, so there it is off) or turned the collector off.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["LARGE", "built_to_last"]

#: Objects a build must leave (``gc.get_count()[0]``) to be moved: about 3,000 lines with tag strings.
LARGE = 50_000


class _Moved:
    """What was moved to the oldest generation since the last full collection."""

    def __init__(self) -> None:
        self.objects = 0
        self.full_collections = -1  # gc.get_stats()[2]["collections"] when ``objects`` was reset
        self.oldest: int | None = None  # size of the oldest generation then, counted when needed

    def account(self) -> None:
        """Start again after a full collection (CPython's or ours)."""
        full = gc.get_stats()[2]["collections"]
        if full != self.full_collections:
            self.full_collections = full
            self.objects = 0
            self.oldest = None

    def collect_if_due(self) -> None:
        self.account()
        if not self.objects:
            return
        if self.oldest is None:
            self.oldest = len(gc.get_objects(generation=2))
        if self.objects * 4 > self.oldest:
            gc.collect()
            self.account()


_MOVED = _Moved()


@contextmanager
def built_to_last() -> Iterator[None]:
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    _MOVED.collect_if_due()
    gc.disable()
    try:
        yield
    finally:
        young = gc.get_count()[0]  # tracked objects made since the last collection: ours, mostly
        if young >= LARGE:
            gc.freeze()
            gc.unfreeze()
            _MOVED.objects += young
        gc.enable()
