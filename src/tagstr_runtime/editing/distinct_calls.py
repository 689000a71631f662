"""The text language tools are shown for a source with tag strings: the placeholder, each tag string distinct.

ruff, pyright and jedi all read this one text (``editing.placeholder_view``).

The placeholder text (``desugarer.placeholder``, in characters) writes a tag string
as a call of its interpolations' expressions, its literal text as spaces:
``url"<{n}>"`` and ``url"{n}()"`` are both ``url(n)`` to ruff, which then
finds two identical branches (SIM114), a useless ``if``-``else`` (RUF034), a
repeated dictionary key (F601), a lambda that only calls its parameter
(PLW0108, ``lambda p: url"\\x1b[{p}A"``): reports the f-string twin does not
get.  So each tag string with room for it gets one more argument, an integer
written in the spaces of its literal text: the rank of its text among the
different tag strings whose placeholders are the same tree (1, 2, ...)::

    url"<{n}>"   ->   url(1,n, )        url"{n}()"   ->   url( n,1 )

Two tag strings that read alike to ruff are then the same text; a tag
string with literal text is never a plain call of its expressions.  The
integer sits on the placeholder's own syntax, where no report is kept
(``tools.ruff_map.is_reported``, ``editing.placeholder_view``), and every line keeps its length.  A tag string
without spare spaces (``url"{n}"``) stays as it is.
"""

from __future__ import annotations

import ast
from typing import Iterable

from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.desugarer.placeholder import field_terminator, placeholder_text

__all__ = ["distinct_calls_text"]

_ARGUMENT_STARTS = frozenset("(,")
_CLOSERS = frozenset("),")


def distinct_calls_text(text: str, tags: Iterable[TagString]) -> str:
    """The placeholder of ``text`` in character columns, each different tag string distinct."""
    outermost = tuple(tags)
    placeholder = placeholder_text(text, outermost, char_columns=True)
    ranks: dict[str, dict[str, int]] = {}  # placeholder of a tag string -> its texts, ranked
    edits: list[tuple[int, str]] = []
    for outer in outermost:
        for tag in outer.walk():
            texts = ranks.setdefault(_shape(placeholder[tag.span.start : tag.span.end]), {})
            rank = texts.setdefault(text[tag.span.start : tag.span.end], len(texts) + 1)
            edit = _numbered(text, placeholder, tag, str(rank))
            if edit is not None:
                edits.append(edit)
    if not edits:
        return placeholder
    out = list(placeholder)
    for start, written in edits:
        out[start : start + len(written)] = written
    distinct = "".join(out)
    for outer in outermost:  # the integers go only where an argument may start, unless we erred
        call = distinct[outer.span.start : outer.span.end]
        if call != placeholder[outer.span.start : outer.span.end] and _shape(call) == call:
            return placeholder
    return distinct


def _shape(call: str) -> str:
    """What ruff compares of a placeholder call: its tree, not its spaces or parentheses
    (the call's own text if it does not parse alone)."""
    try:
        return ast.dump(ast.parse(call.strip(), mode="eval"))
    except (SyntaxError, ValueError):
        return call


def _numbered(text: str, placeholder: str, tag: TagString, number: str) -> tuple[int, str] | None:
    """(offset, characters) writing ``number`` as an argument in the first run of spaces of
    ``tag``'s placeholder that can hold it, or None.

    A run is spaces of one line outside every field's expression (the ``{`` of a
    plain name's field is one of them), right after the call's ``(`` or one of
    its commas; the number is followed by a comma unless a ``)`` or a comma
    comes next.
    """
    inside = [(f.span.start + 1, field_terminator(text, f)) for f in tag.fields()]
    start = tag.tag_span.end
    end = tag.span.end
    pos = start
    while pos < end:
        if placeholder[pos] != " " or any(a <= pos < b for a, b in inside):
            pos += 1
            continue
        run = pos
        while pos < end and placeholder[pos] == " " and not any(a <= pos < b for a, b in inside):
            pos += 1
        before = placeholder[start:run].rstrip(" \n")[-1:]
        after = placeholder[pos:end].lstrip(" \n")[:1]
        comma = "" if after in _CLOSERS else ","
        if before in _ARGUMENT_STARTS and pos - run >= len(number) + len(comma):
            written = number + comma
            return pos - len(written), written
    return None
