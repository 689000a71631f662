"""Bad input never crashes mypy with the plugin: every prefix of a module full of
tag strings goes through both parser hooks without an exception, and a sample
of them through real mypy without an INTERNAL ERROR or a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness import HERE, write_config

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]  # every prefix of a module; mypy on a dozen cuts

ROOT = HERE.parent.parent

# Runs in a child, as a plugin build calls the hooks: the native parser with the
# build's always_true/always_false lists, ast.parse after its transform_source.
DRIVER = r"""
import ast, json, sys
from mypy.options import Options
from tagstr_mypy.parse import hook as _parse_hook
from tagstr_mypy.hooks.build_state import BuildState
class Build: pass
build, options = Build(), Options()
options.native_parser = False  # the stdlib parser's marker too
_parse_hook.install(build, options, BuildState())
import ast_serialize
text = open(sys.argv[1], encoding="utf-8").read()
cuts = sorted({i for i, ch in enumerate(text) if ch in '\n{}"\'!:=' } | set(range(0, len(text), 7)))
failures, checked = [], 0
for cut in cuts:
    prefix = text[:cut]
    try:
        result = ast_serialize.parse("prefix.py", prefix, python_version=(3, 12),
                                     always_true=options.always_true, always_false=options.always_false)
        assert isinstance(result, tuple) and len(result) == 5
        for error in result[1]:
            assert error["line"] >= 1 and error["column"] >= 0 and error["message"]
    except Exception as exc:
        failures.append(("native", cut, repr(exc)))
    try:
        source = options.transform_source(prefix)  # before ast.parse is looked up, as in mypy
        ast.parse(source, "prefix.py", "exec", type_comments=True, feature_version=12)
    except SyntaxError as exc:
        if exc.lineno is None or exc.msg is None:
            failures.append(("stdlib", cut, repr(exc)))
    except Exception as exc:
        failures.append(("stdlib", cut, repr(exc)))
    checked += 1
print(json.dumps({"checked": checked, "failures": failures[:20]}))
"""


def test_every_prefix_through_both_parser_hooks() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, str(ROOT / "examples" / "html.py")],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["checked"] > 500 and report["failures"] == [], report


def test_truncated_modules_through_mypy(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "sql.py").read_text(encoding="utf-8")
    work = tmp_path
    write_config(work)
    names = []
    for index, cut in enumerate(range(len(text) // 3, len(text), max(1, len(text) // 12))):
        name = f"cut{index}.py"
        (work / name).write_text(text[:cut], encoding="utf-8")
        names.append(name)
    driver = (
        "import json, sys\nfrom mypy import api\n"
        "for name in sys.argv[1:]:\n"
        "    out, err, status = api.run(['--no-incremental', '--cache-dir', '.c', name])\n"
        "    print(json.dumps([name, out + err, status]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", driver, *names], cwd=work,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        name, output, status = json.loads(line)
        assert "INTERNAL ERROR" not in output and "Traceback" not in output, (name, output)
        assert status in (0, 1, 2), (name, output)
