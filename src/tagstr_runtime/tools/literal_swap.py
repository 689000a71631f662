"""String literals that stand in for tag strings while a formatter rewrites the code around them.

black and ruff cannot parse a tag string, and must not touch one: to a
formatter it is a literal.  So each outermost tag string is swapped for an
f-string literal without fields of the *same display width on each of its
lines* (the width the formatter measures line length in), the formatter runs
on that text, and the tag strings are swapped back.  Every wrapping decision
is then the one the formatter makes for the file's f-string twin::

    page = html"<p>{user.name}</p>"     ->   page = f"QQQQQQQQQQQQQQQQQQ"

An f-string, not a plain string, because the twin's is one: black infers the
Python versions a file targets from the features it uses (an f-string: 3.6+,
which decides the magic trailing comma after ``*args``), and neither tool
takes an f-string in docstring position for a docstring.  ``h""`` has no room
for the ``f``: its stand-in is the plain ``"Q"``.

A stand-in holds nothing but one *marker* character that occurs nowhere in
the source and that no formatter writes (it only adds whitespace, brackets,
commas, backslashes and quotes, and changes the case of number and string
prefixes), so after formatting every occurrence of the marker belongs to a
stand-in, in the original order (formatters never reorder code).  A
formatter may flip a stand-in's quotes (quote normalisation); anything else
it does to one (splitting or joining strings, docstring rewriting) is
detected and refused: the file is then not formatted rather than formatted
wrongly.

A multi-line tag string becomes a multi-line literal: triple-quoted as
written, or, for a single-quoted one whose fields span lines, a
single-quoted literal continued by a backslash at the end of each line.
Tabs are kept where they are, so a tool that expands them measures the
same width.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple, Sequence

from tagstr_runtime.syntax.model import TagString

__all__ = ["StandInError", "StandIns", "display_width", "restore", "stand_in"]

# Characters no formatter inserts or re-cases (see the module docstring): letters
# that are not hex digits, number or string prefixes, then punctuation.
_ASCII_MARKERS = "QZKVWYGHIMNPSTqzkvwyghimnpst$?!~^`@%&*+-=<>|;:"
# Latin Extended letters: one column wide for every width table (not East Asian
# wide, not combining), should a source use every ASCII candidate.
_OTHER_MARKERS = "".join(chr(c) for c in range(0x100, 0x180))
_QUOTES = ("'", '"')


class StandInError(Exception):
    """A tag string cannot be put back safely: ``StandInError(message, line)``, the
    tag string's first line (1-based)."""

    @property
    def line(self) -> int:
        line: int = self.args[1]
        return line

    def __str__(self) -> str:
        return str(self.args[0])


class StandIns(NamedTuple):
    text: str  # the source with each outermost tag string replaced by its stand-in
    marker: str  # the one character of every stand-in, found nowhere else
    originals: tuple[str, ...]  # each tag string as written, in source order
    bodies: tuple[str, ...]  # what each stand-in holds between its quotes
    quotes: tuple[str, ...]  # each stand-in's quotes (the tag string's own)
    lines: tuple[int, ...]  # each tag string's first line
    prefixes: tuple[str, ...] = ()  # each stand-in's string prefix ("f", or "" for ``h""``)


def display_width(char: str) -> int:
    """Columns of one character as formatters count them: East Asian wide ones take
    two, combining ones none (black's ``str_width``, ruff's ``unicode-width``)."""
    if char.isascii():
        return 1
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _choose_marker(text: str) -> str:
    for candidates in (_ASCII_MARKERS, _OTHER_MARKERS):
        for char in candidates:
            if char not in text:
                return char
    raise StandInError("every character that could mark a tag string occurs in the file", 1)


def _blank(segment: str, marker: str) -> str:
    """``segment`` as marker characters of the same display width, tabs kept."""
    if segment.isascii():
        if "\t" not in segment:
            return marker * len(segment)
        return "".join("\t" if c == "\t" else marker for c in segment)
    return "".join("\t" if c == "\t" else marker * display_width(c) for c in segment)


