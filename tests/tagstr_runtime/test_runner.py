"""``python -m tagstr_runtime``: behaves like ``python``, plus tag strings.

Where possible the expected output is not written down but taken from the
real ``python`` running an equivalent plain program: the runner must be
indistinguishable from it.
"""

from __future__ import annotations

import importlib.util
import io
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime.run.console import TagCommandCompiler, TagConsole
from tagstr_runtime.run.runner import _parse, main
from fstring_typos import ISSUE_CASES
from clean_python import clean_env

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]

SHOW = """\
import os, sys
print("argv", sys.argv)
print("path0", sys.path[0])
print("name", __name__, "file", globals().get("__file__"))
print("globals", sorted(globals()), __spec__ is None, type(__builtins__).__name__)
print("loader", getattr(__loader__, "__name__", None) or type(__loader__).__mro__[-2].__name__)
"""

TAG = "def tag(*args):\n    return ''.join(a if isinstance(a, str) else str(a.getvalue()) for a in args)\n"


def run(
    *args: str, cwd: Path, stdin: str | None = None, runner: bool = True, autoload: bool = False,
    **env_vars: str,
) -> subprocess.CompletedProcess[str]:
    """``python -m tagstr_runtime ARGS`` (or plain ``python ARGS``) in a clean environment."""
    env = clean_env(TAGSTR_AUTOLOAD="1" if autoload else "0", **env_vars)
    prefix = ["-m", "tagstr_runtime"] if runner else []
    return subprocess.run(
        [sys.executable, *prefix, *args],
        cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=60,
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- the command line (in process) ----------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param([], ("console", "", []), id="nothing"),
        pytest.param(["s.py", "-c", "x"], ("script", "s.py", ["-c", "x"]), id="script-args-not-options"),
        pytest.param(["-c", "pass", "a"], ("code", "pass", ["a"]), id="c"),
        pytest.param(["-cpass"], ("code", "pass", []), id="c-joined"),
        pytest.param(["-m", "pkg.mod", "-x"], ("module", "pkg.mod", ["-x"]), id="m"),
        pytest.param(["-mpkg"], ("module", "pkg", []), id="m-joined"),
        pytest.param(["-", "a"], ("stdin", "-", ["a"]), id="stdin"),
        pytest.param(["--", "-weird.py"], ("script", "-weird.py", []), id="double-dash"),
        pytest.param(["--desugar", "f.py"], ("desugar", "f.py", []), id="desugar"),
        pytest.param(["--desugar=f.py"], ("desugar", "f.py", []), id="desugar-eq"),
        pytest.param(["--format", "--check", "src"], ("format", "", ["--check", "src"]), id="format"),
        pytest.param(["--ruff-check", "--fix", "a.py"], ("ruff-check", "", ["--fix", "a.py"]), id="ruff-check"),
        pytest.param(["-h"], ("help", "", []), id="help"),
        pytest.param(["--version"], ("version", "", []), id="version"),
    ],
)
def test_parse(argv: list[str], expected: tuple[str, str, list[str]]) -> None:
    assert tuple(_parse(argv)) == expected


@pytest.mark.parametrize("argv", [["-x"], ["-c"], ["-m"], ["--desugar"], ["--desugar", "a", "b"]])
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("Try `python -m tagstr_runtime -h'")


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "--desugar" in capsys.readouterr().out
    assert main(["-V"]) == 0
    assert capsys.readouterr().out.startswith(f"tagstr_runtime {tagstr_runtime.__version__} (Python ")


