"""Source text as the tools see it, and conversions between its column units.

Every position in the parser's model is a *character offset* into the
normalised source (one ``str``).  Consumers need other units: ``ast`` and
``SyntaxError.offset`` want line numbers, ``ast`` wants UTF-8 byte columns,
``SyntaxError`` wants 1-based character columns.  Converting happens here and
nowhere else, so each column's unit is named where it is produced.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

__all__ = ["Pos", "SourceText", "decode_source", "normalize_newlines"]

_NEWLINES = re.compile(r"\r\n?")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def normalize_newlines(text: str) -> str:
    """``\\r\\n`` and ``\\r`` become ``\\n``, as CPython's tokenizer reads them."""
    if "\r" not in text:
        return text
    return _NEWLINES.sub("\n", text)


def decode_source(source: str | bytes) -> str:
    """Text of a source, honouring a PEP 263 coding cookie and a UTF-8 BOM for bytes."""
    if isinstance(source, str):
        return normalize_newlines(source)
    from tokenize import detect_encoding

    encoding, _ = detect_encoding(io.BytesIO(source).readline)
    text = source.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    return normalize_newlines(text)


class Pos(NamedTuple):
    line: int  # 1-based
    col_char: int  # 0-based, characters
    col_byte: int  # 0-based, UTF-8 bytes: the unit of ast col_offset


class SourceText:
    """A normalised source and its line table."""

    __slots__ = ("text", "_starts", "_ascii", "_non_ascii")

    def __init__(self, text: str) -> None:
        self.text = text
        lines = text.split("\n")
        lines.pop()  # the last line starts after the last newline
        self._starts = list(accumulate([len(line) + 1 for line in lines], initial=0))
        self._ascii = text.isascii()
        self._non_ascii: frozenset[int] | None = frozenset() if self._ascii else None

    @property
    def ascii(self) -> bool:
        """Every character is ASCII: character and byte columns are the same."""
        return self._ascii

    def non_ascii_lines(self) -> frozenset[int]:
        """The lines holding a non-ASCII character: on every other line a character
        column is a byte column."""
        if self._non_ascii is None:
            starts = self._starts
            self._non_ascii = frozenset(
                bisect_right(starts, m.start()) for m in _NON_ASCII.finditer(self.text)
            )
        return self._non_ascii

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self._starts, offset)

    def line_start(self, line: int) -> int:
        return self._starts[line - 1]

    def line_text(self, line: int) -> str:
        """The line with its newline, as ``SyntaxError.text`` carries it."""
        start = self._starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start : end + 1]

    def pos(self, offset: int) -> Pos:
        line = bisect_right(self._starts, offset)
        col = offset - self._starts[line - 1]
        if self._ascii:
            return Pos(line, col, col)
        start = self._starts[line - 1]
        return Pos(line, col, len(self.text[start:offset].encode("utf-8")))

    def col_byte(self, line: int, col_char: int) -> int:
        """Byte column of a character column of ``line`` (``tokenize``'s unit to ``ast``'s)."""
        if self._ascii:
            return col_char
        start = self._starts[line - 1]
        return len(self.text[start : start + col_char].encode("utf-8"))

    def col_char(self, line: int, col_byte: int) -> int:
        """Character column of a byte column of ``line`` (``ast``'s unit to ``tokenize``'s)."""
        return self.offset(line, col_byte) - self._starts[line - 1]

    def line_col_byte(self, offset: int) -> tuple[int, int]:
        """``pos(offset)`` without the character column: the desugarer's hot path."""
        starts = self._starts
        line = bisect_right(starts, offset)
        start = starts[line - 1]
        if self._ascii:
            return line, offset - start
        return line, len(self.text[start:offset].encode("utf-8"))

    def span_col_byte(self, start: int, end: int) -> tuple[int, int, int, int]:
        """``line_col_byte`` of both ends of a span in one call (the generator places
        every part of every tag string)."""
        starts = self._starts
        line = bisect_right(starts, start)
        # a span on one line (nearly all): its end's line is the same int, not another equal one
        end_line = line if line == len(starts) or end < starts[line] else bisect_right(starts, end, line)
        first, last = starts[line - 1], starts[end_line - 1]
        if self._ascii:
            return line, start - first, end_line, end - last
        text = self.text
        return line, len(text[first:start].encode("utf-8")), end_line, len(text[last:end].encode("utf-8"))

    def offset(self, line: int, col_byte: int) -> int:
        """Inverse of ``pos``: character offset of a (line, byte column) pair."""
        start = self._starts[line - 1]
        if self._ascii:
            return start + col_byte
        end = self.text.find("\n", start)
        chars = self.text[start:] if end < 0 else self.text[start:end]
        raw = chars.encode("utf-8")
        if col_byte > len(raw):  # past the line's text (CPython's end of an error at its newline)
            return start + len(chars) + col_byte - len(raw)
        return start + len(raw[:col_byte].decode("utf-8", "ignore"))
