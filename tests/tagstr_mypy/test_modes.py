"""The ways users run mypy: CLI forms, output formats, caches, daemon, workers, editors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import HERE, native_parser_by_default, run_mypy, write_config

pytestmark = pytest.mark.subprocess

ROOT = HERE.parent.parent

MODULE = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation


    def html(*args: Decoded | Interpolation[int | str]) -> str:
        return ""


    n = 1
    page = html"<p>{n.missing.real}</p>"
    total = html"{[n]}"
''')
# (line, column printed by mypy, code) of MODULE's errors.  (``n.missing`` is inside the field's
# expression: mypy's stdlib-ast parser puts the whole expression of a field where the field is,
# for an f-string as for a tag string, and the column would then differ between the parsers.)
EXPECTED = [(9, 17, "attr-defined"), (10, 15, "tagstr-interpolation")]


def codes(output: str) -> list[tuple[int, int, str]]:
    found = []
    for line in output.splitlines():
        head, _, rest = line.partition(": error: ")
        if rest and rest.endswith("]"):
            parts = head.rsplit(":", 2)
            lineno, col = (parts[1], parts[2]) if len(parts) == 3 else (parts[-1], "0")
            found.append((int(lineno), int(col), rest.rsplit("[", 1)[1][:-1]))
    return sorted(found)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_config(tmp_path)
    (tmp_path / "app.py").write_text(MODULE, encoding="utf-8")
    return tmp_path


def test_cli_forms(project: Path) -> None:
    pkg = project / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "page.py").write_text(MODULE, encoding="utf-8")
    for args in (["app.py"], ["-m", "app"], ["-p", "pkg"], ["pkg/page.py"]):
        proc = run_mypy("--show-column-numbers", "--no-incremental", *args, cwd=project)
        assert codes(proc.stdout) == EXPECTED, (args, proc.stdout + proc.stderr)
    proc = run_mypy("--show-column-numbers", "--no-incremental", "-c", MODULE, cwd=project)
    assert codes(proc.stdout) == EXPECTED, proc.stdout + proc.stderr


def test_pretty_and_error_end(project: Path) -> None:
    proc = run_mypy("--pretty", "--show-column-numbers", "--show-error-end", "--no-incremental",
                    "app.py", cwd=project)
    lines = proc.stdout.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("app.py:9:17:9:25: error:")))
    snippet, carets = lines[at + 1], lines[at + 2]
    assert snippet.strip() == 'page = html"<p>{n.missing.real}</p>"'
    column = snippet.index("n.missing")
    assert carets.index("^") == column and carets.strip() == "^" + "~" * (len("n.missing") - 1), proc.stdout


def test_json_output(project: Path) -> None:
    proc = run_mypy("--output", "json", "--no-incremental", "app.py", cwd=project)
    items = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(i["line"], i["column"], i["end_line"], i["end_column"], i["code"]) for i in items] == [
        (9, 16, 9, 25, "attr-defined"), (10, 14, 10, 17, "tagstr-interpolation"),
    ]


def test_type_ignore_and_unused_ignores(project: Path) -> None:
    source = MODULE.replace(
        'page = html"<p>{n.missing.real}</p>"', 'page = html"<p>{n.missing.real}</p>"  # type: ignore[attr-defined]'
    ).replace('total = html"{[n]}"', 'total = html"{n}"  # type: ignore[tagstr-interpolation]')
    (project / "app.py").write_text(source, encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--no-incremental", "--warn-unused-ignores", "app.py",
                    cwd=project)
    assert codes(proc.stdout) == [(10, 0, "unused-ignore")], proc.stdout


def test_disable_error_code(project: Path) -> None:
    proc = run_mypy("--show-column-numbers", "--no-incremental",
                    "--disable-error-code", "tagstr-interpolation", "app.py", cwd=project)
    assert codes(proc.stdout) == EXPECTED[:1], proc.stdout


def test_incremental_replays_and_the_desugarer_fingerprint_invalidates(project: Path) -> None:
    first = run_mypy("--show-column-numbers", "app.py", cwd=project)
    second = run_mypy("--show-column-numbers", "-v", "app.py", cwd=project)
    assert codes(first.stdout) == codes(second.stdout) == EXPECTED
    assert "Metadata fresh for app" in second.stderr, second.stderr
    # the same plugin with a changed desugarer: the cache of app must not be used
    lib = project / "lib"
    for package in ("tagstr_runtime", "tagstr_mypy"):
        import importlib

        source_dir = Path(importlib.import_module(package).__file__).parent  # type: ignore[arg-type]
        shutil.copytree(source_dir, lib / package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(lib / "tagstr_runtime" / "desugarer/generator.py", "a", encoding="utf-8") as file:
        file.write("\n# a change\n")
    third = run_mypy("--show-column-numbers", "-v", "app.py", cwd=project, env={"PYTHONPATH": str(lib)})
    assert codes(third.stdout) == EXPECTED
    assert "Metadata fresh for app" not in third.stderr
    assert "plugin configuration differs" in third.stderr.lower() or "Metadata abandoned for app" in third.stderr


@pytest.mark.slow  # mypy with worker processes
def test_parallel_workers(project: Path) -> None:
    for index in range(3):
        (project / f"more{index}.py").write_text(MODULE, encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--num-workers", "2", ".", cwd=project, timeout=600)
    by_file: dict[str, list[str]] = {}
    for line in proc.stdout.splitlines():
        if ": error: " in line:
            by_file.setdefault(line.split(":", 1)[0], []).append(line)
    assert sorted(by_file) == ["app.py", "more0.py", "more1.py", "more2.py"], proc.stdout + proc.stderr
    for lines in by_file.values():
        assert codes("\n".join(lines)) == EXPECTED, proc.stdout
        # the expression's text, kept beside the tree, reaches the process that checks it
        assert 'Interpolation "{[n]}" has type' in lines[-1], proc.stdout


def test_shadow_file_is_read_not_the_file_on_disk(project: Path) -> None:
    buffer = project / "buffer.tmp"
    buffer.write_text("\n" + MODULE, encoding="utf-8")  # the editor's unsaved text
    proc = run_mypy("--show-column-numbers", "--no-incremental",
                    "--shadow-file", "app.py", str(buffer), "app.py", cwd=project)
    assert codes(proc.stdout) == [(line + 1, col, code) for line, col, code in EXPECTED], proc.stdout


@pytest.mark.parametrize(
    ("version", "expected"),
    [("3.13", "int"), ("3.14", "string.templatelib.Template"), ("3.15", "string.templatelib.Template")],
)
def test_t_prefix_by_target_version(project: Path, version: str, expected: str) -> None:
    if version != "3.13" and sys.version_info < (3, 14) and not native_parser_by_default():
        pytest.skip("mypy's stdlib-ast parser reads t-strings only on Python 3.14+")
    (project / "t.py").write_text("def t(*args: object) -> int:\n    return 1\nreveal_type(t\"x\")\n",
                                  encoding="utf-8")
    proc = run_mypy("--no-incremental", "--python-version", version, "t.py", cwd=project)
    assert f'Revealed type is "{expected}"' in proc.stdout, proc.stdout


def test_target_315(project: Path) -> None:
    proc = run_mypy("--show-column-numbers", "--no-incremental", "--python-version", "3.15", "app.py", cwd=project)
    assert codes(proc.stdout) == EXPECTED, proc.stdout + proc.stderr


@pytest.mark.skipif(not native_parser_by_default(), reason="mypy's stdlib-ast parser reads 3.15 syntax only on 3.15")
def test_target_315_new_syntax(project: Path) -> None:
    """mypy's own parser reads ``lazy import`` (PEP 810) and unpacking in comprehensions
    (PEP 798) for any interpreter; a file with tag strings is parsed by the Python running
    mypy (docs/mypy.md), so there the new syntax needs Python 3.15."""
    plain = "lazy import json\nxs = [*a for a in [[1], [2]]]\nreveal_type(xs)\nreveal_type(json.dumps(1))\n"
    (project / "plain315.py").write_text(plain, encoding="utf-8")
    proc = run_mypy("--no-incremental", "--python-version", "3.15", "plain315.py", cwd=project)
    assert proc.returncode == 0 and proc.stdout.count("Revealed type") == 2, proc.stdout + proc.stderr
    assert 'Revealed type is "list[int]"' in proc.stdout and 'Revealed type is "str"' in proc.stdout, proc.stdout
    (project / "tagged315.py").write_text(MODULE + plain, encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--no-incremental", "--python-version", "3.15", "tagged315.py",
                    cwd=project)
    if sys.version_info >= (3, 15):
        assert codes(proc.stdout) == EXPECTED, proc.stdout + proc.stderr
    else:
        running = f"{sys.version_info[0]}.{sys.version_info[1]}"
        assert proc.stdout.startswith(
            f"tagged315.py:11:6: error: Invalid syntax (a file with tag strings is parsed by the Python running mypy, "
            f"{running})  [syntax]"
        ), proc.stdout


@pytest.mark.slow  # a dmypy daemon, three runs
def test_daemon_follows_edits(project: Path) -> None:
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(project / ".dmypy.json")]

    def check() -> str:
        proc = subprocess.run([*dmypy, "run", "--timeout", "120", "--export-types", "--",
                               "--show-column-numbers", "app.py"],
                              cwd=project, capture_output=True, text=True, timeout=300)
        assert "INTERNAL ERROR" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
        return proc.stdout

    try:
        assert codes(check()) == EXPECTED
        app = project / "app.py"
        app.write_text(MODULE.replace("n = 1\n", "n = 1\nadded = 2\n"), encoding="utf-8")
        assert codes(check()) == [(line + 1, col, code) for line, col, code in EXPECTED]
        app.write_text(MODULE.replace("{n.missing.real}", "{n.missing +}"), encoding="utf-8")
        # the f-string twin's words for a field's grammar error: 3.12+ says what it expected
        assert (
            "app.py:9:27: error: Tag string: expecting '=', or '!', or ':', or '}'  [syntax]"
            if sys.version_info >= (3, 12)
            else "app.py:9:28: error: Tag string: invalid syntax  [syntax]"
        ) in check()
        app.write_text(MODULE.replace("{n.missing.real}", "{n}").replace("{[n]}", "{n}"), encoding="utf-8")
        assert codes(check()) == [] and "Success" in check()
        inspect = subprocess.run([*dmypy, "inspect", "app.py:9:17"], cwd=project,
                                 capture_output=True, text=True, timeout=120)
        # every expression enclosing the position, innermost first: the
        # interpolation, its generated Interpolation, the whole tag string
        shown = inspect.stdout.split()
        assert '"int"' in shown and shown[-1] == '"str"', inspect.stdout + inspect.stderr
        suggest = subprocess.run([*dmypy, "suggest", "app.html"], cwd=project,
                                 capture_output=True, text=True, timeout=120)
        assert suggest.returncode == 0, suggest.stdout + suggest.stderr
        assert suggest.stdout.strip().endswith("-> str"), suggest.stdout
    finally:
        subprocess.run([*dmypy, "stop"], cwd=project, capture_output=True, timeout=60)


@pytest.mark.slow  # mypy --strict over every example, no cache
def test_examples_are_clean(tmp_path: Path) -> None:
    config = write_config(tmp_path, "strict = True\n")
    examples = sorted((ROOT / "examples").glob("*.py"))
    proc = run_mypy("--config-file", str(config), "--no-incremental", *map(str, examples), cwd=ROOT)
    assert proc.returncode == 0 and "Success" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.skipif(
    sys.version_info >= (3, 12) or not native_parser_by_default(),
    reason="needs a Python that cannot read PEP 701 f-strings, under mypy's native parser",
)
def test_syntax_the_running_python_cannot_read(project: Path) -> None:
    # the native parser reads the f-string; CPython 3.11 parses the tag-string file
    (project / "app.py").write_text(MODULE + 'd = {"k": 1}\ny = f"{d["k"]}"\n', encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--no-incremental", "--python-version", "3.12",
                    "app.py", cwd=project)
    assert proc.stdout.splitlines()[0] == (
        "app.py:12:11: error: F-string: unmatched '[' (a file with tag strings is parsed by the "
        "Python running mypy, 3.11)  [syntax]"
    ), proc.stdout


@pytest.mark.skipif(
    sys.version_info >= (3, 12) or not native_parser_by_default(),
    reason="needs a Python that cannot read PEP 701 f-strings, under mypy's native parser",
)
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # an f-string in an interpolation, in a nested tag string's, in a format spec
        ('y = html"{f"{d["k"]}"}"', "12:17: Tag string: f-string: unmatched '['"),
        ('y = html"{html"{f"{d["k"]}"}"}"', "12:23: Tag string: f-string: unmatched '['"),
        ('y = html"{n:{f"{d["k"]}"}}"', "12:20: Tag string: f-string: unmatched '['"),
    ],
)
def test_nested_syntax_the_running_python_cannot_read(project: Path, line: str, expected: str) -> None:
    (project / "app.py").write_text(MODULE + 'd = {"k": 1}\n' + line + "\n", encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--no-incremental", "--python-version", "3.12",
                    "app.py", cwd=project)
    assert proc.stdout.splitlines()[0] == (
        f"app.py:{expected.replace(': ', ': error: ', 1)} (a file with tag strings is parsed by the "
        "Python running mypy, 3.11)  [syntax]"
    ), proc.stdout


def test_no_hint_for_what_no_python_reads(project: Path) -> None:
    (project / "app.py").write_text(MODULE + 'y = html"{f"{n +}"}"\n', encoding="utf-8")
    proc = run_mypy("--show-column-numbers", "--no-incremental", "app.py", cwd=project)
    assert "syntax" in proc.stdout and "parsed by the Python running mypy" not in proc.stdout, proc.stdout


def test_the_cache_key_covers_the_plugin_and_runtime_sources(tmp_path: Path) -> None:
    """A .mypy_cache made by another version of the plugin (or of the checker's stand-ins)
    must not be reused: mypy compares ``report_config_data`` with the cached value."""
    from tagstr_mypy.hooks.mypy_plugin import sources_fingerprint

    (tmp_path / "typing").mkdir()  # a module in a subpackage counts
    (tmp_path / "typing/tag_call.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    before = sources_fingerprint([str(tmp_path)])
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"ignored")
    assert sources_fingerprint([str(tmp_path)]) == before
    (tmp_path / "typing/tag_call.py").write_text("A = 2\n", encoding="utf-8")
    assert sources_fingerprint([str(tmp_path)]) != before
    assert sources_fingerprint() == sources_fingerprint()  # the installed packages, computed once
