"""A source with tag strings as language tools are shown it, and the way back: the one view editors use.

The view is the placeholder text of ``editing.distinct_calls`` (ruff's text):
each tag string a call of its tag, every hole's expression at its own line
and column, literal text as spaces, every line the same length in characters.
So a language server that reads the view (jedi in pylsp, pyright, ruff
server) answers about the user's code at the user's positions: hover,
definition, completion, references and rename inside holes, and the tag
string typed as the tag's return type.  What remains is said here:

* positions cross between the source and the view through characters (LSP
  counts UTF-16 units, and astral characters of literal text became one
  space each: ``utf16.Lines``), and through what ``editing.repair`` inserted
  to close a tag string still being typed;
* which characters are the user's code (``TagIndex.part_at``): an answer
  landing on the view's own syntax (the call's commas, spaces standing for
  literal text) is not about the user's code, and an edit may change a tag
  string only inside a hole's expression or its tag's name.

A view is built once per text: callers keep it while the text is the same.
"""

from __future__ import annotations

import io
import tokenize
from typing import Iterable

from tagstr_runtime.editing.distinct_calls import distinct_calls_text
from tagstr_runtime.editing.repair import Repaired, repair
from tagstr_runtime.editing.tag_index import CODE, HOLE, SYNTAX, TAG, Edit, TagIndex
from tagstr_runtime.editing.utf16 import Lines
from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.source import normalize_newlines

__all__ = ["PlaceholderView", "may_have_tag_strings"]


def may_have_tag_strings(text: str) -> bool:
    """False when ``text`` cannot hold a tag string (no quote): the view is the text itself."""
    return '"' in text or "'" in text


class PlaceholderView:
    """``text`` (normalised) and the view tools read (``view``); positions are 0-based lines
    and character columns unless a method says UTF-16."""

    __slots__ = ("text", "view", "tags", "warnings", "index", "error", "source_lines", "view_lines", "_repaired")

    def __init__(self, text: str, filename: str = "<unknown>", *, cursor: int | None = None) -> None:
        text = normalize_newlines(text)
        self.text = text
        repaired = repair(text, filename, cursor) if may_have_tag_strings(text) else None
        self._repaired: Repaired | None = repaired if repaired is not None and repaired.insertions else None
        tags: tuple[TagString, ...] = repaired.result.tag_strings if repaired is not None else ()
        self.tags = tags
        #: the parser's warnings (``\N{`` starting a hole: the quick fixes read them)
        self.warnings = repaired.result.warnings if repaired is not None else ()
        self.error: TagSyntaxError | None = repaired.error if repaired is not None else None
        base = repaired.text if repaired is not None else text
        self.view = distinct_calls_text(base, tags) if tags else base
        self.index = TagIndex(tags, self.view)  # offsets of the view (= of the repaired text)
        self.source_lines = Lines(text)
        self.view_lines = self.source_lines if self.view == text else Lines(self.view)

    @property
    def has_tag_strings(self) -> bool:
        return bool(self.tags)

    # -- offsets -----------------------------------------------------------------------

    def view_offset(self, offset: int) -> int:
        """The view's offset of a source offset."""
        return offset if self._repaired is None else self._repaired.to_repaired(offset)

    def source_offset(self, offset: int) -> int:
        """The source offset of a view offset (text the repair inserted: where it was inserted)."""
        return offset if self._repaired is None else self._repaired.to_source(offset)

    # -- LSP positions (line, UTF-16 column) ---------------------------------------------

    def to_view(self, line: int, column16: int) -> tuple[int, int]:
        """A source position as a view position, both in UTF-16 columns."""
        if self.view is self.text:
            return line, column16
        lines = self.source_lines
        offset = self.view_offset(lines.offset(line, lines.from_utf16(line, column16)))
        vline, vcol = self.view_lines.position(offset)
        return vline, self.view_lines.to_utf16(vline, vcol)

    def to_source(self, line: int, column16: int) -> tuple[int, int]:
        """A view position as a source position, both in UTF-16 columns."""
        if self.view is self.text:
            return line, column16
        lines = self.view_lines
        offset = self.source_offset(lines.offset(line, lines.from_utf16(line, column16)))
        sline, scol = self.source_lines.position(offset)
        return sline, self.source_lines.to_utf16(sline, scol)

    def view_offset_at(self, line: int, column16: int) -> int:
        """The view offset of a view position (UTF-16 column)."""
        return self.view_lines.offset(line, self.view_lines.from_utf16(line, column16))

    def source_offset_at(self, line: int, column16: int) -> int:
        """The source offset of a source position (UTF-16 column)."""
        return self.source_lines.offset(line, self.source_lines.from_utf16(line, column16))

    def source_position(self, offset: int) -> tuple[int, int]:
        """(line, UTF-16 column) of a source offset."""
        line, column = self.source_lines.position(offset)
        return line, self.source_lines.to_utf16(line, column)

    # -- what is the user's ------------------------------------------------------------

    def part_at(self, line: int, column16: int, *, cursor: bool = False) -> str:
        """What the source position is: ``CODE``, ``TAG`` (a tag's name), ``HOLE`` (a hole's
        expression) or ``SYNTAX`` (the rest of a tag string).  ``cursor``: the position is
        between characters, as a request's is: right after a name is still on it."""
        if not self.tags:
            return CODE
        at = self.view_offset(self.source_offset_at(line, column16))
        part = self.index.part_at(at)
        if cursor and part == SYNTAX and at > 0 and self.index.part_at(at - 1) in (HOLE, TAG):
            return self.index.part_at(at - 1)
        return part

    def open_brackets(self, line: int, column16: int) -> int | None:
        """How many brackets the hole's expression leaves open before a source position
        (None: not in a hole).  At 0 the only call around the cursor is the view's call of
        the tag, which the f-string twin does not have (no signature help there)."""
        at = self.view_offset(self.source_offset_at(line, column16))
        field = self.index.field_at(at) if self.tags else None
        if field is None:
            return None
        return _open_brackets(self.view[field.expr_span.start : at])

    def in_view_syntax(self, line: int, column16: int) -> bool:
        """Whether a *view* position falls on the view's own syntax (not the user's code)."""
        if not self.tags:
            return False
        return not self.index.on_user_text(self.view_offset_at(line, column16))

    def view_edits(self, edits: Iterable[tuple[int, int, int, int, str]]) -> list[Edit]:
        """Edits given as view (start line, start UTF-16 column, end line, end column, text)
        as ``Edit``s of view offsets."""
        return [Edit(self.view_offset_at(a, b), self.view_offset_at(c, d), text) for a, b, c, d, text in edits]

    def touches_tag_strings(self, edits: Iterable[Edit]) -> bool:
        """Whether view ``edits`` change a tag string other than a name in a hole or a tag's
        name (or copy one elsewhere): such an edit would lose what the view does not show."""
        return bool(self.tags) and not self.index.edits_holes_only(edits) or self._copies(edits)

    def _copies(self, edits: Iterable[Edit]) -> bool:
        return bool(self.tags) and any(
            edit.content and self.index.touched([Edit(len(self.view), len(self.view), edit.content)])
            for edit in edits
        )


def _open_brackets(code: str) -> int:
    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return max(depth, 0)
