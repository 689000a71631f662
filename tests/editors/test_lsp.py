"""A real language server (python-lsp-server with pylsp-mypy and its flake8
plugin) driven over stdio as an editor drives it, on files with tag strings.

The buffer is opened, then changed without saving: pylsp-mypy's live mode
checks it through ``--shadow-file`` and pylsp's flake8 plugin pipes it to
``flake8 -``, so both must report on the editor's text, not the file on disk.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from lsp_client import LanguageServer

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]  # a language server running mypy
pytest.importorskip("pylsp")
pytest.importorskip("pylsp_mypy")

SOURCE = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation


    def html(*args: Decoded | Interpolation[int | str]) -> str:
        return ""


    count = 1
    page = html"<p>{count.missing}</p>"
    rows = html"<td>{[count]}</td>"
    unknown = html"{undefined_name}"
''')

SETTINGS = {
    "pylsp": {
        "plugins": {
            "pylsp_mypy": {"enabled": True, "live_mode": True},
            "flake8": {"enabled": True},
            # the built-in in-process checkers read the text with ast.parse
            # without the plugins: editors using tag strings switch them to flake8
            "pyflakes": {"enabled": False},
            "pycodestyle": {"enabled": False},
            "mccabe": {"enabled": False},
            "autopep8": {"enabled": False},
            "yapf": {"enabled": False},
            # python-lsp-ruff, if installed, runs plain ruff: tag strings are syntax errors to it
            "ruff": {"enabled": False},
        }
    }
}


def simplified(diagnostics: list[dict[str, Any]]) -> list[tuple[str, str, int, int, int]]:
    """(source, code, line, start character, end character), 0-based as LSP has them."""
    return sorted(
        (d.get("source", ""), str(d.get("code", "")), d["range"]["start"]["line"],
         d["range"]["start"]["character"], d["range"]["end"]["character"])
        for d in diagnostics
    )


@pytest.fixture
def server(tmp_path: Path) -> Any:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    (tmp_path / ".flake8").write_text("[flake8]\nmax-line-length = 100\n", encoding="utf-8")
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")  # flake8 of this environment
    lsp = LanguageServer([sys.executable, "-m", "pylsp"], cwd=tmp_path, env=env)
    lsp.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(),
                               "capabilities": {}, "workspaceFolders": None})
    lsp.notify("initialized", {})
    lsp.notify("workspace/didChangeConfiguration", {"settings": SETTINGS})
    yield lsp
    lsp.close()


def lint_until(server: LanguageServer, uri: str, sources: set[str]) -> list[dict[str, Any]]:
    """Diagnostics once a publication has run every wanted source (pylsp
    publishes per lint run; a clean file publishes an empty list)."""
    while True:
        found = server.diagnostics(uri)
        if not sources or {d.get("source") for d in found} >= sources:
            return found


def test_diagnostics_follow_the_buffer(server: LanguageServer, tmp_path: Path) -> None:
    path = tmp_path / "page.py"
    path.write_text(SOURCE, encoding="utf-8")
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": SOURCE}})
    found = simplified(lint_until(server, uri, {"mypy", "flake8"}))
    assert ("mypy", "attr-defined", 8, 16, 29) in found, found
    assert ("mypy", "tagstr-interpolation", 9, 17, 24) in found, found
    assert ("mypy", "name-defined", 10, 16, 30) in found, found
    assert [f for f in found if f[0] == "flake8"] == [("flake8", "F821", 10, 16, 33)], found

    # an unsaved edit: one line added above the tag strings
    edited = SOURCE.replace("count = 1\n", "count = 1\nextra = 2\n")
    server.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": edited}],
    })
    moved = simplified(lint_until(server, uri, {"mypy", "flake8"}))
    assert ("mypy", "attr-defined", 9, 16, 29) in moved, moved
    assert ("flake8", "F821", 11, 16, 33) in moved, moved

    # fixed, still unsaved: nothing left to report
    clean = edited.replace("{count.missing}", "{count}").replace("{[count]}", "{count}").replace(
        "{undefined_name}", "{extra}")
    server.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"text": clean}],
    })
    assert lint_until(server, uri, set()) == []
