"""mypy on real typed code whose f-strings became tag strings says what it says of the originals.

The f-strings of packaging and click (pinned in the ``real-code`` dependency group)
become same-width tag strings ``h"..."`` of a formatting tag (``fstring_tags``, the
conversion the flake8 tests use), and both sides import ``h`` on a line of their own
(``with_tag_import``): every diagnostic then stands at the same line and column on
both sides, and the two lists must be equal (the mapping is the identity), under
each project's own configuration, under ``--strict``, and under the project's
configuration with ``--disallow-any-expr``, on both of mypy's parsers (the oldest
mypy supported in the ``mypy-oldest`` tox env, the newest in the others).  The
f-strings there read members, indexes and locals narrowed before them, names
defined on some paths only, generator expressions and lambdas in fields: an
interpolation is checked where the f-string evaluates its field.

Every mypy run of a test happens in one process (``mypy.api.run``, as editor hosts
run it).  The default run checks files chosen for what their f-strings hold; the
slow run checks the whole packages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fstring_tags import converted, package_files, with_tag_import
from harness import native_parser_available

pytestmark = pytest.mark.subprocess

#: the formatting tag both sides import (the twin leaves it unused)
FMT = '''\
from tagstr_runtime import Decoded, Interpolation


def h(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else format(a.getvalue(), a.format_spec or "") for a in args)
'''

#: each project's own mypy configuration (from its pyproject.toml), the plugin added
CONFIGS = {
    "packaging": textwrap.dedent('''\
        [mypy]
        plugins = tagstr_mypy
        strict = True
        show_error_codes = True
        enable_error_code = ignore-without-code, redundant-expr, truthy-bool
        warn_unused_ignores = True

        [mypy-_manylinux]
        ignore_missing_imports = True
    '''),
    "click": textwrap.dedent('''\
        [mypy]
        plugins = tagstr_mypy
        python_version = 3.10
        show_error_codes = True
        strict = True

        [mypy-colorama.*]
        ignore_missing_imports = True
    '''),
}
PLUGIN_ONLY = "[mypy]\nplugins = tagstr_mypy\n"

#: the default run's files: narrowed members, indexes and locals in fields (issue 38)
SUBSET = {
    "packaging": ["version.py", "ranges.py", "pylock.py", "_ranges.py", "tags.py"],
    "click": ["core.py", "exceptions.py", "parser.py", "types.py", "formatting.py"],
}

# Runs mypy once per line of runs.json (in the folder of the side, with its arguments) and
# prints every run's output: one process for all, as an editor host runs mypy.
HOST = textwrap.dedent('''\
    import json, os, sys
    from mypy import api
    results = []
    for folder, args in json.load(open(sys.argv[1])):
        os.chdir(folder)
        stdout, stderr, status = api.run(args)
        results.append([stdout, stderr, status])
    print(json.dumps(results))
''')


PARSERS = ["--native-parser", "--no-native-parser"] if native_parser_available() else ["--no-native-parser"]


def write_sides(project: str, folder: Path, names: list[str] | None) -> tuple[list[str], int]:
    """The project's package converted (``tagged/``) and as it is (``twin/``); returns the
    files to check (relative) and the number of tag strings."""
    pytest.importorskip(project, reason=f"{project} is not installed (dependency group 'real-code')")
    files = package_files(project)
    root = files[0].parent
    count = 0
    targets = []
    for path in files:
        relative = path.relative_to(root.parent)
        text = path.read_text(encoding="utf-8")
        tagged, here = converted(text)
        if here:
            text, tagged = with_tag_import(text, tagged, "_fmt")
        count += here
        for side, content in (("tagged", tagged), ("twin", text)):
            (folder / side / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / side / relative).write_text(content, encoding="utf-8")
        if names is None or path.name in names and path.parent == root:
            targets.append(str(relative))
    for side in ("tagged", "twin"):
        (folder / side / "_fmt.py").write_text(FMT, encoding="utf-8")
    return sorted(targets), count


def compare(project: str, folder: Path, names: list[str] | None) -> int:
    """Check both sides in every configuration and parser; returns how many diagnostics
    were compared (the test fails on the first difference)."""
    targets, count = write_sides(project, folder, names)
    assert count >= (40 if names else 90), count
    (folder / "own.ini").write_text(CONFIGS[project], encoding="utf-8")
    (folder / "plain.ini").write_text(PLUGIN_ONLY, encoding="utf-8")
    configurations = {
        "own": ["--config-file", str(folder / "own.ini")],
        "--strict": ["--config-file", str(folder / "plain.ini"), "--strict"],
        "own --disallow-any-expr": ["--config-file", str(folder / "own.ini"), "--disallow-any-expr"],
    }
    runs, labels = [], []
    for label, config in configurations.items():
        for parser in PARSERS:
            cache = folder / f"cache-{len(labels)}"  # shared by both sides: the standard library once
            for side in ("twin", "tagged"):
                args = [*config, parser, "--cache-dir", str(cache), "--show-column-numbers", "--show-error-end",
                        "--no-pretty", "--no-error-summary", "--hide-error-context", *targets]
                runs.append([str(folder / side), args])
            labels.append(f"{label} {parser}")
    (folder / "runs.json").write_text(json.dumps(runs), encoding="utf-8")
    (folder / "host.py").write_text(HOST, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    proc = subprocess.run([sys.executable, str(folder / "host.py"), str(folder / "runs.json")],
                          capture_output=True, text=True, timeout=1500, env=env)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout.splitlines()[-1])
    compared = 0
    for index, label in enumerate(labels):
        (twin, twin_err, _), (tagged, tagged_err, _) = results[2 * index], results[2 * index + 1]
        for output in (twin + twin_err, tagged + tagged_err):
            assert "INTERNAL ERROR" not in output and "Traceback" not in output, output
        # (in the order mypy checks the modules, which may differ)
        assert sorted(tagged.splitlines()) == sorted(twin.splitlines()), f"{project}, {label}:\n" + "\n".join(
            [f"- {line}" for line in sorted(set(twin.splitlines()) - set(tagged.splitlines()))]
            + [f"+ {line}" for line in sorted(set(tagged.splitlines()) - set(twin.splitlines()))]
        )
        compared += len(twin.splitlines())
    return compared


@pytest.mark.parametrize("project", ["packaging", "click"])
def test_real_code_gets_the_diagnostics_of_its_f_strings(project: str, tmp_path: Path) -> None:
    # --disallow-any-expr reports some hundreds of expressions on each side
    assert compare(project, tmp_path, SUBSET[project]) > 100


@pytest.mark.slow  # the whole packages: about a minute
@pytest.mark.parametrize("project", ["packaging", "click"])
def test_whole_packages_get_the_diagnostics_of_their_f_strings(project: str, tmp_path: Path) -> None:
    assert compare(project, tmp_path, None) > 300
