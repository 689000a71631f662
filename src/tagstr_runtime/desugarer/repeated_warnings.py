"""CPython's own warnings of a source with tag strings: shown once, not twice.

A caller that hands the desugarer CPython's error for a source
(``standard_error``: the import hook, the runner, flake8's ``build_ast``)
has already had CPython parse it, and that parse showed every warning of the
code before the error (an invalid escape sequence, on 3.12+ a
``SyntaxWarning``).  The desugarer then parses the placeholder text, which
holds that code again: it would show the same warnings a second time.  So
its warnings are recorded, and only those the caller's parse did not show
(the code after the error) are shown.  The caller's parse is repeated only
to know which those are, and only when there is a warning at all (rarely).
"""

from __future__ import annotations

import warnings
from collections import Counter
from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["shown_once"]

_Key = tuple[type[Warning], str, int]


def _key(w: warnings.WarningMessage) -> _Key:
    return (w.category, str(w.message), w.lineno)


@contextmanager
def shown_once(standard_parse: Callable[[], object] | None) -> Iterator[None]:
    """Show the warnings of the block, less those ``standard_parse`` shows.

    ``standard_parse``: repeats the caller's parse (expected to fail); None
    when the caller did not parse first: the block's warnings show as usual.
    """
    if standard_parse is None:
        yield
        return
    with warnings.catch_warnings(record=True) as caught:
        yield
    if not caught:
        return
    with warnings.catch_warnings(record=True) as before:
        warnings.simplefilter("always")
        try:
            standard_parse()
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            pass
    already = Counter(_key(w) for w in before)
    for w in caught:
        key = _key(w)
        if already[key]:
            already[key] -= 1
            continue
        warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
