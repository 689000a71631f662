"""``tagstr-lsp -- pyright-langserver --stdio`` (pyright from npm, basedpyright from PyPI), over stdio.

Differential: diagnostics and every request inside holes of ``page.py`` must
be what the same server says of the f-string twin ``twin.py`` at the same
positions; a module importing ``banner = html"..."`` gets the tag's return
type; a rename edits the holes.  One proxy and server per server kind.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lsp_client import LanguageServer
from test_pylsp_plugin import METHODS, apply, ask
from test_pylsp_plugin import same as same_uris
from twins import FIX_TITLES, FIXED, FIXES, MODULE, hole_positions, twin_of, write

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

ERRORS = '''\
from tags import html
from page import User


def show(user: User) -> str:
    return html"<p>{user.nme}</p>{undefined_name}" + html"{len(user.age)}"
'''
IMPORTER = '''\
from page import banner
from twin import banner as twin_banner

shown = banner
twin_shown = twin_banner
'''


def same(project: Path, answer: Any) -> str:
    """``same_uris``, the twin's importer named as the page's; a list of locations in a set's
    order (a server lists references in the order it met the files)."""
    text = same_uris(project, answer).replace((project / "twin_errors.py").as_uri(), (project / "errors.py").as_uri())
    found = json.loads(text)
    if isinstance(found, list) and all(isinstance(item, dict) and "uri" in item for item in found):
        return json.dumps(sorted(found, key=lambda item: json.dumps(item, sort_keys=True)), sort_keys=True)
    return text


def langserver(kind: str, npm_modules: Path) -> list[str]:
    if kind == "pyright":
        return [str(npm_modules / ".bin" / "pyright-langserver"), "--stdio"]
    found = shutil.which("basedpyright-langserver", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("basedpyright is not installed (dependency group 'editors')")
    return [found, "--stdio"]


@pytest.fixture(scope="module", params=["pyright", "basedpyright"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, npm_modules: Path) -> Any:
    project = tmp_path_factory.mktemp(request.param)
    write(project)
    (project / "errors.py").write_text(ERRORS, encoding="utf-8")
    (project / "twin_errors.py").write_text(twin_of(ERRORS).replace("from page", "from twin"), encoding="utf-8")
    (project / "importer.py").write_text(IMPORTER, encoding="utf-8")
    (project / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard"}), encoding="utf-8")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    command = [str(Path(sys.executable).parent / "tagstr-lsp"), "--", *langserver(request.param, npm_modules)]
    lsp = LanguageServer(command, cwd=project, env=env)
    lsp.project = project
    lsp.settings = {"python": {"pythonPath": sys.executable}, "python.analysis": {"diagnosticMode": "openFilesOnly"}}
    lsp.request("initialize", {"processId": os.getpid(), "rootUri": project.as_uri(), "workspaceFolders": [
        {"uri": project.as_uri(), "name": "project"}], "capabilities": {
        "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}, "publishDiagnostics": {}}}})
    lsp.notify("initialized", {})
    for name in ("page.py", "twin.py", "errors.py", "twin_errors.py", "importer.py"):
        path = project / name
        lsp.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "python", "version": 1, "text": path.read_text(encoding="utf-8")}})
    yield lsp
    lsp.close()


def diagnostics(server: LanguageServer, name: str, least: int = 0) -> list[tuple[int, int, int, int, str, str]]:
    """The server's diagnostics of ``name`` (not ours), once at least ``least`` of them are in."""
    found = server.settled((server.project / name).as_uri(),
                           ready=lambda found: sum(d.get("source") != "tagstr" for d in found) >= least)
    return sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"],
                   d["range"]["end"]["character"], str(d.get("code", "")), d["message"]) for d in found
                  if d.get("source") != "tagstr")


