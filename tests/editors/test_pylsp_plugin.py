"""The pylsp plugin (tagstr_lsp.pylsp_plugin), driven over stdio as an editor drives pylsp.

Differential: every request inside a hole of ``page.py`` is sent again to its
f-string twin ``twin.py`` at the same position (the twin keeps the columns),
and the answers must be the same (the twin's URI read as the page's).  One
server for the module.
"""

from __future__ import annotations

import json
import keyword
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from lsp_client import LanguageServer
from twins import FIX_TITLES, FIXED, FIXES, MODULE, hole_positions, twin_of, write

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]
pytest.importorskip("pylsp")

SETTINGS = {"pylsp": {"plugins": {name: {"enabled": False} for name in (
    "pyflakes", "pycodestyle", "mccabe", "autopep8", "yapf", "pylsp_mypy", "flake8", "ruff", "pylint")}}}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pylsp")
    write(folder)
    return folder


@pytest.fixture(scope="module")
def server(project: Path) -> Any:
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    lsp = LanguageServer([sys.executable, "-m", "pylsp"], cwd=project, env=env)
    answer = lsp.request("initialize", {"processId": os.getpid(), "rootUri": project.as_uri(),
                                        "capabilities": {}, "workspaceFolders": None})
    lsp.capabilities = answer["capabilities"]
    lsp.notify("initialized", {})
    lsp.notify("workspace/didChangeConfiguration", {"settings": SETTINGS})
    for name in ("page.py", "twin.py"):
        path = project / name
        lsp.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "python", "version": 1, "text": path.read_text(encoding="utf-8")}})
    yield lsp
    lsp.close()


def ask(server: LanguageServer, method: str, uri: str, line: int, character: int, **extra: Any) -> Any:
    return server.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character},
                                   **extra})


def same(project: Path, answer: Any) -> str:
    """An answer with the twin's URI written as the page's, for comparing; completions as the
    names they offer (jedi offers keywords by the context's grammar, a call's argument or an
    f-string's field, and labels with or without the parameters; pyright's auto-imports as far as its
    time limit reached)."""
    if isinstance(answer, dict) and "items" in answer:
        labels = {item["label"].split("(")[0] for item in answer["items"] if item.get("detail") != "Auto-import"}
        answer = sorted(labels - set(keyword.kwlist) - set(keyword.softkwlist))
    return json.dumps(answer, sort_keys=True).replace((project / "twin.py").as_uri(), (project / "page.py").as_uri())


METHODS = {
    "textDocument/hover": {},
    "textDocument/definition": {},
    "textDocument/references": {"context": {"includeDeclaration": True}},
    "textDocument/documentHighlight": {},
    "textDocument/signatureHelp": {},
    "textDocument/completion": {},
}


@pytest.mark.parametrize("method", list(METHODS))
def test_requests_inside_holes_answer_as_on_the_twin(server: LanguageServer, project: Path, method: str) -> None:
    page, twin = (project / "page.py").as_uri(), (project / "twin.py").as_uri()
    answered = 0
    for name, line, character in hole_positions():
        ours = ask(server, method, page, line, character, **METHODS[method])
        theirs = ask(server, method, twin, line, character, **METHODS[method])
        assert same(project, ours) == same(project, theirs), (name, line, character)
        answered += bool(theirs) and theirs not in ({"contents": ""}, {"signatures": []})
    assert answered >= len(hole_positions()) // 2 if method != "textDocument/signatureHelp" else answered > 0


def test_hover_names_what_the_hole_reads(server: LanguageServer, project: Path) -> None:
    line = MODULE.splitlines().index('    page = html"<p>{greeting}, {user.name}!</p><b>{count:>3}</b>"')
    column = MODULE.splitlines()[line].index("user.name") + 6
    hover = ask(server, "textDocument/hover", (project / "page.py").as_uri(), line, column)
    assert "str" in json.dumps(hover), hover
    definition = ask(server, "textDocument/definition", (project / "page.py").as_uri(), line, column)
    assert definition and definition[0]["range"]["start"]["line"] == MODULE.splitlines().index("    name: str")


def test_literal_text_answers_nothing(server: LanguageServer, project: Path) -> None:
    line = MODULE.splitlines().index('    page = html"<p>{greeting}, {user.name}!</p><b>{count:>3}</b>"')
    column = MODULE.splitlines()[line].index("<p>") + 1
    page = (project / "page.py").as_uri()
    assert ask(server, "textDocument/hover", page, line, column) in (None, {"contents": ""})
    assert ask(server, "textDocument/definition", page, line, column) in (None, [])
    completion = ask(server, "textDocument/completion", page, line, column)
    assert not completion or not completion.get("items"), completion


