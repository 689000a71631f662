"""A buffer being typed, closed enough to read: the tag strings an editor's text leaves open.

An editor asks for completions in ``html"<p>{user.na`` before the field, the
string or the file is finished.  The parser rejects such a text, so the
broken tag string is closed by *inserting* what it lacks (``}"`` at the end
of its line, or ``}`` after a word of its field) until the text parses:
every character the user wrote keeps its line, and keeps its column unless
it follows an insertion on its line (``Repaired.to_repaired`` and
``to_source`` map them).  What cannot be closed that way (a few tries) is
blanked instead, so the rest of the file still reads.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.parser import Broken, ParseResult, scan
from tagstr_runtime.syntax.source import SourceText

__all__ = ["Repaired", "repair"]

_ROUNDS = 6  # broken tag strings closed, at most (then the rest is blanked)
_QUOTE = re.compile(r"\w*('''|\"\"\"|'|\")")
_WORD_END = re.compile(r"[\w)\]](?![\w(\[])")


class Insertion(NamedTuple):
    at: int  # offset in the source
    text: str  # no newline


class Repaired(NamedTuple):
    """The text that was read, what was inserted into the source to get it, and the first error."""

    text: str
    result: ParseResult
    insertions: tuple[Insertion, ...]  # in source order
    error: TagSyntaxError | None  # the source's first malformed tag string, if any

    def to_repaired(self, offset: int) -> int:
        """The repaired offset of source offset ``offset`` (before text inserted there)."""
        shift = 0
        for insertion in self.insertions:
            if insertion.at >= offset:
                break
            shift += len(insertion.text)
        return offset + shift

    def to_source(self, offset: int) -> int:
        """The source offset of repaired offset ``offset`` (inserted text: where it was inserted)."""
        shift = 0
        for insertion in self.insertions:
            at = insertion.at + shift
            if offset < at:
                break
            if offset < at + len(insertion.text):
                return insertion.at
            shift += len(insertion.text)
        return offset - shift


def _error_offset(source: SourceText, error: TagSyntaxError) -> int:
    line = min(max(error.lineno or 1, 1), source.line_count)
    return min(source.line_start(line) + max((error.offset or 1) - 1, 0), len(source.text))


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _candidates(text: str, broken: Broken, source: SourceText, cursor: int | None) -> list[Insertion]:
    found = _QUOTE.match(text, broken.start)
    quote = found.group(1) if found else '"'
    at = _error_offset(source, broken.error)
    end = _line_end(text, at)
    out = []
    if cursor is not None and broken.start < cursor < end:  # the field the user is typing ends here
        out.append(Insertion(cursor, "}"))
    out += [Insertion(end, "}" + quote), Insertion(end, quote), Insertion(end, ")}" + quote),
            Insertion(end, "]}" + quote)]
    brace = text.rfind("{", broken.start, at + 1)
    if brace >= 0:
        out += [Insertion(m.end(), "}") for m in _WORD_END.finditer(text, brace + 1, end)][:6]
    return out


def _progress(text: str, before: int) -> ParseResult | Broken | None:
    """The scan of ``text`` if it got further than a break at ``before``."""
    found = scan(text)
    if isinstance(found, Broken) and found.start <= before:
        return None
    return found


def repair(text: str, filename: str = "<unknown>", cursor: int | None = None) -> Repaired:
    """``text`` (normalised) with its malformed tag strings closed or blanked; ``cursor``: where
    the user is typing (a field left open there is closed there first)."""
    found = scan(text, filename)
    if not isinstance(found, Broken):
        return Repaired(text, found, (), None)
    first = found.error
    insertions: list[Insertion] = []  # in repaired offsets, applied in order
    current = text
    for _ in range(_ROUNDS):
        if not isinstance(found, Broken):
            break
        source = SourceText(current)
        for candidate in _candidates(current, found, source, cursor if not insertions else None):
            attempt = current[: candidate.at] + candidate.text + current[candidate.at :]
            after = _progress(attempt, found.start)
            if after is not None:
                insertions.append(candidate)
                current, found = attempt, after
                break
        else:
            end = _line_end(current, _error_offset(source, found.error))
            current = current[: found.start] + re.sub(r"[^\n]", " ", current[found.start : end]) + current[end:]
            found = scan(current, filename)
    if isinstance(found, Broken):  # give up: blank from the break to the end
        current = current[: found.start] + re.sub(r"[^\n]", " ", current[found.start :])
        found = scan(current, filename)
    assert not isinstance(found, Broken)
    return Repaired(current, found, _in_source(insertions), first)


def _in_source(insertions: list[Insertion]) -> tuple[Insertion, ...]:
    """Insertions made one after another (each at an offset of the text the previous ones
    made) as offsets of the source, in order."""
    placed: list[Insertion] = []
    for insertion in insertions:
        shift = 0
        index = len(placed)
        for i, earlier in enumerate(placed):
            begin = earlier.at + shift
            if insertion.at <= begin:
                index = i
                break
            if insertion.at < begin + len(earlier.text):  # inside an inserted text: after it
                index = i + 1
                shift += len(earlier.text)
                break
            shift += len(earlier.text)
        placed.insert(index, Insertion(insertion.at - shift, insertion.text))
    return tuple(placed)