@pytest.fixture
def main_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let ``main`` rebind ``sys.argv``, ``sys.path[0]`` and ``__main__`` in this process."""
    was_installed = _importhook._hook in sys.path_hooks
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    for name in ("last_type", "last_value", "last_traceback", "last_exc"):
        monkeypatch.delattr(sys, name, raising=False)
    yield
    if not was_installed:
        tagstr_runtime.uninstall()


def test_main_in_process(main_state: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = TAG + "import sys\nprint(sys.argv, repr(sys.path[0]), __name__, tag'<{6 * 7}>')\n"
    assert main(["-c", code, "a"]) == 0
    assert capsys.readouterr().out == "['-c', 'a'] '' __main__ <42>\n"


def test_main_in_process_errors(main_state: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-c", "x = 1\n1 / 0\n"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "Traceback (most recent call last):",
        '  File "<string>", line 2, in <module>',
        "ZeroDivisionError: division by zero",
    ]
    assert isinstance(sys.last_value, ZeroDivisionError)
    assert main(["-c", "x = tag'{!}'"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == '  File "<string>", line 1'
    assert main(["-c", "raise KeyboardInterrupt"]) == 130
    with pytest.raises(SystemExit) as caught:
        main(["-c", "raise SystemExit(7)"])
    assert caught.value.code == 7


# -- scripts ------------------------------------------------------------------------


@pytest.mark.subprocess
def test_script_environment_matches_python(tmp_path: Path) -> None:
    write(tmp_path / "sub" / "show.py", SHOW)
    (tmp_path / "link.py").symlink_to(tmp_path / "sub" / "show.py")
    for script in ("sub/show.py", "link.py"):
        ours = run(script, "a", "-c", cwd=tmp_path)
        python = run(script, "a", "-c", cwd=tmp_path, runner=False)
        assert ours.returncode == python.returncode == 0, ours.stderr
        assert ours.stdout == python.stdout
    assert f"path0 {tmp_path / 'sub'}\n" in ours.stdout  # the symlink resolved, like python


@pytest.mark.subprocess
def test_script_with_tag_strings_and_tag_imports(tmp_path: Path) -> None:
    write(tmp_path / "helper.py", TAG + "GREETING = tag'hello {1 + 1}'\n")
    write(
        tmp_path / "main.py",
        TAG + "import sys, helper\nprint(helper.GREETING, tag'{sys.argv[1:]}', __name__)\n",
    )
    result = run("main.py", "x", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "hello 2 ['x'] __main__\n"


@pytest.mark.subprocess
def test_exit_codes_match_python(tmp_path: Path) -> None:
    cases = {
        "exit3.py": "import sys\nsys.exit(3)\n",
        "exitmsg.py": "import sys\nsys.exit('bye')\n",
        "exitnone.py": "raise SystemExit\n",
        "raises.py": "def f():\n    return {}['missing']\n\nf()\n",
        "chained.py": "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    raise ValueError('v') from e\n",
        "syntax.py": "x = 1\nif x\n    pass\n",
    }
    for name, text in cases.items():
        write(tmp_path / name, text)
        ours = run(name, cwd=tmp_path)
        python = run(name, cwd=tmp_path, runner=False)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            python.returncode, python.stdout, python.stderr,
        ), name


@pytest.mark.subprocess
def test_traceback_points_into_the_original_tag_string(tmp_path: Path) -> None:
    write(
        tmp_path / "late.py",
        TAG
        + textwrap.dedent(
            '''\
            zero = 0
            page = tag"""<ul>
              <li>{1 / zero}</li>
            </ul>"""
            '''
        ),
    )
    result = run("late.py", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{tmp_path / "late.py"}", line 4, in <module>'
    assert "_runner" not in result.stderr and "runpy" not in result.stderr
    inner = lines.index(f'  File "{tmp_path / "late.py"}", line 5, in <lambda>')
    assert lines[inner + 1] == "    <li>{1 / zero}</li>"
    if sys.version_info >= (3, 11):
        assert lines[inner + 2] == "         ~~^~~~~~"  # under `1 / zero`
    assert lines[-1] == "ZeroDivisionError: division by zero"


@pytest.mark.subprocess
def test_syntax_error_in_the_script_is_printed_like_python(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", "x = 1\ny = tag'{x!z}'\n")
    result = run("bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[:3] == [
        f'  File "{tmp_path / "bad.py"}", line 2',
        "    y = tag'{x!z}'",
        "    " + " " * len("y = tag'{x!") + "^",
    ]
    assert lines[3].endswith("tag string: invalid conversion character 'z': expected 's', 'r', or 'a'")


@pytest.mark.subprocess
def test_fstring_typos_in_the_script_are_printed_like_python(tmp_path: Path) -> None:
    """Issue 11 item 2: a typo in a plain f-string, not a tag-string error."""
    for index, source in enumerate(ISSUE_CASES):
        write(tmp_path / f"typo{index}.py", source)
        ours = run(f"typo{index}.py", cwd=tmp_path)
        python = run(f"typo{index}.py", cwd=tmp_path, runner=False)
        assert (ours.returncode, ours.stderr) == (python.returncode, python.stderr)


@pytest.mark.subprocess
def test_missing_script(tmp_path: Path) -> None:
    ours = run("nope.py", cwd=tmp_path)
    python = run("nope.py", cwd=tmp_path, runner=False)
    assert (ours.returncode, ours.stderr) == (python.returncode, python.stderr) == (
        2, f"{sys.executable}: can't open file {str(tmp_path / 'nope.py')!r}: [Errno 2] No such file or directory\n",
    )


@pytest.mark.subprocess
@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_keyboard_interrupt_exits_like_python(tmp_path: Path) -> None:
    write(tmp_path / "ki.py", "import atexit\natexit.register(print, 'atexit ran')\nraise KeyboardInterrupt\n")
    ours = run("ki.py", cwd=tmp_path)
    python = run("ki.py", cwd=tmp_path, runner=False)
    assert (ours.returncode, ours.stdout, ours.stderr) == (python.returncode, python.stdout, python.stderr)
    assert ours.returncode == -signal.SIGINT


@pytest.mark.subprocess
def test_directory_with_main(tmp_path: Path) -> None:
    write(tmp_path / "app" / "__main__.py", SHOW + TAG + "print(tag'ok {1}')\n")
    result = run("app", "z", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["argv ['app', 'z']", f"path0 {tmp_path / 'app'}"]
    assert result.stdout.endswith("ok 1\n")


# -- -m, -c, stdin ------------------------------------------------------------------


@pytest.mark.subprocess
def test_module_matches_python(tmp_path: Path) -> None:
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "mod.py", SHOW)
    write(tmp_path / "pkg" / "__main__.py", SHOW)
    write(tmp_path / "pkg" / "fails.py", "def f():\n    raise ValueError('boom')\nf()\n")
    for args in (["-m", "pkg.mod", "a"], ["-m", "pkg"], ["-m", "nope"], ["-m", "pkg.fails"]):
        ours = run(*args, cwd=tmp_path)
        python = run(*args, cwd=tmp_path, runner=False)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            python.returncode, python.stdout, python.stderr,
        ), args
    assert f"argv ['{tmp_path / 'pkg' / 'mod.py'}', 'a']" in run("-m", "pkg.mod", "a", cwd=tmp_path).stdout


@pytest.mark.subprocess
def test_module_with_tag_strings(tmp_path: Path) -> None:
    write(tmp_path / "tagged.py", TAG + "import sys\nprint(tag'{__name__} {sys.argv[0]}')\n")
    result = run("-m", "tagged", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"__main__ {tmp_path / 'tagged.py'}\n"


@pytest.mark.subprocess
def test_code_and_stdin_match_python(tmp_path: Path) -> None:
    for args, stdin in ((["-c", SHOW, "a"], None), (["-", "b"], SHOW), ([], SHOW)):
        ours = run(*args, cwd=tmp_path, stdin=stdin)
        python = run(*args, cwd=tmp_path, stdin=stdin, runner=False)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            python.returncode, python.stdout, python.stderr,
        ), args
    tagged = run("-c", TAG + "print(tag'{2 ** 10}')", cwd=tmp_path)
    assert tagged.stdout == "1024\n", tagged.stderr


# -- --desugar ----------------------------------------------------------------------


@pytest.mark.subprocess
def test_desugar_prints_the_desugared_text(tmp_path: Path) -> None:
    source = TAG + "x = 1\nprint(tag'a{x!r:>3}b')\n"
    path = write(tmp_path / "d.py", source)
    result = run("--desugar", "d.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    expected = tagstr_runtime.desugar(source)
    assert result.stdout == (expected if expected.endswith("\n") else expected + "\n")
    namespace: dict[str, object] = {}
    exec(compile(result.stdout, str(path), "exec"), namespace)  # plain Python
    assert run("--desugar", "-", cwd=tmp_path, stdin=source).stdout == result.stdout


@pytest.mark.subprocess
def test_desugar_errors(tmp_path: Path) -> None:
    write(tmp_path / "bad.py", "y = tag'{'\n")
    result = run("--desugar", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == '  File "bad.py", line 1'
    assert run("--desugar", "missing.py", cwd=tmp_path).returncode == 2


# -- the console --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "complete"),
    [
        pytest.param("x = 1", True, id="plain"),
        pytest.param("if x:", False, id="plain-block"),
        pytest.param("if x:\n    y = tag'a'", False, id="tag-in-open-block"),
        pytest.param("if x:\n    y = tag'a'\n", True, id="tag-block-closed"),
        pytest.param('v = tag"""one', False, id="open-triple-tag"),
        pytest.param('v = tag"""one\ntwo {x}', False, id="open-triple-tag-field"),
        pytest.param('v = tag"""one\ntwo {x}"""', True, id="closed-triple-tag"),
        pytest.param("v = tag'a' + (", False, id="open-paren-after-tag"),
        pytest.param('v = tag"{x}"; w = """abc', False, id="open-plain-triple-after-tag"),
        pytest.param("# just a comment", True, id="comment"),
    ],
)
def test_console_compiler_completeness(source: str, complete: bool) -> None:
    result = TagCommandCompiler()(source, "<stdin>", "single")
    assert (result is not None) == complete


