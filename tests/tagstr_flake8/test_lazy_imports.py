"""What the flake8 plugin imports: next to nothing until a file has a tag string (issue 28).

An editor or pre-commit runs flake8 on one file at every save: loading the
plugin must not load the desugarer, the analysis or the rules that only
files with tag strings need.  Each test runs a fresh interpreter, loads the
entry point as flake8 does, and lists the modules of ours it then holds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tagstr_flake8.rules import RULES

#: Imported at interpreter start-up by ``tagstr_autoload.pth`` (tests/tagstr_runtime/test_autoload.py).
STARTUP = {"tagstr_runtime", "tagstr_runtime._autohook", "tagstr_runtime._autostart", "tagstr_runtime._importhook"}
#: What loading the entry point ``TAG`` may import.
ENTRY_POINT = {
    "tagstr_flake8", "tagstr_flake8.lint.flake8_plugin", "tagstr_flake8.lint.context", "tagstr_flake8.lint.doctests",
    "tagstr_flake8.lint.language_options", "tagstr_flake8.lint.shared_notes", "tagstr_flake8.lint.messages",
    "tagstr_flake8.host", "tagstr_flake8.host.patch", "tagstr_flake8.lint", "tagstr_flake8.rules",
    "tagstr_runtime.frontend", "tagstr_runtime.support", "tagstr_runtime.support.patching",
    # the language registry (data only): the language codes' texts and which are on
    "tagstr_runtime.analysis", "tagstr_runtime.analysis.embedded", "tagstr_runtime.analysis.embedded.registry",
}
#: What checking files without tag strings may add: the rules that run on every file
#: (TAG003 on by default, TAG008 when selected) and the words they need.
PLAIN_FILES = {
    "tagstr_flake8.rules.tag003_tag014_prefix_binding", "tagstr_flake8.rules.tag008_keyword_string",
    "tagstr_runtime.syntax", "tagstr_runtime.syntax.words",
}

#: What a file without tag strings that binds a prefix name (``f = ...``) may add besides:
#: the tag resolver, which TAG003 asks whether a tag is bound there (never the parser or
#: the desugarer's steps: ``f = open(path)`` is common; the scope index it asks is the
#: desugarer package's, ``desugarer/scopes.py``, whose ``__init__`` holds a docstring only).
RESOLVER = {
    "tagstr_runtime.syntax.source", "tagstr_runtime.analysis", "tagstr_runtime.analysis.definitions",
    "tagstr_runtime.analysis.imports", "tagstr_runtime.analysis.module", "tagstr_runtime.analysis.prefixed",
    "tagstr_runtime.analysis.tag_types", "tagstr_runtime.desugarer", "tagstr_runtime.desugarer.scope_tables",
    "tagstr_runtime.desugarer.scopes",
}
#: files without tag strings, and what checking them may import beyond PLAIN_FILES
PLAIN_SOURCES = {
    "no-prefix-name": ("import os\n\ng = os.path.join\nx = f'{g}' + rb'\\d'\n", set()),
    "binds-f": ("import os\n\nf = os.path.join\nx = f'{f}' + rb'\\d'\n", RESOLVER),
}

PROBE = """
import json, sys
from importlib.metadata import entry_points

(entry,) = [e for e in entry_points(group="flake8.extension") if e.name == "TAG"]
before = {m for m in sys.modules if m.startswith("tagstr")}
entry.load()
loaded = {m for m in sys.modules if m.startswith("tagstr")} - before
status = None
if len(sys.argv) > 1:
    from flake8.main.cli import main

    status = main(sys.argv[1:])
ran = {m for m in sys.modules if m.startswith("tagstr")} - before - loaded
print(json.dumps({"entry_point": sorted(loaded), "run": sorted(ran), "status": status}))
"""


def probe(*flake8_args: str, cwd: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, *flake8_args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.subprocess
def test_loading_the_entry_point_imports_little(tmp_path: Path) -> None:
    found = probe(cwd=tmp_path)
    assert set(found["entry_point"]) - STARTUP <= ENTRY_POINT  # type: ignore[arg-type]
    assert "tagstr_flake8.lint.flake8_plugin" in found["entry_point"]  # type: ignore[operator]


@pytest.mark.subprocess
@pytest.mark.parametrize("plain", PLAIN_SOURCES)
@pytest.mark.parametrize("select", [[], ["--extend-select=TAG"]], ids=["defaults", "every-TAG-rule"])
def test_plain_files_import_no_desugarer(tmp_path: Path, select: list[str], plain: str) -> None:
    source, extra = PLAIN_SOURCES[plain]
    (tmp_path / "plain.py").write_text(source, encoding="utf-8")
    found = probe("--isolated", "--exit-zero", *select, "plain.py", cwd=tmp_path)
    loaded = set(found["entry_point"]) | set(found["run"])  # type: ignore[arg-type]
    allowed = ENTRY_POINT | PLAIN_FILES | extra
    assert loaded - STARTUP <= allowed, sorted(loaded - STARTUP - allowed)
    if extra:  # the resolver was asked (the test would pass vacuously otherwise)
        assert "tagstr_runtime.analysis.definitions" in loaded


@pytest.mark.subprocess
def test_a_tag_string_file_imports_what_it_needs(tmp_path: Path) -> None:
    (tmp_path / "tagged.py").write_text("def html(*a):\n    return a\n\n\nx = 1\ny = html'<b>{x}</b>'\n",
                                        encoding="utf-8")
    found = probe("--isolated", "--select=E9,F,TAG", "tagged.py", cwd=tmp_path)
    assert found["status"] == 0
    ran = set(found["run"])  # type: ignore[arg-type]
    assert {"tagstr_flake8.lint.tag_file", "tagstr_runtime.desugarer.desugaring", "tagstr_runtime.syntax.parser"} <= ran
    assert "tagstr_flake8.rules.tag005_class_scope" in ran  # TAG005, on by default, runs on files with tag strings


@pytest.mark.parametrize("rule", RULES, ids=[rule.code for rule in RULES])
def test_each_rule_names_its_check(rule: object) -> None:
    check = rule.check  # type: ignore[attr-defined]
    assert check.__name__ == f"check_{rule.code.lower()}"  # type: ignore[attr-defined]
    assert rule.message_class.code == rule.code  # type: ignore[attr-defined]
