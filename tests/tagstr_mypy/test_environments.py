"""``--follow-imports`` and environments without the runtime.

The tree of a tag-string module imports the checker's stand-ins from
``tagstr_runtime``; the user's import settings must not switch the checks off
(``skip``) or report that import with no line (``error``).  Where mypy cannot
see the runtime at all (``--no-site-packages``, a ``--python-executable``
without the package) the file gets one message that says how to fix it, at
its first tag string.  A file without tag strings gets stock mypy's output
in every configuration.  Both mypy parsers.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy.nodes")  # collected where mypy cannot run (Pyodide): skipped

import tagstr_mypy  # noqa: E402
from harness import TAGS, Diagnostic, diagnostics  # noqa: E402

pytestmark = pytest.mark.subprocess

PARSERS = pytest.mark.parametrize("parser", ["--native-parser", "--no-native-parser"])
# the folder this test imports the plugin from: the mypy under test imports the same
SRC = str(Path(tagstr_mypy.__file__).parent.parent)


APP = textwrap.dedent('''\
    from tags import html, shout

    name = "x"
    greeting = html"Hello {name.nope}"
    bad = shout"hello"
    wrong: int = html"{name}"
''')
# app.py's errors with the default settings: (line, column, code)
CHECKED = [(4, 24, "attr-defined"), (5, 7, "tagstr-signature"), (6, 14, "assignment")]


def checked(parser: str) -> list[tuple[int, int, str]]:
    """``CHECKED`` as the parser places them: mypy's stdlib-ast parser puts the expression of an
    f-string's field at the f-string's start (before Python 3.12) or at the field's ``{``, and so
    the tag string's, as for its f-string twin."""
    if parser == "--native-parser":
        return CHECKED
    return [(4, 12 if sys.version_info < (3, 12) else 23, "attr-defined"), *CHECKED[1:]]


# no tag string; imports the runtime as a tag-string module does
PLAIN = textwrap.dedent('''\
    import tagstr_runtime
    from tagstr_runtime import Decoded

    x: int = "s"
    d: Decoded = tagstr_runtime.Decoded("")
''')


def run(folder: Path, *args: str, plugin: bool = True) -> subprocess.CompletedProcess[str]:
    """mypy in a subprocess whose environment has no PYTHONPATH (which a
    ``--python-executable`` would inherit), importing the plugin from ``SRC``."""
    (folder / "mypy.ini").write_text("[mypy]\n" + ("plugins = tagstr_mypy\n" if plugin else ""), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    start = f"import sys; sys.path.insert(0, {SRC!r}); from mypy.__main__ import console_entry; console_entry()"
    return subprocess.run(
        [sys.executable, "-c", start, "--no-incremental", "--show-column-numbers", *args],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300,
    )


def app_errors(found: list[Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.line, d.column, d.message.rsplit("[", 1)[1][:-1])
            for d in found if d.file == "app.py" and d.severity == "error"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "plain.py").write_text(PLAIN, encoding="utf-8")
    return tmp_path


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A Python whose environment lacks tagstr_runtime."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    return str(python)


@PARSERS
@pytest.mark.parametrize("follow", ["skip", "silent", "error"])
def test_tag_strings_are_checked_whatever_follow_imports(folder: Path, parser: str, follow: str) -> None:
    proc = run(folder, "--output", "json", parser, f"--follow-imports={follow}", "app.py", "tags.py")
    found = diagnostics(proc)
    assert app_errors(found) == checked(parser), proc.stdout
    # every diagnostic has a line, and none is about the plugin's own modules
    assert all(d.line > 0 for d in found) and "_checker" not in proc.stdout, proc.stdout


@PARSERS
def test_a_missing_runtime_gets_one_message_at_the_first_tag_string(
    folder: Path, parser: str, bare_python: str
) -> None:
    for where, args in [("--no-site-packages", ["--no-site-packages"]),
                        ("not installed for the Python", ["--python-executable", bare_python])]:
        # text output: mypy 2.0 prints a blocking error as text even under --output json
        proc = run(folder, parser, *args, "app.py", "tags.py")
        assert "Traceback" not in proc.stderr and "INTERNAL ERROR" not in proc.stdout, proc.stderr
        lines = [line for line in proc.stdout.splitlines() if ": error: " in line]
        ours = [line for line in lines if "checked against the tagstr_runtime package" in line]
        assert len(ours) == 1 and where in ours[0], proc.stdout
        assert ours[0].startswith("app.py:4:12: error: ")  # html"Hello ..."
        assert all(re.match(r"[\w.]+:\d+:\d+: error: ", line) for line in lines), proc.stdout
        assert "_checker" not in proc.stdout, proc.stdout
        if parser == "--native-parser":  # not blocking: the rest of the file is still checked
            assert any(line.startswith("app.py:4:24: error: ") for line in lines), proc.stdout


@PARSERS
@pytest.mark.parametrize("setting", [
    "--follow-imports=skip", "--follow-imports=silent", "--follow-imports=error", "--no-site-packages", "bare",
])
def test_a_file_without_tag_strings_is_stock(folder: Path, parser: str, setting: str, bare_python: str) -> None:
    args = ["--python-executable", bare_python] if setting == "bare" else [setting]
    outputs = [run(folder, "--strict", "--warn-unused-configs", parser, *args, "plain.py", plugin=plugin)
               for plugin in (True, False)]
    with_plugin, stock = ([p.returncode, p.stdout, p.stderr] for p in outputs)
    assert with_plugin == stock
    assert "plain.py:4:" in stock[1]