@pytest.mark.parametrize("source", ["tag'{}'", "x = = 1", "tag'a' 'b'"])
def test_console_compiler_errors(source: str) -> None:
    with pytest.raises(SyntaxError):
        TagCommandCompiler()(source, "<stdin>", "single")


def test_console_compiler_remembers_future_imports() -> None:
    compiler = TagCommandCompiler()
    compiler("from __future__ import annotations", "<stdin>", "single")
    code = compiler("def f(a: undefined_name) -> None: pass\n", "<stdin>", "single")
    namespace: dict[str, object] = {}
    assert code is not None
    exec(code, namespace)
    assert namespace["f"].__annotations__ == {"a": "undefined_name", "return": "None"}


def test_console_session(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    namespace: dict[str, object] = {"__name__": "__main__"}
    console = TagConsole(namespace)
    lines = [
        "def tag(*a):",
        "    return a",
        "",
        "x = 5",
        "tag'{x}'[0].getvalue()",
        'v = tag"""one',
        'two {x}"""',
        "str(v[0])",
        "tag'{}'",
    ]
    needs_more = [console.push(line) for line in lines]
    assert needs_more == [True, True, False, False, False, True, False, False, False]
    assert out.getvalue() == "5\n'one\\ntwo '\n"
    assert '  File "<stdin>", line 1' in err.getvalue()
    assert "valid expression required before '}'" in err.getvalue()


@pytest.mark.subprocess
@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_console_on_a_terminal(tmp_path: Path) -> None:
    pty = pytest.importorskip("pty")
    import select
    import time

    env = clean_env(TAGSTR_AUTOLOAD="0", TERM="dumb")
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "tagstr_runtime"], env)
    for line in ("def tg(*a):", "    return len(a)", "", "print('got', tg'a{1}b{2}c')", "import sys; sys.exit(4)"):
        os.write(fd, line.encode() + b"\n")
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    text = output.decode(errors="replace")
    assert "Tag strings enabled" in text
    assert "got 5" in text
    assert os.waitstatus_to_exitcode(status) == 4


