"""``tagstr-lsp -- ruff server`` (the Ruff extension's server) over stdio: no false syntax errors, the
real undefined name inside a hole, and a fix-all that never touches a tag string nor the import of a
tag named ``t``.  One server for the module."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from lsp_client import LanguageServer
from test_pylsp_plugin import apply

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

PAGE = '''\
import os
from tags import t, html

page = t"<p>{undefined_name}</p>"
rows = [html"<td>{n}</td>" for n in range(3)]
x = html"{ page == None }"
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed (dependency group 'tools')")
    project = tmp_path_factory.mktemp("ruff")
    (project / "page.py").write_text(PAGE, encoding="utf-8")
    (project / "ruff.toml").write_text('[lint]\nselect = ["F", "E"]\n', encoding="utf-8")
    command = [str(Path(sys.executable).parent / "tagstr-lsp"), "--", ruff, "server"]
    lsp = LanguageServer(command, cwd=project, env={**os.environ})
    lsp.project = project
    lsp.request("initialize", {"processId": os.getpid(), "rootUri": project.as_uri(), "workspaceFolders": [
        {"uri": project.as_uri(), "name": "project"}], "capabilities": {}})
    lsp.notify("initialized", {})
    lsp.notify("textDocument/didOpen", {"textDocument": {"uri": (project / "page.py").as_uri(),
                                                         "languageId": "python", "version": 1, "text": PAGE}})
    yield lsp
    lsp.close()


def test_diagnostics(server: LanguageServer) -> None:
    found = server.settled((server.project / "page.py").as_uri())
    ruff = sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], str(d.get("code")))
                  for d in found if d.get("source") != "tagstr")
    lines = PAGE.splitlines()
    wanted = [(0, 7, "F401"), (3, lines[3].index("undefined"), "F821"), (5, lines[5].index("None"), "E711")]
    assert ruff == wanted, found
    assert [d["code"] for d in found if d.get("source") == "tagstr"] == ["TAG001"], found


def test_fix_all_keeps_tag_strings_and_the_tag_import(server: LanguageServer) -> None:
    uri = (server.project / "page.py").as_uri()
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}
    actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                         "context": {"diagnostics": [], "only": ["source.fixAll"]}})
    assert actions, actions
    action = actions[0]
    if "edit" not in action:
        action = server.request("codeAction/resolve", action)
    changes = action["edit"].get("changes") or {c["textDocument"]["uri"]: c["edits"]
                                                for c in action["edit"]["documentChanges"]}
    assert apply(PAGE, changes[uri]) == PAGE.replace("import os\n", "")


def test_quick_fix_inside_a_hole(server: LanguageServer) -> None:
    uri = (server.project / "page.py").as_uri()
    line = 5
    found = [d for d in server.settled(uri) if d.get("code") == "E711"]
    where = {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 24}}
    actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": where,
                                                         "context": {"diagnostics": found}})
    fixes = [a for a in actions if "E711" in a.get("title", "") or a.get("kind") == "quickfix"]
    assert fixes, actions
    action = fixes[0] if "edit" in fixes[0] else server.request("codeAction/resolve", fixes[0])
    changes = action["edit"].get("changes") or {c["textDocument"]["uri"]: c["edits"]
                                                for c in action["edit"]["documentChanges"]}
    assert apply(PAGE, changes[uri]) == PAGE.replace("page == None", "page is None")


def test_no_tag_rename_where_the_server_does_not_rename(server: LanguageServer) -> None:
    """TAG001's fix is the server's rename, and ruff server has none: not offered."""
    uri = (server.project / "page.py").as_uri()
    found = server.settled(uri)
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}
    actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                         "context": {"diagnostics": found}})
    assert any(d.get("code") == "TAG001" for d in found)
    assert not [action for action in actions or [] if "TAG001" in action.get("title", "")], actions
