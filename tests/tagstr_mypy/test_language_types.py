"""The types an interpolation's context asks for (an SQL name, HTML attributes), in every way users run mypy.

The case files (``cases/languages.py``) pin each message at its position in a
fresh run.  Here, an edit sequence: the tag declared in another module, the
user's module edited, the tag's module edited; after each step mypy with its
cache, with ``--num-workers`` and through dmypy says what a fresh run says.
The plugin reads each tag's language from its definition's source when it
parses the module with the tag string, so a tag module read from the cache
keeps its language.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import write_config

pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.skipif(
        any(importlib.util.find_spec(name) is None for name in ("sqlglot", "html5lib")),
        reason="the SQL and HTML parsers (tagstr-toolkit[sql,html]) are not installed",
    ),
]

FILES = ("tags.py", "views.py")
TAGS = '''from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def sql(*args: Annotated[Decoded | Interpolation[object], "sql"]) -> str:
    return ""


def html(*args: Annotated[Decoded | Interpolation[object], "html"]) -> {returns}:
    return ""
'''
VIEWS = '''from typing import Mapping

from tagstr_runtime.languages import Identifier

from tags import html, sql


def page(table: {table}, attrs: {attrs}) -> object:
    return sql"SELECT * FROM {{table:i}}", html"<div {{attrs}}>x</div>"
'''
STEPS: list[tuple[str, dict[str, str]]] = [
    ("start", {"tags.py": TAGS.format(returns="str"), "views.py": VIEWS.format(table="str", attrs="list[str]")}),
    ("the values typed as the contexts ask", {"views.py": VIEWS.format(table="Identifier", attrs="Mapping[str, int]")}),
    ("one wrong again", {"views.py": VIEWS.format(table="Identifier", attrs="str")}),
    ("the tag's module edited", {"tags.py": TAGS.format(returns="object")}),
]
ARGS = ("--show-column-numbers", "--show-error-codes", "--no-error-summary", "--hide-error-context")


def test_every_mode_says_what_a_fresh_run_says(tmp_path: Path) -> None:
    write_config(tmp_path)
    env = {**os.environ}
    env.pop("MYPYPATH", None)

    def run(*command: str) -> str:
        proc = subprocess.run([sys.executable, "-m", *command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        output = proc.stdout + proc.stderr
        assert "INTERNAL ERROR" not in output and "Traceback" not in output, output
        return output

    def diagnostics(output: str) -> list[str]:
        return sorted(line for line in output.splitlines() if line.startswith(FILES))

    modes = {
        "mypy with its cache": lambda: run("mypy", *ARGS, *FILES),
        "--num-workers": lambda: run("mypy", "--cache-dir", ".workers", "--num-workers", "2", *ARGS, *FILES),
        "dmypy check": lambda: run("mypy.dmypy", "--status-file", ".check.json", "check", *FILES),
    }
    said = []
    try:
        run("mypy.dmypy", "--status-file", ".check.json", "start", "--", *ARGS)
        for label, change in STEPS:
            time.sleep(0.01)  # a new mtime for what changes
            for name, text in change.items():
                (tmp_path / name).write_text(text, encoding="utf-8")
            fresh = diagnostics(run("mypy", "--no-incremental", "--cache-dir", os.devnull, *ARGS, *FILES))
            for mode, check in modes.items():
                assert diagnostics(check()) == fresh, f"{label}: {mode}"
            said.append(fresh)
    finally:
        subprocess.run([sys.executable, "-m", "mypy.dmypy", "--status-file", ".check.json", "stop"],
                       cwd=tmp_path, capture_output=True, timeout=60)
    sql_error = ('views.py:9:31: error: Interpolation "{table}" has type "str"; tag "sql" accepts "Identifier" '
                 'or a string literal there (an SQL name)  [tagstr-interpolation]')
    html_error = ('views.py:9:53: error: Interpolation "{attrs}" has type "{type}"; tag "html" accepts '
                  '"Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]')
    assert said == [
        [sql_error, html_error.replace("{type}", "list[str]")],
        [],
        [html_error.replace("{type}", "str")],
        [html_error.replace("{type}", "str")],
    ]