# -- code that compiles the main script itself ------------------------------------------

#: Child processes get the hooks from the installed ``tagstr_autoload.pth``.
AUTOLOAD_INSTALLED = any(Path(entry, "tagstr_autoload.pth").exists() for entry in sys.path if entry)
needs_autoload = pytest.mark.skipif(not AUTOLOAD_INSTALLED, reason="tagstr_autoload.pth is not installed")

SPAWNING = TAG + """\
import multiprocessing as mp
import sys


def work(n):
    return tag"n={n * 2}"


if __name__ == "__main__":
    ctx = mp.get_context(sys.argv[1])
    with ctx.Pool(2) as pool:
        print(pool.map(work, [1, 2, 3]))
    process = ctx.Process(target=work, args=(5,))
    process.start()
    process.join()
    print("exit", process.exitcode)
"""


@pytest.mark.subprocess
@needs_autoload
@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawned_children_run_the_main_script_as_the_parent_did(tmp_path: Path, method: str) -> None:
    write(tmp_path / "pool.py", SPAWNING)
    result = run("pool.py", method, cwd=tmp_path, autoload=True)
    assert result.stdout.splitlines() == ["['n=2', 'n=4', 'n=6']", "exit 0"], result.stderr


SIMPLE = TAG + "print(tag'ran {1 + 1}')\n"


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("tool", "stdin"),
    [
        pytest.param(["-m", "pdb"], "c\n", id="pdb"),
        pytest.param(["-m", "cProfile"], None, id="cProfile"),
        pytest.param(["-m", "trace", "--count", "-C", "counts"], None, id="trace"),
        pytest.param(["-c", "import runpy; runpy.run_path('simple.py', run_name='__main__')"], None, id="run_path"),
        pytest.param(
            ["-m", "coverage", "run"], None, id="coverage",
            marks=pytest.mark.skipif(importlib.util.find_spec("coverage") is None, reason="coverage is not installed"),
        ),
    ],
)
def test_tools_that_compile_the_script_themselves(tmp_path: Path, tool: list[str], stdin: str | None) -> None:
    write(tmp_path / "simple.py", SIMPLE)
    args = tool if tool[0] == "-c" else [*tool, "simple.py"]
    result = run(*args, cwd=tmp_path, stdin=stdin)
    assert "ran 2" in result.stdout, result.stderr
    stock = run(*args, cwd=tmp_path, stdin=stdin, runner=False)
    assert "ran 2" not in stock.stdout and "SyntaxError" in stock.stdout + stock.stderr


