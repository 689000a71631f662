"""Where the outermost tag strings of a source are, and which of their characters are the user's code.

In the placeholder view (``editing.distinct_calls``) a tag string's name and
its holes' expressions stand where they are written; everything else of it
(quotes, literal text, braces, conversions, the call's commas and numbers) is
the view's own syntax.  A tool's answer about the view is about the user's
code only where it lands on the name or on an expression; an edit may only
touch a tag string there.  Found by bisection: a large module has thousands
of tag strings and a tool thousands of reports.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Iterable, NamedTuple, Sequence

from tagstr_runtime.syntax.model import Field, TagString

__all__ = ["CODE", "Edit", "HOLE", "SYNTAX", "TAG", "TagIndex", "field_at", "part_of"]

#: what a character of the source is, to the view (``TagIndex.part_at``)
CODE, TAG, HOLE, SYNTAX = "code", "tag", "hole", "syntax"


class Edit(NamedTuple):
    start: int  # offsets into the normalised source
    end: int
    content: str


def part_of(tag: TagString, at: int) -> str:
    """``TAG``, ``HOLE`` or ``SYNTAX``: what offset ``at`` (inside ``tag``) is, nested tag strings followed."""
    if tag.tag_span.start <= at < tag.tag_span.end:
        return TAG
    for field in tag.fields():
        if field.expr_span.start <= at < field.expr_span.end:
            for inner in field.nested:
                if inner.span.start <= at < inner.span.end:
                    return part_of(inner, at)
            return HOLE
    return SYNTAX


def field_at(tag: TagString, at: int) -> Field | None:
    """The innermost field whose expression holds offset ``at`` (nested tag strings followed)."""
    for field in tag.fields():
        if field.expr_span.start <= at <= field.expr_span.end:
            for inner in field.nested:
                if inner.span.start <= at < inner.span.end:
                    return field_at(inner, at)
            return field
    return None


def _fields(tag: TagString) -> Iterable[Field]:
    for inner in tag.walk():
        yield from inner.fields()


class TagIndex:
    """The outermost tag strings of a source (in order, not overlapping)."""

    __slots__ = ("tags", "starts", "ends", "seen", "_expressions")

    def __init__(self, tags: Sequence[TagString], placeholder: str) -> None:
        self.tags = tags
        self.starts = [t.span.start for t in tags]
        self.ends = [t.span.end for t in tags]
        # what a tool saw for each tag string (its first line), by tag name: a fix that
        # writes one of them elsewhere copies a tag string as a call
        self.seen: dict[str, set[str]] = {}
        for tag in tags:
            text = placeholder[tag.span.start : tag.span.end].split("\n", 1)[0]
            self.seen.setdefault(tag.tag + "(", set()).add(text)
        self._expressions: set[tuple[int, int]] | None = None

    def enclosing(self, at: int) -> TagString | None:
        index = bisect_right(self.starts, at) - 1
        return self.tags[index] if index >= 0 and at < self.ends[index] else None

    def part_at(self, at: int) -> str:
        """``CODE`` (outside every tag string), ``TAG``, ``HOLE`` or ``SYNTAX``."""
        tag = self.enclosing(at)
        return CODE if tag is None else part_of(tag, at)

    def field_at(self, at: int) -> Field | None:
        """The field whose expression holds ``at`` (its end included: a cursor after a name)."""
        tag = self.enclosing(at)
        return None if tag is None else field_at(tag, at)

    def on_user_text(self, at: int) -> bool:
        return self.part_at(at) != SYNTAX

    def ends_at(self, at: int) -> bool:
        """Whether a tag string ends at offset ``at``."""
        index = bisect_right(self.ends, at) - 1
        return index >= 0 and self.ends[index] == at

    def is_hole_expression(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` is exactly one hole's expression (or it in the view's
        parentheses): a tool judging it there judges an argument of the tag's call."""
        if self._expressions is None:
            self._expressions = {
                span for tag in self.tags for field in _fields(tag)
                for span in ((field.expr_span.start, field.expr_span.end),
                             (field.span.start, field.expr_span.end + 1))
            }
        return (start, end) in self._expressions

    def touched(self, edits: Iterable[Edit]) -> bool:
        """An edit over, inside or replacing part of a tag string (an edit that only
        borders one is not), or one that writes the text a tool saw for one."""
        for edit in edits:
            index = bisect_right(self.ends, edit.start)  # the first tag string ending after it starts
            if index < len(self.tags) and self.starts[index] < edit.end:
                return True
            if index < len(self.tags) and self.starts[index] < edit.start:  # an insertion inside
                return True
            if edit.content and any(
                call in edit.content and any(seen in edit.content for seen in texts)
                for call, texts in self.seen.items()
            ):
                return True
        return False

    def edits_holes_only(self, edits: Iterable[Edit]) -> bool:
        """Every edit that touches a tag string replaces a name inside one of its holes (or its
        tag's name) and nothing else: what a rename does."""
        for edit in edits:
            if self.touched([Edit(edit.start, edit.end, "")]):
                part = self.part_at(edit.start)
                if part not in (HOLE, TAG) or edit.end <= edit.start:
                    return False
                if any(self.part_at(at) != part for at in range(edit.start + 1, edit.end)):
                    return False
        return True
