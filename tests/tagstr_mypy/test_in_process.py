"""In-process hosts (pylsp-mypy, pytest-mypy) run many builds in one process.

A build with the plugin must leave nothing behind: the next build without it
gets stock mypy's output byte for byte (its syntax error for a tag string),
``ast.parse`` elsewhere in the process stays the stock function, and builds
with and without the plugin alternate freely.  Each sequence runs in a fresh
interpreter and is compared, run by run, with what a fresh interpreter gives
for that one configuration.  Both mypy parsers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

PARSERS = pytest.mark.parametrize("parser", ["--native-parser", "--no-native-parser"])

APP = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation


    def q(*args: Decoded | Interpolation[object]) -> str:
        return ""


    n = 1
    x: int = q"x {n}"
''')

# Runs mypy.api.run once per configuration named on the command line, in this
# order, then reports what ast.parse does and whether it is the stock function.
HOST = textwrap.dedent('''\
    import ast, json, sys
    stock = ast.parse
    from mypy import api
    parser, *configs = sys.argv[1:]
    runs = [
        api.run(["--no-incremental", "--show-column-numbers", parser, "--config-file", c, "app.py"])
        for c in configs
    ]
    try:
        ast.parse('q"x {n}"')
        parsed = "tree"
    except SyntaxError as exc:
        parsed = f"SyntaxError: {exc.msg}"
    print(json.dumps({"runs": runs, "ast.parse": parsed, "stock": ast.parse is stock}))
''')


def host(folder: Path, parser: str, *configs: str) -> dict[str, object]:
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    proc = subprocess.run(
        [sys.executable, "host.py", parser, *configs],
        cwd=folder, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "host.py").write_text(HOST, encoding="utf-8")
    (tmp_path / "plugin.ini").write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    (tmp_path / "plain.ini").write_text("[mypy]\n", encoding="utf-8")
    return tmp_path


@PARSERS
def test_builds_with_and_without_the_plugin_alternate(folder: Path, parser: str) -> None:
    alone = {config: host(folder, parser, config)["runs"][0]  # type: ignore[index]
             for config in ("plugin.ini", "plain.ini")}
    # what each configuration gives on its own: checked with the plugin, stock mypy's syntax error without
    assert alone["plugin.ini"][2] == 1 and "[assignment]" in alone["plugin.ini"][0]
    assert alone["plain.ini"][2] == 2 and "[syntax]" in alone["plain.ini"][0]
    sequence = ["plugin.ini", "plain.ini", "plugin.ini", "plain.ini"]
    result = host(folder, parser, *sequence)
    assert result["runs"] == [alone[config] for config in sequence]
    assert result["ast.parse"] == "SyntaxError: invalid syntax"
    assert result["stock"] is True


PLAIN_HOST = textwrap.dedent('''\
    import json, sys

    from mypy import api

    out, err, status = api.run(["--config-file", "plugin.ini", "--no-incremental", sys.argv[1], "plain.py"])
    loaded = sorted(m for m in sys.modules if m.startswith(("tagstr_runtime.", "tagstr_mypy.")))
    print(json.dumps({"out": out, "status": status, "loaded": loaded}))
''')


@PARSERS
def test_a_run_without_tag_strings_imports_no_desugarer(folder: Path, parser: str) -> None:
    """The plugin loads its names, not the parser, the desugarer or the checks, until a
    module has tag strings: a codebase without any pays next to nothing for it."""
    (folder / "plain.py").write_text("def f(x: int) -> str:\n    return f'{x}'\n", encoding="utf-8")
    (folder / "host.py").write_text(PLAIN_HOST, encoding="utf-8")
    result = host(folder, parser)
    assert result["status"] == 0, result["out"]
    heavy = {"tagstr_runtime.desugarer.desugaring", "tagstr_runtime.syntax.parser", "tagstr_mypy.parse.checker_tree",
             "tagstr_mypy.typing.tag_call", "tagstr_mypy.hooks.signature"}
    assert heavy.isdisjoint(result["loaded"]), result["loaded"]  # type: ignore[arg-type]
