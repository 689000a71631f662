"""JSON-RPC messages framed as LSP frames them (``Content-Length`` headers) on byte streams."""

from __future__ import annotations

import json
import queue
import threading
from typing import IO, Any

__all__ = ["Stream"]


class Stream:
    """One side's reader and writer.  Writes are queued to a thread of their own: a pump never
    blocks on a full pipe while the other side waits for it to read (two pumps write to each side)."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes]) -> None:
        self.reader = reader
        self.writer = writer
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while (frame := self._queue.get()) is not None:
            try:
                self.writer.write(frame)
                self.writer.flush()
            except (OSError, ValueError):  # the other side is gone
                return
        try:
            self.writer.close()
        except OSError:
            pass

    def close(self) -> None:
        """Close the writer once everything queued is written."""
        self._queue.put(None)

    def read(self) -> dict[str, Any] | None:
        """The next message, or None at the end of the stream."""
        length = None
        while True:
            line = self.reader.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                if length is None:
                    continue
                break
            key, _, value = line.decode("ascii", "replace").partition(":")
            if key.strip().lower() == "content-length":
                length = int(value.strip())
        body = self.reader.read(length)
        if len(body) < length:
            return None
        message: dict[str, Any] = json.loads(body)
        return message

    def write(self, message: dict[str, Any]) -> None:
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._queue.put(b"Content-Length: %d\r\n\r\n" % len(body) + body)
