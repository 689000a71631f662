"""ruff's report on a placeholder text, read back onto the source with tag strings.

ruff is given the *placeholder text* (each tag string written as a call of
its fields' expressions, every line keeping its length in characters, ruff's
column unit), so a line and column of ruff's is the same line and column of
the source, and a name read only by an interpolation is a name read.  Two
things remain to decide here:

* which reports are about the user's code: inside a tag string, only those on
  a tag's name or on an interpolation's expression.  The call's own syntax
  (parentheses, commas, the spaces standing for literal text) is ours, and so
  are reports about the call's arguments as arguments (``FBT003``, a boolean
  passed positionally, on ``{True}``).  Reports about whole physical lines
  stay: ``E501`` (same line length) and trailing whitespace where the source
  has it too;
* which fixes may be applied: none with an edit that touches a tag string or
  that writes a tag string's placeholder text elsewhere.  Fixes are applied
  here, on the source, from ruff's JSON edits.
"""

from __future__ import annotations

from typing import Any, Iterable

from tagstr_runtime.editing.tag_index import Edit, TagIndex
from tagstr_runtime.syntax.source import SourceText

__all__ = ["Edit", "TagIndex", "apply_edits", "fix_edits", "is_reported"]

SYNTAX_ERROR_CODES = frozenset([None, "invalid-syntax"])
# Codes about whole physical lines: a tag string's lines keep their length.
_LINE_CODES = frozenset(["E501", "W505"])
_TRAILING_WHITESPACE_CODES = frozenset(["W291", "W293"])
# Codes that judge a call's arguments as arguments: on a placeholder they judge
# an interpolation as if it were passed to the tag, which it is not.
_ARGUMENT_CODES = frozenset(["FBT003"])
# Codes that take a placeholder for a call of the interpolations' values: "a lambda
# that only calls its parameter" (``lambda p: url"{p}"``), which no tag string is
# (the twin's lambda passes an f-string).  ``editing.distinct_calls`` numbers the tag strings
# that have room; the others are told here by the report ending where they end.
_CALL_SHAPE_CODES = frozenset(["PLW0108"])


def offset(source: SourceText, location: dict[str, Any]) -> int:
    """The offset of ruff's 1-based row and character column (past the end: the end)."""
    row, column = int(location["row"]), int(location["column"])
    if row > source.line_count:
        return len(source.text)
    return min(source.line_start(row) + column - 1, len(source.text))


def is_reported(diagnostic: dict[str, Any], source: SourceText, tags: TagIndex) -> bool:
    """Whether ruff's ``diagnostic`` on the placeholder text is one about the user's code."""
    code = diagnostic.get("code")
    if code in SYNTAX_ERROR_CODES or code in _LINE_CODES:
        return True
    if code in _CALL_SHAPE_CODES and tags.ends_at(offset(source, diagnostic["end_location"])):
        return False
    at = offset(source, diagnostic["location"])
    tag = tags.enclosing(at)
    if tag is None:
        return True
    if code in _TRAILING_WHITESPACE_CODES:
        line = source.line_of(at)
        rest = source.line_text(line)[at - source.line_start(line) :]
        return rest.strip() == "" and rest.rstrip("\n") != ""
    return code not in _ARGUMENT_CODES and tags.on_user_text(at)


def fix_edits(diagnostic: dict[str, Any], source: SourceText) -> list[Edit]:
    fix = diagnostic.get("fix") or {}
    return [
        Edit(offset(source, e["location"]), offset(source, e["end_location"]), e["content"])
        for e in fix.get("edits") or ()
    ]


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied (from the end, so offsets hold)."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text
