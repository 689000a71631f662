"""The proxy's two pumps: the editor's messages to the server and back, each rewritten where it must be.

Documents reach the server as their placeholder views (opened, changed by
the smallest change of the view, saved); positions in requests go to the
view and ranges in answers come back (``translate``).  Modules with tag
strings that the editor has not opened are opened for the server too, so
that a module importing ``banner = html"..."`` sees the tag's return type.
Diagnostics are the server's, mapped and filtered, and ours
(``our_diagnostics``), published together; the TAG quick fixes join the
server's code actions (``code_actions``).
"""

from __future__ import annotations

import functools
import os
import threading
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import pathname2url

from tagstr_runtime.frontend import TOKEN_MODIFIERS, TOKEN_TYPES, semantic_tokens

from tagstr_lsp.proxy.code_actions import CodeActions
from tagstr_lsp.proxy.documents import Document, Documents, view_change
from tagstr_lsp.proxy.jsonrpc import Stream
from tagstr_lsp.proxy.our_diagnostics import our_diagnostics
from tagstr_lsp.proxy.translate import Refused, Translator, without_refused

__all__ = ["Session"]

_SKIPPED = frozenset(["node_modules", "__pycache__", "build", "dist", "site-packages", "venv", ".venv", "env"])
_MAX_SHADOWED = 5000  # modules read when the workspace opens, at most
_AT_POSITION = frozenset([
    "textDocument/hover", "textDocument/definition", "textDocument/declaration", "textDocument/typeDefinition",
    "textDocument/implementation", "textDocument/references", "textDocument/documentHighlight",
    "textDocument/completion", "textDocument/signatureHelp", "textDocument/rename", "textDocument/prepareRename",
])
_LINT_DELAY = 0.25  # seconds of quiet before our lints of a changed document run


def path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def uri_of(path: str) -> str:
    return "file://" + pathname2url(os.path.abspath(path))


