"""``built_to_last``: what the plugin builds for a file goes straight to the collector's oldest generation.

The lint tree, the parser's model and the sites of a file with tag strings
live as long as flake8 checks the file.  The desugarer pauses the cyclic
collector while it builds them (see ``tagstr_runtime``'s ``Desugaring``), so
when it resumes they are all young at once, and CPython's next two young
collections walk every one of them, cold, only to find they all survive:
on a 9,000-line module that is more than flake8 spends on the same module
written with f-strings, whose parse meets the collector in small, warm
batches.  ``gc.freeze()`` then ``gc.unfreeze()`` moves every tracked object
into the oldest generation without walking any (both documented): where
those collections would have put them, at no cost.  Garbage cycles among
the young objects of the moment are then freed by the next full collection
instead of a young one.  Skipped where something else froze objects (the
``unfreeze`` would release them too; CPython 3.12 itself freezes a few
hundred tuples of its builtin types at start-up, so there it is off) or
turned the collector off.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["built_to_last"]


@contextmanager
def built_to_last() -> Iterator[None]:
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()