@pytest.mark.subprocess
@needs_autoload
def test_tagstr_compile_opts_in_without_the_runner(tmp_path: Path) -> None:
    write(tmp_path / "simple.py", SIMPLE)
    result = run("-m", "pdb", "simple.py", cwd=tmp_path, stdin="c\n", runner=False, autoload=True,
                 TAGSTR_COMPILE="1")
    assert "ran 2" in result.stdout, result.stderr


CALLER_FUTURES = """\
from __future__ import annotations
import ast
namespace = {}
exec(compile("def f(x: undefined_name): pass", "<s>", "exec"), namespace)
print(namespace["f"].__annotations__)
try:
    ast.parse("v = tag'{x}'")
except SyntaxError as exc:
    print("ast.parse:", exc.msg)
"""


@pytest.mark.subprocess
def test_the_replaced_compile_behaves_as_the_builtin(tmp_path: Path) -> None:
    """The caller's future imports are inherited; ``ast.parse`` keeps its stock answer."""
    write(tmp_path / "futures.py", CALLER_FUTURES)
    ours = run("futures.py", cwd=tmp_path)
    stock = run("futures.py", cwd=tmp_path, runner=False)
    assert ours.stdout == stock.stdout and "{'x': 'undefined_name'}" in ours.stdout, ours.stderr