class Session:
    def __init__(self, client: Stream, server: Stream, *, lint: bool = True) -> None:
        self.client = client
        self.server = server
        self.lint = lint
        self.documents = Documents()
        self.translator = Translator(self.documents)
        self.pending: dict[Any, tuple[str, str | None]] = {}
        self.incremental = False  # the server takes incremental changes
        self.server_legend: list[str] | None = None  # the server's semantic token types
        self.legend = list(TOKEN_TYPES)
        self.roots: list[str] = []
        self.server_diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.ours: dict[str, list[dict[str, Any]]] = {}
        self._timers: dict[str, threading.Timer] = {}
        self.modifiers = list(TOKEN_MODIFIERS)
        self.actions = CodeActions(self.documents, self.translator, client, server)

    # -- pumps -------------------------------------------------------------------------

    def from_client(self) -> None:
        while (message := self.client.read()) is not None:
            with self.documents.lock:
                self.on_client(message)
        self.server.close()

    def from_server(self) -> None:
        while (message := self.server.read()) is not None:
            with self.documents.lock:
                self.on_server(message)

    # -- the editor's messages ---------------------------------------------------------

    def on_client(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        params = message.get("params")
        if method is None:  # an answer to the server's request
            self.server.write(message)
            return
        if "id" not in message:
            handler = getattr(self, "_" + method.replace("/", "_").replace("$", "S"), None)
            if handler is not None:
                handler(params)
            else:
                self.server.write(message)
            return
        uri = None
        if isinstance(params, dict) and isinstance(params.get("textDocument"), dict):
            uri = params["textDocument"].get("uri")
        if method == "initialize":
            self._roots(params)
        if self._nothing_there(method, uri, params):
            self.client.write({"jsonrpc": "2.0", "id": message["id"], "result": None})
            return
        if self.actions.request(message, uri):
            return
        if method == "textDocument/semanticTokens/full" and self.server_legend is None:
            self.client.write({"jsonrpc": "2.0", "id": message["id"], "result": self._tokens(uri, None)})
            return
        self.pending[message["id"]] = (method, uri)
        self.server.write({**message, "params": self.translator.params_to_view(params)})

    def _nothing_there(self, method: str, uri: str | None, params: Any) -> bool:
        """A request at a position of a tag string's own syntax (its literal text, braces), which
        the f-string twin answers with nothing; signature help in a hole outside every call of
        the user's (only the view's call of the tag is around)."""
        view = self.translator.view(uri)
        position = params.get("position") if isinstance(params, dict) else None
        if view is None or not isinstance(position, dict) or method not in _AT_POSITION:
            return False
        line, column = position["line"], position["character"]
        if view.part_at(line, column, cursor=True) == "syntax":
            return True
        return method == "textDocument/signatureHelp" and view.open_brackets(line, column) == 0

    def _roots(self, params: Any) -> None:
        folders = (params or {}).get("workspaceFolders") or []
        uris = [f["uri"] for f in folders if isinstance(f, dict)] or [(params or {}).get("rootUri")]
        self.roots = [p for p in (path_of(u) for u in uris if u) if p]

    def _initialized(self, params: Any) -> None:
        self.server.write({"jsonrpc": "2.0", "method": "initialized", "params": params or {}})
        threading.Thread(target=self._open_workspace, daemon=True).start()

    def _open_workspace(self) -> None:
        """Open for the server each module of the workspace that has tag strings."""
        seen = 0
        for root in self.roots:
            for folder, dirs, files in os.walk(root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED]
                for name in files:
                    if not name.endswith(".py") or seen >= _MAX_SHADOWED:
                        continue
                    seen += 1
                    self._shadow(os.path.join(folder, name))

    def _shadow(self, path: str) -> None:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError):
            return
        if '"' not in text and "'" not in text:
            return
        uri = uri_of(path)
        document = Document(uri, text, 0, path, client=False)
        if not document.view.has_tag_strings:
            return
        with self.documents.lock:
            if uri in self.documents.by_uri:
                return
            self.documents.by_uri[uri] = document
            self._notify_server("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "python", "version": 0, "text": document.view.view}})

    def _notify_server(self, method: str, params: Any) -> None:
        self.server.write({"jsonrpc": "2.0", "method": method, "params": params})

    def _textDocument_didOpen(self, params: Any) -> None:
        item = params["textDocument"]
        uri = item["uri"]
        known = self.documents.get(uri)
        document = Document(uri, item["text"], item.get("version", 0), path_of(uri), client=True)
        self.documents.by_uri[uri] = document
        if known is not None and not known.client:  # opened for the server already: now the editor's
            self._send_text(known.view.view, document)
        else:
            self._notify_server("textDocument/didOpen", {"textDocument": {**item, "text": document.view.view}})
        self._schedule_lint(document)

    def _send_text(self, before: str, document: Document) -> None:
        after = document.view.view
        change = view_change(before, after) if self.incremental else {"text": after}
        self._notify_server("textDocument/didChange", {
            "textDocument": {"uri": document.uri, "version": document.version}, "contentChanges": [change]})

    def _textDocument_didChange(self, params: Any) -> None:
        uri = params["textDocument"]["uri"]
        document = self.documents.get(uri)
        if document is None:
            self._notify_server("textDocument/didChange", params)
            return
        before = document.view.view
        document.apply(params["contentChanges"])
        document.version = params["textDocument"].get("version", document.version + 1)
        self._send_text(before, document)
        self._schedule_lint(document)

    def _textDocument_didSave(self, params: Any) -> None:
        document = self.documents.get(params["textDocument"]["uri"])
        if document is not None and "text" in params:
            params = {**params, "text": document.view.view}
        self._notify_server("textDocument/didSave", params)

    def _textDocument_didClose(self, params: Any) -> None:
        uri = params["textDocument"]["uri"]
        document = self.documents.by_uri.pop(uri, None)
        self.ours.pop(uri, None)
        path = path_of(uri)
        if document is not None and document.view.has_tag_strings and path and os.path.exists(path):
            before = document.view.view
            self.documents.by_uri[uri] = document  # the file on disk, for the server's imports
            document.client = False
            try:
                with open(path, encoding="utf-8") as file:
                    document.set_text(file.read())
            except (OSError, UnicodeDecodeError):
                pass
            else:
                document.version += 1
                self._send_text(before, document)
                return
            del self.documents.by_uri[uri]
        self._notify_server("textDocument/didClose", params)

    def _workspace_didChangeWatchedFiles(self, params: Any) -> None:
        self._notify_server("workspace/didChangeWatchedFiles", params)
        for change in (params or {}).get("changes", []):
            document = self.documents.get(change.get("uri"))
            path = path_of(change.get("uri", ""))
            if document is None and path and path.endswith(".py") and change.get("type") in (1, 2):
                self._shadow(path)
            elif document is not None and not document.client and path:
                before = document.view.view
                try:
                    with open(path, encoding="utf-8") as file:
                        document.set_text(file.read())
                except (OSError, UnicodeDecodeError):
                    continue
                document.version += 1
                self._send_text(before, document)

    # -- the server's messages ---------------------------------------------------------

    def on_server(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            params = message["params"]
            uri = params["uri"]
            self.server_diagnostics[uri] = self.translator.diagnostics_to_source(uri, params.get("diagnostics", []))
            self._publish(uri, params.get("version"))
            return
        if method == "workspace/applyEdit" and "id" in message:
            try:
                edit = self.translator.result_to_source(message["params"]["edit"], None)
            except Refused:
                self.server.write({"jsonrpc": "2.0", "id": message["id"], "result": {
                    "applied": False, "failureReason": "the edit would change a tag string"}})
                return
            self.client.write({**message, "params": {**message["params"], "edit": edit}})
            return
        if method is not None:
            self.client.write(message)
            return
        if self.actions.answer(message):
            return
        asked = self.pending.pop(message.get("id"), None)
        if asked is None or "result" not in message:
            self.actions.forget(message.get("id"))
            self.client.write(message)
            return
        method, uri = asked
        result = self._result(method, uri, message["result"])
        if method == "textDocument/codeAction":
            result = self.actions.joined(message["id"], uri, result)
        self.client.write({**message, "result": result})

    def _result(self, method: str, uri: str | None, result: Any) -> Any:
        if method == "initialize":
            return self._capabilities(result)
        if method == "textDocument/semanticTokens/full":
            return self._tokens(uri, result)
        if method == "textDocument/diagnostic" and isinstance(result, dict) and uri:
            if isinstance(result.get("items"), list):
                result = {**result, "items": self.translator.diagnostics_to_source(uri, result["items"])}
            return result
        if method == "textDocument/codeAction" and isinstance(result, list):
            to_source = self.translator.result_to_source
            kept = [without_refused(functools.partial(to_source, action, uri)) for action in result]
            return [action for action in kept if action is not None]
        if method == "codeAction/resolve":
            return without_refused(lambda: self.translator.result_to_source(result, uri))
        try:
            return self.translator.result_to_source(result, uri)
        except Refused:
            return [] if "ormatting" in method else None

    def _capabilities(self, result: Any) -> Any:
        capabilities = dict(result.get("capabilities", {}))
        sync = capabilities.get("textDocumentSync")
        kind = sync.get("change", 1) if isinstance(sync, dict) else (sync or 1)
        self.incremental = kind == 2
        if isinstance(sync, dict):
            capabilities["textDocumentSync"] = {**sync, "change": 2}
        else:
            capabilities["textDocumentSync"] = {"openClose": True, "change": 2, "save": {"includeText": False}}
        capabilities["codeActionProvider"] = self.actions.capabilities(capabilities)
        provider = capabilities.get("semanticTokensProvider")
        if isinstance(provider, dict) and isinstance(provider.get("legend"), dict):
            legend = provider["legend"]
            self.server_legend = list(legend.get("tokenTypes", []))
            self.legend = self.server_legend + [t for t in TOKEN_TYPES if t not in self.server_legend]
            modifiers = list(legend.get("tokenModifiers", []))
            modifiers += [m for m in TOKEN_MODIFIERS if m not in modifiers]
            legend = {"tokenTypes": self.legend, "tokenModifiers": modifiers}
            capabilities["semanticTokensProvider"] = {**provider, "legend": legend}
            self.modifiers = modifiers
        else:
            self.modifiers = list(TOKEN_MODIFIERS)
            capabilities["semanticTokensProvider"] = {
                "legend": {"tokenTypes": self.legend, "tokenModifiers": self.modifiers}, "full": True}
        return {**result, "capabilities": capabilities}

    def _tokens(self, uri: str | None, result: Any) -> Any:
        """The server's tokens (if any) off the view's syntax, with ours for the tag strings."""
        document = self.documents.get(uri)
        if document is None or not document.view.has_tag_strings:
            return result if result is not None else {"data": []}
        view = document.view
        kept: list[tuple[int, int, int, int, int]] = []  # (offset, length, line, type, modifiers)
        data = (result or {}).get("data") or []
        line = column = 0
        for i in range(0, len(data) - 4, 5):
            line += data[i]
            column = column + data[i + 1] if data[i] == 0 else data[i + 1]
            if view.in_view_syntax(line, column):
                continue
            start = view.source_offset(view.view_offset_at(line, column))
            end = view.source_offset(view.view_offset_at(line, column + data[i + 2]))
            kept.append((start, end, data[i + 3], data[i + 4], 0))
        server_tokens = bool(data)
        ours = semantic_tokens(view.text, view.tags, document.path) if view.error is None else []
        index = {name: i for i, name in enumerate(self.legend)}
        for token in ours:
            if server_tokens and token.modifiers & 3 != 1 or server_tokens and token.type == "function":
                continue  # the server colours holes and names itself
            bits = sum(1 << self.modifiers.index(name) for i, name in enumerate(TOKEN_MODIFIERS)
                       if token.modifiers & (1 << i))
            kept.append((token.start, token.end, index[token.type], bits, 0))
        kept.sort()
        out: list[int] = []
        lines = view.source_lines
        last_line = last_column = 0
        previous_end = -1
        for start, end, kind, bits, _ in kept:
            if start < previous_end or end <= start:
                continue
            line, column = lines.position(start)
            column16 = lines.to_utf16(line, column)
            length = lines.to_utf16(line, column + end - start) - column16
            out += [line - last_line, column16 - (last_column if line == last_line else 0), length, kind, bits]
            last_line, last_column, previous_end = line, column16, end
        return {**(result or {}), "data": out}

    # -- diagnostics -------------------------------------------------------------------

    def _schedule_lint(self, document: Document) -> None:
        if not self.lint:
            return
        timer = self._timers.pop(document.uri, None)
        if timer is not None:
            timer.cancel()
        timer = threading.Timer(_LINT_DELAY, self._lint, (document.uri,))
        timer.daemon = True
        self._timers[document.uri] = timer
        timer.start()

    def _lint(self, uri: str) -> None:
        with self.documents.lock:
            document = self.documents.get(uri)
            if document is None:
                return
            view, version = document.view, document.version
        found = our_diagnostics(view, document.path)
        with self.documents.lock:
            if document.view is not view:
                return  # changed meanwhile: its own lint follows
            self.ours[uri] = found
            self._publish(uri, version)

    def _publish(self, uri: str, version: Any) -> None:
        diagnostics = self.server_diagnostics.get(uri, []) + self.ours.get(uri, [])
        params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        self.client.write({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
