"""Helpers of the formatter and ruff wrapper tests: run the real tools, build f-string twins.

The wrappers are judged against the plain tools on a file's *f-string twin*:
the same text with every tag string (nested ones too) written as an f-string
of the same width (``html"<p>{x}</p>"`` -> ``f"   <p>{x}</p>"``, the tag's
extra letters as spaces just inside the quote).  Every line, column and
expression stays where it was, so a plain tool's output on the twin is what
the wrapper must produce on the original, up to the twin's own prefix.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime.tools.invoke import ToolError, ruff_program
from tagstr_runtime.frontend import parse
from clean_python import clean_env

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]  # src/ or site-packages (tox installs the wheel)
ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"


def _ruff() -> str | None:
    try:
        return ruff_program()
    except ToolError:
        return None


RUFF = _ruff()
HAS_BLACK = importlib.util.find_spec("black") is not None
needs_black = pytest.mark.skipif(not HAS_BLACK, reason="black is not installed (dependency group 'tools')")
needs_ruff = pytest.mark.skipif(RUFF is None, reason="ruff is not installed (dependency group 'tools')")
TOOLS = [
    pytest.param("black", marks=needs_black, id="black"),
    pytest.param("ruff", marks=needs_ruff, id="ruff"),
]


def _env() -> dict[str, str]:
    return clean_env(TAGSTR_AUTOLOAD="0", TAGSTR_STRICT="1", PYTHONUTF8="1")


def run(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A command in a clean environment (``python`` is this interpreter)."""
    command = [sys.executable if args[0] == "python" else args[0], *args[1:]]
    proc = subprocess.run(
        command, cwd=cwd, env={**_env(), **(env or {})}, input=stdin, capture_output=True, text=True,
        timeout=900, encoding="utf-8",
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def wrapper(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m tagstr_runtime ARGS``."""
    return run("python", "-m", "tagstr_runtime", *args, cwd=cwd, stdin=stdin)


def plain_format(tool: str, path: Path) -> str:
    """The plain tool's formatting of ``path`` (its text is not changed)."""
    if tool == "black":
        command = ["python", "-m", "black", "--quiet", "--stdin-filename", str(path), "-"]
    else:
        assert RUFF is not None
        command = [RUFF, "format", "--stdin-filename", str(path), "-"]
    proc = run(*command, cwd=path.parent, stdin=path.read_text(encoding="utf-8"))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def plain_ruff_check(path: Path, *options: str) -> list[dict[str, Any]]:
    assert RUFF is not None
    proc = run(RUFF, "check", "--output-format", "json", "--no-fix", *options, str(path), cwd=path.parent)
    assert proc.returncode in (0, 1), proc.stderr
    found: list[dict[str, Any]] = json.loads(proc.stdout)
    return found


def twin(text: str) -> str:
    """``text`` with each tag string an f-string of the same width (see the module docstring)."""
    out = list(text)
    for outer in parse(text).tag_strings:
        for tag in outer.walk():
            name = tag.tag_span
            out[name.start : name.end] = ["f", *[""] * (name.end - name.start - 1)]
            pad = " " * (name.end - name.start - 1)
            quote_end = name.end + len(tag.quote) - 1
            out[quote_end] = out[quote_end] + pad
    return "".join(out)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def config(folder: Path, line_length: int = 88) -> None:
    """A project whose black and ruff settings are the tools' defaults but for the line length."""
    write(
        folder / "pyproject.toml",
        f"""\
        [tool.black]
        line-length = {line_length}

        [tool.ruff]
        line-length = {line_length}
        """,
    )


# What the runtime refuses, beyond SPEC 5's table: a field a lambda cannot hold.
LAZY_REFUSALS = [
    "def f():\n    return h\"{yield}\"\n",
    "async def f(x):\n    return h\"{await x}\"\n",
    "async def f(xs):\n    return h\"{[y async for y in xs]}\"\n",
    "async def f(xs):\n    return h\"{[[z async for z in y] for y in xs]}\"\n",
]


def refused_sources() -> list[str]:
    """Sources the runtime refuses: SPEC 5's error table (``tests/spec_errors.py``) and ``LAZY_REFUSALS``."""
    from spec_errors import SPEC_ERRORS  # tests/ is on sys.path (tests/conftest.py)

    return [case.source for case in SPEC_ERRORS] + LAZY_REFUSALS


def runtime_error(source: str, filename: str) -> SyntaxError:
    """The ``SyntaxError`` the runtime raises compiling ``source``."""
    try:
        tagstr_runtime.compile(source, filename, "exec")
    except SyntaxError as exc:
        return exc
    raise AssertionError(f"the runtime compiles {source!r}")