def _literal(original: str, quote: str, marker: str, line: int) -> tuple[str, str]:
    """(the stand-in for the tag string ``original``, its prefix)."""
    segments = [_blank(s, marker) for s in original.split("\n")]
    q = len(quote)
    prefix = "f"
    if len(segments) == 1:
        if marker not in segments[0][1 + q : -q]:  # h"": no room for the prefix and a marker
            return quote + segments[0][q:-q] + quote, ""
        return prefix + quote + segments[0][1 + q : -q] + quote, prefix
    segments[0] = prefix + quote + segments[0][1 + q :]
    segments[-1] = segments[-1][:-q] + quote
    if q == 1:  # a single-quoted literal spans lines by backslash continuations
        for index, segment in enumerate(segments[:-1]):
            if not segment.endswith(marker):
                raise StandInError(
                    "a field of this single-quoted tag string has a line that is empty or ends "
                    "in a tab or a combining character: no string literal has that shape",
                    line + index,
                )
            segments[index] = segment[:-1] + "\\"
    return "\n".join(segments), prefix


def stand_in(text: str, tags: Sequence[TagString], line_of: Sequence[int]) -> StandIns:
    """``text`` with each of ``tags`` (outermost, in order, starting on ``line_of``) replaced."""
    marker = _choose_marker(text)
    out: list[str] = []
    originals: list[str] = []
    bodies: list[str] = []
    prefixes: list[str] = []
    pos = 0
    for tag, line in zip(tags, line_of):
        original = text[tag.span.start : tag.span.end]
        literal, prefix = _literal(original, tag.quote, marker, line)
        out.append(text[pos : tag.span.start])
        out.append(literal)
        originals.append(original)
        bodies.append(literal[len(prefix) + len(tag.quote) : -len(tag.quote)])
        prefixes.append(prefix)
        pos = tag.span.end
    out.append(text[pos:])
    return StandIns(
        "".join(out), marker, tuple(originals), tuple(bodies),
        tuple(t.quote for t in tags), tuple(line_of), tuple(prefixes),
    )


def _continues(before: str) -> bool:
    """The character before a stand-in makes it part of something longer (a quote, a prefix letter)."""
    return before in _QUOTES or before.isalnum() or before == "_"


def _flipped(quote: str) -> str:
    return quote.replace('"', "\0").replace("'", '"').replace("\0", "'")


def restore(formatted: str, stand_ins: StandIns) -> str:
    """The formatter's output with each stand-in swapped back for its tag string.

    Raises ``StandInError`` when a stand-in did not come back whole.
    """
    marker = stand_ins.marker
    out: list[str] = []
    pos = 0
    for original, body, quote, line, prefix in zip(
        stand_ins.originals, stand_ins.bodies, stand_ins.quotes, stand_ins.lines, stand_ins.prefixes
    ):
        found = formatted.find(marker, pos)
        if found < 0:
            raise StandInError("the formatter dropped this tag string's stand-in", line)
        inside = found - body.index(marker)  # a body may start with a tab or a line end
        opening = formatted[inside - len(quote) : inside]
        start = inside - len(quote) - len(prefix)
        end = inside + len(body)
        close = end + len(quote)
        if (
            start < pos
            or opening not in (quote, _flipped(quote))
            or formatted[start : start + len(prefix)] != prefix
            or formatted[inside:end] != body
            or formatted[end:close] != opening
            or _continues(formatted[start - 1 : start])  # a longer prefix, or part of a longer literal
            or formatted[close : close + 1] in _QUOTES
        ):
            raise StandInError(
                "the formatter rewrote this tag string's stand-in (a string in docstring "
                "position, or string splitting such as black's preview string processing)",
                line,
            )
        out.append(formatted[pos:start])
        out.append(original)
        pos = close
    if marker in formatted[pos:]:
        raise StandInError("the formatter duplicated a tag string's stand-in", stand_ins.lines[-1])
    out.append(formatted[pos:])
    return "".join(out)
