"""The TAG quick fixes beside the server's code actions (``tagstr_lsp.actions``).

Text edits (TAG002, TAG011) are made here. A tag's rename (TAG001) is offered only
where the server renames: the action carries where and to what, and when the
editor resolves it, the server's own rename makes the edit, which reaches every use.
"""

from __future__ import annotations

from typing import Any

from tagstr_runtime.frontend import RenameFix

from tagstr_lsp.actions import fix_actions
from tagstr_lsp.proxy.documents import Documents
from tagstr_lsp.proxy.jsonrpc import Stream
from tagstr_lsp.proxy.translate import Translator, without_refused

__all__ = ["CodeActions"]


class CodeActions:
    def __init__(self, documents: Documents, translator: Translator, client: Stream, server: Stream) -> None:
        self.documents = documents
        self.translator = translator
        self.client = client
        self.server = server
        self.asked: dict[Any, dict[str, Any]] = {}  # a codeAction request's params, by its id
        self.resolving: dict[Any, tuple[Any, dict[str, Any]]] = {}  # our rename's id: the editor's id, the action
        self.server_actions = self.server_resolves = self.server_renames = False
        self._ids = 0

    def capabilities(self, capabilities: dict[str, Any]) -> dict[str, Any]:
        """The server's ``codeActionProvider`` as the proxy offers it (ours included)."""
        actions = capabilities.get("codeActionProvider")
        self.server_actions = bool(actions)
        self.server_resolves = isinstance(actions, dict) and bool(actions.get("resolveProvider"))
        self.server_renames = bool(capabilities.get("renameProvider"))
        provided = {**(actions if isinstance(actions, dict) else {}),
                    "resolveProvider": self.server_resolves or self.server_renames}
        kinds = provided.get("codeActionKinds")
        if isinstance(kinds, list) and "quickfix" not in kinds:
            provided["codeActionKinds"] = [*kinds, "quickfix"]
        return provided

    def request(self, message: dict[str, Any], uri: str | None) -> bool:
        """Take the editor's ``codeAction`` or ``codeAction/resolve`` request; whether it is
        answered already (else it goes to the server)."""
        method, params = message.get("method"), message.get("params")
        if not isinstance(params, dict):
            return False
        if method == "textDocument/codeAction":
            if not self.server_actions:
                self._answer(message["id"], self.ours(uri, params))
                return True
            self.asked[message["id"]] = params
        elif method == "codeAction/resolve":
            if isinstance(params.get("data"), dict) and "tagstr" in params["data"]:
                self._rename(message["id"], params)
                return True
            if not self.server_resolves:
                self._answer(message["id"], params)
                return True
        return False

    def answer(self, message: dict[str, Any]) -> bool:
        """Take the server's answer to our rename; whether it was one."""
        if message.get("id") not in self.resolving:
            return False
        client_id, action = self.resolving.pop(message["id"])
        resolved = {key: value for key, value in action.items() if key != "data"}
        if isinstance(message.get("result"), dict):
            uri = action["data"].get("uri")
            edit = without_refused(lambda: self.translator.result_to_source(message["result"], uri))
            if edit is not None:
                resolved["edit"] = edit
        self._answer(client_id, resolved)
        return True

    def joined(self, request_id: Any, uri: str | None, result: Any) -> Any:
        """The server's actions for a ``codeAction`` request, ours after them."""
        params = self.asked.pop(request_id, None)
        if params is None:
            return result
        return (result if isinstance(result, list) else []) + self.ours(uri, params)

    def forget(self, request_id: Any) -> None:
        self.asked.pop(request_id, None)

    def ours(self, uri: str | None, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The TAG quick fixes that meet the requested range and kinds."""
        document = self.documents.get(uri)
        context: dict[str, Any] = params["context"] if isinstance(params.get("context"), dict) else {}
        wanted = context.get("only")
        if (document is None or uri is None or not isinstance(params.get("range"), dict)
                or isinstance(wanted, list) and not any("quickfix".startswith(kind) for kind in wanted)):
            return []
        lines = document.view.source_lines
        out = []
        for fix, action in fix_actions(document.view, document.path, uri, params["range"],
                                       list(context.get("diagnostics") or ()), utf16=True):
            if isinstance(fix, RenameFix):
                if not self.server_renames:
                    continue
                line, column = lines.position(fix.at)
                action["data"] = {"tagstr": "rename", "uri": uri, "newName": fix.new_name,
                                  "position": {"line": line, "character": lines.to_utf16(line, column)}}
            out.append(action)
        return out

    def _rename(self, client_id: Any, action: dict[str, Any]) -> None:
        data = action["data"]
        self._ids += 1
        ours = f"tagstr-rename-{self._ids}"
        self.resolving[ours] = (client_id, action)
        params = {"textDocument": {"uri": data.get("uri")}, "position": data.get("position"),
                  "newName": data.get("newName")}
        self.server.write({"jsonrpc": "2.0", "id": ours, "method": "textDocument/rename",
                           "params": self.translator.params_to_view(params)})

    def _answer(self, request_id: Any, result: Any) -> None:
        self.client.write({"jsonrpc": "2.0", "id": request_id, "result": result})