def test_rename_reaches_the_holes(server: LanguageServer, project: Path) -> None:
    page = (project / "page.py").as_uri()
    line = MODULE.splitlines().index("def greet(user: User, greeting: str) -> str:")
    edit = ask(server, "textDocument/rename", page, line, MODULE.splitlines()[line].index("greeting"),
               newName="salutation")
    renamed = apply(MODULE, edit["documentChanges"][0]["edits"])
    assert renamed == MODULE.replace("greeting", "salutation")
    # the same rename on the twin, the hole's columns kept: the twin of the renamed page
    theirs = ask(server, "textDocument/rename", (project / "twin.py").as_uri(), line,
                 MODULE.splitlines()[line].index("greeting"), newName="salutation")
    assert apply(twin_of(MODULE), theirs["documentChanges"][0]["edits"]) == twin_of(renamed)


def test_rename_from_inside_a_hole_across_modules(server: LanguageServer, project: Path) -> None:
    page = (project / "page.py").as_uri()
    line = next(i for i, text in enumerate(MODULE.splitlines()) if text.startswith("    return page + html"))
    column = MODULE.splitlines()[line].index("fmt(")
    edit = ask(server, "textDocument/rename", page, line, column, newName="render")
    by_uri = {change["textDocument"]["uri"]: change["edits"] for change in edit["documentChanges"]}
    assert apply(MODULE, by_uri[page]) == MODULE.replace("fmt", "render")
    tags = (project / "tags.py").read_text(encoding="utf-8")
    assert apply(tags, by_uri[(project / "tags.py").as_uri()]) == tags.replace("def fmt", "def render")


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [sum(len(x) for x in lines[:i]) for i in range(len(lines) + 1)]

    def offset(position: dict[str, int]) -> int:
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[: offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]):]
    return text


def test_completion_in_an_unsaved_unterminated_buffer(server: LanguageServer, project: Path) -> None:
    path = project / "draft.py"
    path.write_text("", encoding="utf-8")
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                            "text": ""}})
    typed = MODULE + 'last = html"<p>{User("a", 1).na'
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": typed}]})
    lines = typed.splitlines()
    found = ask(server, "textDocument/completion", uri, len(lines) - 1, len(lines[-1]))
    assert "name" in [item["label"] for item in found["items"]], found
    middle = typed.replace('page = html"<p>{greeting}', 'page = html"<p>{gree')
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                             "contentChanges": [{"text": middle}]})
    line = middle.splitlines().index('    page = html"<p>{gree, {user.name}!</p><b>{count:>3}</b>"')
    found = ask(server, "textDocument/completion", uri, line, middle.splitlines()[line].index("gree") + 4)
    assert "greeting" in [item["label"] for item in found["items"]], found


def test_semantic_tokens(server: LanguageServer, project: Path) -> None:
    legend = server.capabilities["semanticTokensProvider"]["legend"]
    data = server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": (project / "page.py").as_uri()}})
    tokens = decode(data["data"], legend, MODULE)
    line = MODULE.splitlines().index('banner = html"<h1>{greet(User(\'Ann\', 3), \'Hi\')}</h1>"')
    assert [(kind, text) for number, kind, text in tokens if number == line] == [
        ("function", "html"), ("string", '"<h1>'), ("operator", "{"), ("variable", "greet"), ("operator", "("),
        ("variable", "User"), ("operator", "("), ("string", "'Ann'"), ("operator", ","), ("number", "3"),
        ("operator", ")"), ("operator", ","), ("string", "'Hi'"), ("operator", ")"), ("operator", "}"),
        ("string", '</h1>"'),
    ]


def decode(data: list[int], legend: dict[str, list[str]], text: str) -> list[tuple[int, str, str]]:
    """(line, type, text) of each token, adjacent string tokens merged."""
    lines = text.splitlines()
    out: list[tuple[int, str, str]] = []
    line = column = 0
    for i in range(0, len(data), 5):
        delta_line, delta_column, length, kind, _ = data[i : i + 5]
        line += delta_line
        column = column + delta_column if delta_line == 0 else delta_column
        name = legend["tokenTypes"][kind]
        piece = lines[line][column : column + length]
        follows = lines[line].find(out[-1][2]) + len(out[-1][2]) == column if out else False
        if follows and out[-1][0] == line and out[-1][1] == name == "string":
            out[-1] = (line, name, out[-1][2] + piece)
        else:
            out.append((line, name, piece))
    return out


def test_quick_fixes(server: LanguageServer, project: Path) -> None:
    path = project / "fixes.py"
    text = FIXES
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                            "text": text}})
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}
    actions = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                         "context": {"diagnostics": []}})
    titles = sorted(a["title"] for a in actions)
    assert titles == FIX_TITLES, titles
    edits = []  # each fix made on the text as it is: together they do not overlap
    for action in actions:
        changes = action["edit"].get("changes") or {c["textDocument"]["uri"]: c["edits"]
                                                    for c in action["edit"]["documentChanges"]}
        edits += changes[uri]
    assert apply(text, edits) == FIXED
