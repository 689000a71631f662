"""Each document as the editor has it, its placeholder view, and what the server was sent of it."""

from __future__ import annotations

import threading
from typing import Any

from tagstr_runtime.frontend import Lines, PlaceholderView

__all__ = ["Document", "Documents", "view_change"]


def _normalised(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class Document:
    """A document: ``text`` (the editor's, normalised), ``view`` (what the server reads)."""

    def __init__(self, uri: str, text: str, version: int, path: str | None, *, client: bool) -> None:
        self.uri = uri
        self.path = path
        self.version = version
        self.client = client  # opened by the editor (else by the proxy, for the server's imports)
        self.view = PlaceholderView(_normalised(text), path or uri)

    @property
    def text(self) -> str:
        return self.view.text

    def apply(self, changes: list[dict[str, Any]]) -> None:
        """The editor's ``contentChanges`` (UTF-16 ranges), then a new view (built once per change)."""
        text = self.view.text
        for change in changes:
            piece = _normalised(change["text"])
            where = change.get("range")
            if where is None:
                text = piece
                continue
            lines = Lines(text)
            start = _offset(lines, where["start"])
            end = _offset(lines, where["end"])
            text = text[:start] + piece + text[end:]
        self.set_text(text)

    def set_text(self, text: str) -> None:
        self.view = PlaceholderView(_normalised(text), self.path or self.uri)


def _offset(lines: Lines, position: dict[str, int]) -> int:
    return lines.offset(position["line"], lines.from_utf16(position["line"], position["character"]))


def view_change(before: str, after: str) -> dict[str, Any]:
    """One incremental change taking the server's text from ``before`` to ``after`` (the span
    between their common prefix and suffix), in ``before``'s UTF-16 positions."""
    limit = min(len(before), len(after))
    start = _common(lambda n: before[:n] == after[:n], limit)
    end = _common(lambda n: before[len(before) - n :] == after[len(after) - n :], limit - start)
    lines = Lines(before)
    a_line, a_col = lines.position(start)
    b_line, b_col = lines.position(len(before) - end)
    return {"range": {"start": {"line": a_line, "character": lines.to_utf16(a_line, a_col)},
                      "end": {"line": b_line, "character": lines.to_utf16(b_line, b_col)}},
            "text": after[start : len(after) - end]}


def _common(same: Any, limit: int) -> int:
    """The largest ``n <= limit`` with ``same(n)`` (true up to some point, then false): slices
    compared by bisection, so a large file costs a few comparisons in C, not a loop per character."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low


class Documents:
    """The open documents by URI."""

    def __init__(self) -> None:
        self.by_uri: dict[str, Document] = {}
        self.lock = threading.RLock()

    def get(self, uri: str | None) -> Document | None:
        return self.by_uri.get(uri) if uri else None
