"""A minimal language-server client: JSON-RPC over a server's stdio, as editors speak it."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any


class LanguageServer:
    def __init__(self, command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        self.stderr: list[bytes] = []
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
            self.messages.put(json.loads(body))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
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