# -- --compile: pre-built caches ------------------------------------------------------


@pytest.mark.subprocess
def test_compile_prebuilds_the_cache_imports_then_use(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    write(pkg / "__init__.py", "PLAIN = 1\n")
    write(pkg / "tagmod.py", TAG + "VALUE = tag'x{1 + 1}'\n")
    stock = subprocess.run([sys.executable, "-m", "compileall", "-q", str(pkg)], capture_output=True, text=True)
    assert stock.returncode == 1  # why the command exists
    result = run("--compile", "pkg", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(" -> ") == 1 and "tagmod.py" in result.stdout
    before = sorted(p.name for p in (pkg / "__pycache__").iterdir())
    assert len(before) == 1 + 1 and any(".tagstr-" in name for name in before)  # ours + compileall's __init__
    imported = run(
        "-c", "import sys, tagstr_runtime; tagstr_runtime.install(); import pkg.tagmod; "
        "print(pkg.tagmod.VALUE, 'tagstr_runtime.desugarer.desugaring' in sys.modules)",
        cwd=tmp_path, runner=False,
    )
    assert imported.stdout == "x2 False\n", imported.stderr  # loaded from the cache: nothing desugared
    assert sorted(p.name for p in (pkg / "__pycache__").iterdir()) == before  # and nothing written


@pytest.mark.subprocess
def test_compile_reports_each_broken_file(tmp_path: Path) -> None:
    write(tmp_path / "bad_tag.py", "a = 1\nb = tag'{}'\n")
    write(tmp_path / "bad_plain.py", "x = (\n")
    write(tmp_path / "good.py", TAG + "V = tag'ok'\n")
    result = run("--compile", ".", cwd=tmp_path)
    assert result.returncode == 1
    errors = sorted(result.stderr.splitlines())
    assert errors[0].startswith("./bad_plain.py:1:5: SyntaxError: '(' was never closed")
    assert errors[1] == "./bad_tag.py:2:10: TagSyntaxError: tag string: valid expression required before '}'"
    assert "good.py -> " in result.stdout


@pytest.mark.subprocess
def test_the_replaced_compile_never_fills_a_standard_pyc(tmp_path: Path) -> None:
    """compileall under the runner (so with the replaced compile): a tag-string module
    still fails there, as stock; stock Python must never find desugared code in a pyc."""
    write(tmp_path / "pkg" / "tagmod.py", TAG + "VALUE = tag'x'\n")
    result = run("-m", "compileall", "-q", "pkg", cwd=tmp_path)
    assert result.returncode == 1
    assert not list((tmp_path / "pkg").rglob("tagmod*.pyc"))


def test_main_in_process_leaves_compile_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    before = builtins.compile
    monkeypatch.delenv("TAGSTR_COMPILE", raising=False)
    assert main(["-c", "pass"]) == 0
    assert builtins.compile is before and "TAGSTR_COMPILE" not in os.environ


@pytest.mark.subprocess
def test_a_zipapp_with_tag_strings_runs(tmp_path: Path) -> None:
    """``python -m tagstr_runtime app.pyz``, as the usage text promises: its
    ``__main__`` and the modules it imports come through zipimport."""
    import zipapp

    write(tmp_path / "app" / "__main__.py", TAG + "print(tag'zipped {1}')\nimport helper\nprint(helper.V)\n")
    write(tmp_path / "app" / "helper.py", TAG + "V = tag'helper {2}'\n")
    zipapp.create_archive(tmp_path / "app", tmp_path / "app.pyz")
    result = run("app.pyz", cwd=tmp_path)
    assert result.stdout == "zipped 1\nhelper 2\n", result.stderr
    assert "SyntaxError" in run("app.pyz", cwd=tmp_path, runner=False).stderr
