"""The editor configurations of docs/editors.md, run: each server command they name starts,
answers ``initialize`` through ``tagstr-lsp`` and reports an undefined name inside a hole."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from lsp_client import LanguageServer

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent
SOURCE = 'from tags import html\n\npage = html"<p>{undefined_name}</p>"\n'


def neovim_commands() -> list[list[str]]:
    lua = re.search(r"```lua\n(.*?)```", PAGE, re.S)
    assert lua is not None
    return [re.findall(r'"([^"]+)"', cmd) for cmd in re.findall(r"cmd = \{([^}]*)\}", lua[1])]


def helix_commands() -> list[list[str]]:
    toml = re.search(r"<!-- file: .helix/languages.toml -->\s*```toml\n(.*?)```", PAGE, re.S)
    assert toml is not None
    servers = tomllib.loads(toml[1])["language-server"]
    return [[server["command"], *server["args"]] for server in servers.values()]


def vscode_ruff_command(tmp_path: Path) -> list[str]:
    script = re.search(r"```sh\n(#!/bin/sh\n.*?)```", PAGE, re.S)
    assert script is not None
    path = tmp_path / "ruff-behind-tagstr"
    path.write_text(script[1], encoding="utf-8")
    path.chmod(0o755)
    return [str(path), "server"]  # what the Ruff extension runs


def resolve(command: list[str], npm_modules: Path | None) -> list[str]:
    found = shutil.which(command[0], path=os.pathsep.join([str(BIN), str((npm_modules or BIN) / ".bin")]))
    return [found or command[0], *command[1:]]


def check(command: list[str], tmp_path: Path, env: dict[str, str]) -> None:
    (tmp_path / "tags.py").write_text("def html(*args: object) -> str:\n    return ''\n", encoding="utf-8")
    page = tmp_path / "page.py"
    page.write_text(SOURCE, encoding="utf-8")
    lsp = LanguageServer(command, cwd=tmp_path, env=env)
    try:
        answer: Any = lsp.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(),
                                                 "capabilities": {}, "workspaceFolders": None})
        assert "semanticTokensProvider" in answer["capabilities"], answer
        lsp.notify("initialized", {})
        lsp.notify("textDocument/didOpen", {"textDocument": {"uri": page.as_uri(), "languageId": "python",
                                                             "version": 1, "text": SOURCE}})
        found = lsp.settled(page.as_uri())
        column = SOURCE.splitlines()[2].index("undefined_name")
        assert any(d["range"]["start"] == {"line": 2, "character": column} for d in found), json.dumps(found)
        assert not any("syntax" in d["message"].lower() for d in found), found
    finally:
        lsp.close()


def test_the_configured_commands_run(tmp_path: Path, npm_modules: Path) -> None:
    env = {**os.environ, "PATH": os.pathsep.join([str(BIN), str(npm_modules / ".bin"), os.environ.get("PATH", "")])}
    commands = neovim_commands() + helix_commands()
    assert {c[0] for c in commands} == {"tagstr-lsp"}
    for number, command in enumerate(commands + [vscode_ruff_command(tmp_path)]):
        folder = tmp_path / str(number)
        folder.mkdir()
        if command[0] == "tagstr-lsp" and "basedpyright-langserver" in command and not shutil.which(
                "basedpyright-langserver", path=env["PATH"]):
            pytest.skip("basedpyright is not installed (dependency group 'editors')")
        check(resolve(command, npm_modules), folder, env)


def test_pylsp_settings_are_what_the_tests_use() -> None:
    block = re.search(r"<!-- file: pylsp-settings.json -->\s*```json\n(.*?)```", PAGE, re.S)
    assert block is not None
    plugins = json.loads(block[1])["pylsp"]["plugins"]
    assert not plugins["ruff"]["enabled"] and not plugins["pyflakes"]["enabled"] and plugins["flake8"]["enabled"]
