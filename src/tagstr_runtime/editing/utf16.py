"""Lines of a text and their columns in UTF-16 code units, the Language Server Protocol's unit.

A character outside the Basic Multilingual Plane counts two.  The placeholder
view keeps every column in *characters*; where literal text holding such a
character became a space, the two texts differ in UTF-16 columns after it,
so every position crossing between them is converted through characters.
"""

from __future__ import annotations

import re
from itertools import accumulate

__all__ = ["Lines"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Lines:
    """A normalised text's line table (0-based lines, as LSP counts them)."""

    __slots__ = ("text", "starts", "_astral")

    def __init__(self, text: str) -> None:
        self.text = text
        lines = text.split("\n")
        self.starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        self._astral = _ASTRAL.search(text) is not None

    def __len__(self) -> int:
        return len(self.starts)

    def line(self, line: int) -> str:
        """The text of ``line`` without its newline ("" past the end)."""
        if not 0 <= line < len(self.starts):
            return ""
        start = self.starts[line]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def offset(self, line: int, column: int) -> int:
        """The offset of a (line, character column), clamped to the line and the text."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        return self.starts[line] + max(0, min(column, len(self.line(line))))

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character column) of an offset."""
        from bisect import bisect_right

        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def to_utf16(self, line: int, column: int) -> int:
        """The UTF-16 column of a character column."""
        if not self._astral:
            return column
        head = self.line(line)[:column]
        return column + len(_ASTRAL.findall(head))

    def from_utf16(self, line: int, column: int) -> int:
        """The character column of a UTF-16 column (inside a surrogate pair: that character)."""
        if not self._astral:
            return column
        count = 0
        for index, char in enumerate(self.line(line)):
            count += 2 if char > "\uffff" else 1
            if count > column:
                return index
        return len(self.line(line)) + max(0, column - count)
