"""A minimal language-server client: JSON-RPC over a server's stdio, as editors speak it."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable


class LanguageServer:
    def __init__(self, command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.lock = threading.Lock()
        self.next_id = 0
        self.stderr: list[bytes] = []
        self.published: dict[str, list[dict[str, Any]]] = {}  # the last diagnostics of each URI
        self.last_publication = time.monotonic()
        self.settings: dict[str, Any] = {}  # answers to workspace/configuration, by section
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            message = json.loads(body)
            if message.get("method") == "textDocument/publishDiagnostics":
                self.published[message["params"]["uri"]] = message["params"]["diagnostics"]
                self.last_publication = time.monotonic()
            if "id" in message and message.get("method") not in (None, "window/workDoneProgress/create"):
                self._answer(message)  # the server's request: configuration, registrations
                continue
            self.messages.put(message)

    def _answer(self, message: dict[str, Any]) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [self.settings.get(item.get("section", ""), None) for item in message["params"]["items"]]
        self._send({"id": message["id"], "result": result})

    def settled(self, uri: str, quiet: float = 2.0, timeout: float = 120,
                ready: Callable[[list[dict[str, Any]]], bool] = lambda found: True) -> list[dict[str, Any]]:
        """The diagnostics of ``uri`` once none was published for ``quiet`` seconds and they are
        ``ready`` (a server may first publish what it has before its analysis of the file is done)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (uri in self.published and time.monotonic() - self.last_publication >= quiet
                    and ready(self.published[uri])):
                return list(self.published[uri])
            time.sleep(0.1)
        raise TimeoutError("no diagnostics settled for " + uri)

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        with self.lock:  # the reader thread answers the server's requests
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any], timeout: float = 120) -> Any:
        self.next_id += 1
        ident = self.next_id
        self._send({"id": ident, "method": method, "params": params})
        for message in self.wait(lambda m: m.get("id") == ident and "method" not in m, timeout):
            return message.get("result")
        raise TimeoutError(method)

    def wait(self, predicate: Any, timeout: float) -> Any:
        """Yield the first message matching ``predicate`` (others are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no matching message; server stderr:\n" + b"".join(self.stderr[-50:]).decode())
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            if message.get("method") == "window/workDoneProgress/create" and "id" in message:
                self._send({"id": message["id"], "result": None})
                continue
            if predicate(message):
                yield message
                return

    def diagnostics(self, uri: str, timeout: float = 180) -> list[dict[str, Any]]:
        """The next ``publishDiagnostics`` for ``uri``."""
        for message in self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
            timeout,
        ):
            return list(message["params"]["diagnostics"])
        raise AssertionError("unreachable")

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=30)
            self.notify("exit", {})
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()
        finally:
            self.process.wait(timeout=30)
