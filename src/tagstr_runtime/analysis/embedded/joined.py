"""A template's strings joined with a placeholder for each hole, and the way back.

A parser reads one text; its positions are mapped back to ``(part, offset)``
in the template's strings, or to the hole whose placeholder they fall in, so
no placeholder ever shifts a reported position.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable, Sequence

from tagstr_runtime.analysis.embedded import Finding

__all__ = ["Joined"]


class Joined:
    """``strings`` with ``placeholder(i)`` in place of hole ``i``."""

    __slots__ = ("text", "starts", "holes", "_bounds", "_ends")

    def __init__(self, strings: Sequence[str], placeholder: Callable[[int], str]) -> None:
        pieces: list[str] = []
        starts: list[int] = []  # offset of each string in text
        holes: list[tuple[int, int]] = []  # [start, end) of each placeholder
        at = 0
        for index, string in enumerate(strings):
            starts.append(at)
            pieces.append(string)
            at += len(string)
            if index < len(strings) - 1:
                filler = placeholder(index)
                holes.append((at, at + len(filler)))
                pieces.append(filler)
                at += len(filler)
        self.text = "".join(pieces)
        self.starts = starts
        self.holes = holes
        # every boundary, in order: string i starts at starts[i], hole i at holes[i][0]
        self._bounds = sorted([*starts, *(h[0] for h in holes)])
        self._ends = len(self.text)

    def hole_at(self, index: int) -> int | None:
        """The hole whose placeholder covers text offset ``index``."""
        slot = bisect_right(self.holes, (index, len(self.text) + 1)) - 1
        if slot >= 0 and self.holes[slot][0] <= index < self.holes[slot][1]:
            return slot
        return None

    def place(self, index: int) -> tuple[int, int, int | None]:
        """``(part, offset, hole)`` of text offset ``index``, as a ``Finding`` places it."""
        index = max(0, min(index, self._ends))
        hole = self.hole_at(index)
        if hole is not None:
            return 0, 0, hole
        part = bisect_right(self.starts, index) - 1
        offset = index - self.starts[part]
        if part + 1 < len(self.starts) and offset > self.holes[part][0] - self.starts[part]:
            offset = self.holes[part][0] - self.starts[part]  # defensive: end of the string
        return part, offset, None

    def finding(self, kind: str, index: int, **args: str) -> Finding:
        """A finding at text offset ``index`` (at the hole if it falls in a placeholder)."""
        part, offset, hole = self.place(index)
        return Finding(kind, part, offset, hole, tuple(args.items()))

    def at_hole(self, kind: str, hole: int, **args: str) -> Finding:
        return Finding(kind, 0, 0, hole, tuple(args.items()))

    def line_starts(self) -> list[int]:
        starts = [0]
        text = self.text
        find = text.find
        at = find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1)
        return starts