def test_no_false_errors_and_the_real_ones(server: LanguageServer) -> None:
    twin_only = 'Import "html" is not accessed'  # the twin does not call the tag (basedpyright says so)
    assert diagnostics(server, "page.py") == [d for d in diagnostics(server, "twin.py") if d[5] != twin_only]
    real = diagnostics(server, "errors.py", least=3)
    assert real == [d for d in diagnostics(server, "twin_errors.py", least=3) if d[5] != twin_only]
    line = ERRORS.splitlines()[5]
    wanted = {(5, line.index("nme")), (5, line.index("undefined_name")), (5, line.index("user.age"))}
    assert {(line, column) for line, column, *_ in real} == wanted, real


def test_importers_get_the_tags_return_type(server: LanguageServer) -> None:
    uri = (server.project / "importer.py").as_uri()
    ours = ask(server, "textDocument/hover", uri, 3, 9)
    theirs = ask(server, "textDocument/hover", uri, 4, 14)
    assert "str" in json.dumps(ours) and "str" in json.dumps(theirs), (ours, theirs)
    assert json.dumps(ours["contents"]) == json.dumps(theirs["contents"]).replace("twin_banner", "banner")


@pytest.mark.parametrize("method", list(METHODS))
def test_requests_inside_holes_answer_as_on_the_twin(server: LanguageServer, method: str) -> None:
    project = server.project
    page, twin = (project / "page.py").as_uri(), (project / "twin.py").as_uri()
    answered = 0
    for name, line, character in hole_positions():
        ours = ask(server, method, page, line, character, **METHODS[method])
        theirs = ask(server, method, twin, line, character, **METHODS[method])
        assert same(project, ours) == same(project, theirs), (name, line, character)
        answered += bool(theirs)
    assert answered > 0


def test_rename_reaches_the_holes(server: LanguageServer) -> None:
    page = (server.project / "page.py").as_uri()
    line = MODULE.splitlines().index("def greet(user: User, greeting: str) -> str:")
    edit = ask(server, "textDocument/rename", page, line, MODULE.splitlines()[line].index("greeting"),
               newName="salutation")
    edits = edit.get("changes", {}).get(page) or next(
        c["edits"] for c in edit["documentChanges"] if c["textDocument"]["uri"] == page)
    assert apply(MODULE, edits) == MODULE.replace("greeting", "salutation")


def test_unsaved_unterminated_buffer(server: LanguageServer) -> None:
    uri = (server.project / "draft.py").as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                            "text": MODULE}})
    typed = MODULE + 'last = html"<p>{User("a", 1).na'
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": len(MODULE.splitlines()), "character": 0},
                   "end": {"line": len(MODULE.splitlines()), "character": 0}},
         "text": 'last = html"<p>{User("a", 1).na'}]})
    lines = typed.splitlines()
    found = ask(server, "textDocument/completion", uri, len(lines) - 1, len(lines[-1]))
    items = found["items"] if isinstance(found, dict) else found
    assert "name" in [item["label"] for item in items]
    time.sleep(0.5)
    published = server.settled(uri)
    assert [d["message"] for d in published if d.get("source") == "tagstr"] == ["tag string: expecting '}'"]


def test_quick_fixes(server: LanguageServer) -> None:
    """The TAG quick fixes join the server's code actions; the tag's rename (TAG001) is the
    server's own rename, made when the action is resolved."""
    path = server.project / "fixes.py"
    text = FIXES
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                            "text": text}})
    # as an editor asks: once the file's diagnostics are in (the server has read it)
    server.settled(uri)
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}
    actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                         "context": {"diagnostics": []}})
    ours = [action for action in actions if "(TAG" in action["title"]]
    assert sorted(a["title"] for a in ours) == FIX_TITLES, actions
    edits = []  # each fix made on the text as it is: together they do not overlap
    for action in ours:
        if "edit" not in action:
            action = server.request("codeAction/resolve", action)
        changes = action["edit"].get("changes") or {c["textDocument"]["uri"]: c["edits"]
                                                    for c in action["edit"]["documentChanges"]}
        edits += changes[uri]
    assert apply(text, edits) == FIXED
    only_source = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                             "context": {"diagnostics": [], "only": ["source"]}})
    assert not [action for action in only_source or [] if "(TAG" in action["title"]]
