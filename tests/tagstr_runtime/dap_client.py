"""A Debug Adapter Protocol client, as VS Code speaks it, for the debugpy tests.

Messages are ``Content-Length``-framed JSON over a pipe (the adapter's stdin
and stdout) or a socket (``python -m debugpy --listen``).  A thread reads
every message; ``response`` and ``event`` wait for the one asked for.
"""

from __future__ import annotations

import json
import threading
import time
from typing import IO, Any

__all__ = ["DapClient", "DapError"]


class DapError(AssertionError):
    """A failed request, or a message that did not come in time."""


class DapClient:
    def __init__(self, reader: IO[bytes], writer: IO[bytes]) -> None:
        self._writer = writer
        self._seq = 0
        self.messages: list[dict[str, Any]] = []
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(reader,), daemon=True)
        self._reader.start()

    def _read(self, reader: IO[bytes]) -> None:
        while True:
            length = None
            while True:
                line = reader.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            body = b""
            while len(body) < length:
                chunk = reader.read(length - len(body))
                if not chunk:
                    return
                body += chunk
            with self._arrived:
                self.messages.append(json.loads(body))
                self._arrived.notify_all()

    def send(self, command: str, **arguments: Any) -> int:
        self._seq += 1
        message = {"seq": self._seq, "type": "request", "command": command, "arguments": arguments}
        data = json.dumps(message).encode("utf-8")
        self._writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self._writer.flush()
        return self._seq

    def _wait(self, matches: Any, what: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for message in self.messages:
                    if matches(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DapError(f"no {what} in {timeout} s; got: {self.summary()}")
                self._arrived.wait(left)

    def response(self, seq: int, timeout: float = 60) -> dict[str, Any]:
        message = self._wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq,
                             f"response to request {seq}", timeout)
        if not message.get("success"):
            raise DapError(f"{message.get('command')} failed: {message.get('message')} {message.get('body')}")
        body: dict[str, Any] = message.get("body") or {}
        return body

    def request(self, command: str, timeout: float = 60, **arguments: Any) -> dict[str, Any]:
        return self.response(self.send(command, **arguments), timeout)

    def event(self, name: str, timeout: float = 60, unless: str | None = None) -> dict[str, Any]:
        """The first ``name`` event; a ``DapError`` at once if an ``unless`` event comes first
        (the debuggee ``terminated`` instead of stopping)."""
        names = {name, unless}

        def matches(message: dict[str, Any]) -> bool:
            return message.get("type") == "event" and message.get("event") in names

        found = self._wait(matches, f"{name!r} event", timeout)
        if found.get("event") != name:
            raise DapError(f"{unless!r} event before {name!r}; got: {self.summary()}")
        body: dict[str, Any] = found.get("body") or {}
        return body

    def output(self, category: str = "stdout") -> str:
        with self._arrived:
            return "".join(m["body"].get("output", "") for m in self.messages
                           if m.get("event") == "output" and m["body"].get("category") == category)

    def summary(self) -> str:
        with self._arrived:
            return "; ".join(
                f"{m.get('type')} {m.get('event') or m.get('command')}"
                + (f" {m['body'].get('output', '')!r}" if m.get("event") == "output" else "")
                for m in self.messages[-40:]
            )
