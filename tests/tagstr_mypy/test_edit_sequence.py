"""Every way users run mypy again says what a fresh run says, after every edit.

A team runs mypy with its cache (the default), in an editor through dmypy
(``dmypy run``, as the editor extensions do, or ``check``/``recheck``), and in
CI with ``--num-workers``.  One shared edit sequence (the tag's signature,
return type, arity, a tag that is no function, a class, a generic tag,
malformed and fixed tag strings, tag strings turned into a plain call, an edit
of a dependent module) is run in
each mode, and after each step every mode's output must be the output of a
fresh ``--no-incremental`` run.  ``dmypy run`` must also keep its daemon: the
plugin must not change the options the daemon compares with each call's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import write_config

pytestmark = pytest.mark.subprocess

FILES = ("tags.py", "views.py", "app.py", "plain.py")
HEAD = "from typing import TypeVar\n\nfrom tagstr_runtime import Decoded, Interpolation\n\nT = TypeVar('T')\n\n"
BASE = {
    "tags.py": HEAD + "def html(*args: Decoded | Interpolation[object]) -> str:\n    return ''\n",
    "views.py": "from tags import html\n\n\ndef page(x: int, s: str) -> str:\n    return html\"<p>{x}</p>{s}\"\n",
    "app.py": "from views import page\n\n\ndef use() -> str:\n    return page(1, 'a')\n",
    "plain.py": "from tags import html\n\nhtml(1)\n",
}


def tags(body: str) -> dict[str, str]:
    # the tag module uses its tag too: a tag-string module that is also a dependency
    return {"tags.py": HEAD + body + "\n\nEXAMPLE = html\"<b>{1}</b>\"\n"}


def views(old: str, new: str) -> dict[str, str]:
    return {"views.py": BASE["views.py"].replace(old, new)}


STEPS: list[tuple[str, dict[str, str]]] = [
    ("start", tags("def html(*args: Decoded | Interpolation[object]) -> str:\n    return ''\n")),
    ("signature", tags("def html(*args: Decoded | Interpolation[str]) -> str:\n    return ''\n")),
    ("return type", tags("def html(*args: Decoded | Interpolation[int]) -> int:\n    return 0\n")),
    ("malformed", views("{x}", "{x")),
    ("fixed, and the tag edited", {
        **views("", ""), **tags("def html(*args: Decoded | Interpolation[int | str]) -> str:\n    return ''\n"),
    }),
    ("a plain call edited", {"plain.py": "from tags import html\n\nhtml('a')\n"}),
    ("fixed arity", tags(
        "def html(a: Decoded, b: Interpolation[int], c: Decoded, d: Interpolation[str]) -> str:\n    return ''\n"
    )),
    ("one interpolation more", views("{s}", "{s}{x}")),
    ("not callable", tags("html = 42\n")),
    ("a class", tags(
        "class html:\n    def __init__(self, *args: Decoded | Interpolation[int]) -> None:\n        pass\n"
    )),
    ("generic", tags("def html(*args: Decoded | Interpolation[T]) -> T:\n    raise ValueError\n")),
    ("generic, returning a list", tags("def html(*args: Decoded | Interpolation[T]) -> list[T]:\n    return []\n")),
    # a module of tag strings becomes one without: no name of it is defined twice (issue 38)
    ("a plain call instead", {"views.py": BASE["views.py"].replace('html"<p>{x}</p>{s}"', "str(html(x))")}),
    ("a plain call in the tag's module", {"tags.py": HEAD + (
        "def html(*args: Decoded | Interpolation[T]) -> list[T]:\n    return []\n\n\nEXAMPLE = html(1)\n"
    )}),
    ("the dependent edited", {**views("", ""), "app.py": BASE["app.py"].replace("-> str", "-> int")}),
    ("malformed in the tag's module", {"tags.py": BASE["tags.py"] + "\nEXAMPLE = html\"<b>{1!z}</b>\"\n"}),
    ("all back", dict(BASE)),
]

ARGS = ("--show-column-numbers", "--show-error-codes", "--no-error-summary", "--hide-error-context")


@pytest.mark.slow  # five modes and a fresh run at each of 16 steps (about 45 s)
def test_every_mode_says_what_a_fresh_run_says(tmp_path: Path) -> None:
    write_config(tmp_path)
    for name, text in BASE.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {**os.environ}
    env.pop("MYPYPATH", None)

    def run(*command: str) -> str:
        proc = subprocess.run([sys.executable, "-m", *command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        output = proc.stdout + proc.stderr
        assert "INTERNAL ERROR" not in output and "Traceback" not in output, output
        return output

    def daemon(status: str, *command: str) -> str:
        return run("mypy.dmypy", "--status-file", status, *command)

    def diagnostics(output: str) -> list[str]:
        return sorted(line for line in output.splitlines() if line.startswith(FILES) or "Restarting" in line)

    modes = {
        "mypy with its cache": lambda: run("mypy", *ARGS, *FILES),
        "--num-workers": lambda: run("mypy", "--cache-dir", ".workers", "--num-workers", "2", *ARGS, *FILES),
        "dmypy check": lambda: daemon(".check.json", "check", *FILES),
        "dmypy recheck": lambda: daemon(".recheck.json", "recheck"),
        "dmypy run": lambda: daemon(".run.json", "run", "--", *ARGS, *FILES),
    }
    try:
        for status in (".check.json", ".recheck.json"):
            daemon(status, "start", "--", *ARGS)
        daemon(".recheck.json", "check", *FILES)  # recheck re-checks what was checked last
        outputs = []
        for label, change in STEPS:
            time.sleep(0.01)  # a new mtime for what changes (dmypy recheck looks at it)
            for name, text in change.items():
                (tmp_path / name).write_text(text, encoding="utf-8")
            fresh = diagnostics(run("mypy", "--no-incremental", "--cache-dir", os.devnull, *ARGS, *FILES))
            for mode, check in modes.items():
                assert diagnostics(check()) == fresh, f"{label}: {mode}"
            outputs.append(fresh)
            if label == "start":
                pid = json.loads((tmp_path / ".run.json").read_text())["pid"]
        # "dmypy run" kept its daemon (no "Restarting" line either)
        assert json.loads((tmp_path / ".run.json").read_text())["pid"] == pid
    finally:
        for status in (".check.json", ".recheck.json", ".run.json"):
            subprocess.run([sys.executable, "-m", "mypy.dmypy", "--status-file", status, "stop"],
                           cwd=tmp_path, capture_output=True, timeout=60)
    # every step changed what mypy says
    assert all(before != after for before, after in zip(outputs, outputs[1:])), outputs
