"""Text with tag strings given to ``exec``, ``eval``, pdb and tools that compile a script (issue 36).

The compile hook's ``exec`` and ``eval`` must be the builtins for everything
else: a differential test runs each case with the builtins and with the
hook's functions and compares what comes out (value, namespace, exception,
its message and the frames of its traceback).  Then the processes that get
the hook: the runner, ``python -m pdb`` and the profilers, a process that
imports a module with tag strings, each driven for real.
"""

from __future__ import annotations

import builtins
import textwrap
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime.run import compile_hook
from clean_python import clean_env, run_python

TG = "def tg(*a):\n    return ''.join(x if isinstance(x, str) else str(x.getvalue()) for x in a)\n"


@pytest.fixture
def hooked() -> Iterator[None]:
    was = compile_hook.installed()
    compile_hook.install(children=False)
    yield
    if not was:
        compile_hook.uninstall(children=False)


def outcome(action: Callable[[], Any]) -> tuple[Any, ...]:
    """What ``action`` gives: its value, or its exception with the frames of its traceback."""
    try:
        return ("value", action())
    except BaseException as exc:  # noqa: B036 - compared, whatever it is
        frames = [(f.filename if f.filename.startswith("<") else Path(f.filename).name, f.name)
                  for f in traceback.extract_tb(exc.__traceback__)]
        detail = (exc.msg, exc.lineno, exc.offset, exc.text) if isinstance(exc, SyntaxError) else str(exc)
        return ("raised", type(exc).__name__, detail, frames)


def in_function_without_namespaces() -> tuple[Any, ...]:
    y = 1
    exec("y = 2; z = 3")
    return y, locals().get("z"), eval("y + 10")


FUTURE_CALLER = compile(
    "from __future__ import annotations\n"
    "exec('def f(x: undefined) -> int: pass\\nr = f.__annotations__', ns)\n"
    "e = eval('(lambda: 0).__code__.co_flags & 0x1000000', ns)\n",
    "<future caller>", "exec",
)

#: (name, action) pairs run once with the builtins and once with the hook installed
CASES: list[tuple[str, Callable[[], Any]]] = [
    ("exec text", lambda: (lambda g: (exec("x = 1\ny = x + 1", g), g["y"]))({})),
    ("eval text", lambda: eval("1 + 1")),
    ("eval leading blanks", lambda: eval(" \t 2 * 3")),
    ("eval bytes", lambda: eval(b"  4")),
    ("exec code", lambda: (lambda g: (exec(compile("v = 5", "<c>", "exec"), g), g["v"]))({})),
    ("eval code with locals", lambda: eval(compile("a + b", "<c>", "eval"), {"a": 1}, {"b": 2})),
    ("default namespaces in a function", in_function_without_namespaces),
    ("future flags of the caller", lambda: (lambda ns: (builtins.exec(FUTURE_CALLER, {"ns": ns}),
                                                        ns["r"], ns["e"]))({})),
    ("syntax error", lambda: exec("x = = 1")),
    ("syntax error in eval", lambda: eval("1 +")),
    ("error inside", lambda: exec("def f():\n    return 1 / 0\nf()", {})),
    ("raise SyntaxError inside", lambda: exec("raise SyntaxError('mine')", {})),
    ("bad globals", lambda: exec("1", [])),
    ("bad locals", lambda: eval("1", {}, 3)),
    ("closure with text", lambda: exec("1", {}, {}, closure=())),
    ("null bytes", lambda: eval("1\0")),
    ("keywords", lambda: eval("g", globals={"g": 7})),  # 3.13+: accepted; before: TypeError
    ("no frame", lambda: list(map(eval, ["1", "2"]))),
    ("ast.parse", lambda: __import__("ast").dump(__import__("ast").parse("x: int = f'{1}'"))),
]


@pytest.mark.parametrize("case", [name for name, _ in CASES])
def test_the_hooks_exec_and_eval_behave_as_the_builtins(case: str) -> None:
    action = dict(CASES)[case]
    stock = outcome(action)
    was = compile_hook.installed()
    compile_hook.install(children=False)
    try:
        assert builtins.exec is compile_hook.exec and builtins.eval is compile_hook.eval
        ours = outcome(action)
    finally:
        if not was:
            compile_hook.uninstall(children=False)
    assert ours == stock


def test_the_hooks_compile_raises_as_the_builtin() -> None:
    stock = outcome(lambda: compile("x = = 1", "<f>", "exec"))
    assert outcome(lambda: compile_hook.compile("x = = 1", "<f>", "exec")) == stock
    # what ast.parse passes (3.15: module=) reaches the builtin
    assert compile_hook.compile("x = 1", "<f>", "exec", 0x400, _feature_version=8).body[0].lineno == 1
    unknown = outcome(lambda: compile("1", "<f>", "eval", not_an_argument=1))
    assert outcome(lambda: compile_hook.compile("1", "<f>", "eval", not_an_argument=1))[:3] == unknown[:3]
    assert stock[-1] == [("test_text_evaluation.py", "outcome"), ("test_text_evaluation.py", "<lambda>")]


def test_exec_and_eval_of_text_with_tag_strings(hooked: None) -> None:
    namespace: dict[str, Any] = {}
    exec(TG + "v = tg'x{1 + 1}y'", namespace)
    assert namespace["v"] == "x2y"
    assert eval("  tg'e{40 + 2}'", namespace) == "e42"
    assert eval(b"tg'{3}'", namespace) == "3"
    tg = namespace["tg"]
    local = "seen"
    # separate locals (here a function's): interpolations are lambdas reading the globals, as
    # with exec(compile(text), g, l); one namespace sees everything
    assert outcome(lambda: eval("tg'{local}'", {"tg": tg}, {"local": local}))[1] == "NameError"
    assert eval("tg'{local}'", {"tg": tg, "local": local}) == "seen"
    error = outcome(lambda: exec("tg'{1/0}'", {"tg": tg}))
    assert error[:2] == ("raised", "ZeroDivisionError")
    assert [name for _, name in error[3]] == ["outcome", "<lambda>", "<module>", "tg", "<genexpr>", "<lambda>"]
    malformed = outcome(lambda: eval("tg'{'", {"tg": tg}))
    assert malformed[:3] == ("raised", "TagSyntaxError", ("tag string: expecting '}'", 1, 5, "tg'{'"))
    assert malformed[3] == [("test_text_evaluation.py", "outcome"), ("test_text_evaluation.py", "<lambda>")]


def test_hook_functions_look_like_the_builtins() -> None:
    import inspect

    for ours, stock in ((compile_hook.exec, builtins.exec), (compile_hook.eval, builtins.eval)):
        assert ours.__name__ == stock.__name__ and ours.__doc__ == stock.__doc__
        assert inspect.unwrap(ours) is getattr(compile_hook, f"_builtin_{stock.__name__}")


# -- processes ------------------------------------------------------------------------


SCRIPT_WITH_EXEC = TG + textwrap.dedent('''\
    ns = {"tg": tg}
    exec("r = tg'exec {6 * 7}'", ns)
    print(ns["r"], eval("tg'eval {1 + 1}'"))
    try:
        exec("tg'{'")
    except SyntaxError as exc:
        print(type(exc).__name__, exc.msg)
''')


@pytest.mark.subprocess
def test_exec_and_eval_under_the_runner(tmp_path: Path) -> None:
    """Issue 36: ``exec(str)`` failed even under ``python -m tagstr_runtime``."""
    (tmp_path / "app.py").write_text(SCRIPT_WITH_EXEC, encoding="utf-8")
    done = run_python("-m", "tagstr_runtime", "app.py", cwd=tmp_path, env=clean_env(TAGSTR_AUTOLOAD="0"))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["exec 42 eval 2", "TagSyntaxError tag string: expecting '}'"]


def hook_installed() -> bool:
    done = run_python("-c", "import sys, tagstr_runtime._importhook as h; print(h._hook in sys.path_hooks)",
                      cwd=Path.cwd())
    return done.stdout == "True\n"


TAG_MODULE = TG + textwrap.dedent('''\
    def html(*args):
        return "".join(a if isinstance(a, str) else f"<{a.getvalue()}>" for a in args)

    def work(local):
        other = html"other {local}"
        breakpoint()
        return other
''')
PDB_COMMANDS = textwrap.dedent('''\
    p html"{local} and {other}"
    !y = html"{local}"
    p y
    !other = html"{y}!"
    html"{other}"
    pp [html"{i}" for i in range(2)]
    !def again(): return html"{local}"
    p again()
    display html"{local}"
    p html"{undefined}"
    p html"{"
    p 1 +
    p local + 1
    c
''')
PDB_EXPECTED = [
    "'<21> and <other <21>>'",
    "'<21>'",
    "'<<<21>>!>'",
    "['<0>', '<1>']",
    "'<21>'",
    "display html\"{local}\": '<21>'",
    "*** NameError: name 'undefined' is not defined",
    "TagSyntaxError: tag string: expecting '}'",
    "SYNTAX ERROR OF p 1 +",
    "22",
    "result <<21>>!",
]


def pdb_lines(out: str) -> list[str]:
    lines = []
    for line in out.replace("(Pdb) ", "\n").splitlines():
        if line and not line.startswith(("> ", "-> ")):
            lines.append(line.removeprefix("*** tagstr_runtime.") if "TagSyntaxError" in line else line)
    return lines


def expected_pdb() -> list[str]:
    try:
        compile("1 +", "<string>", "eval")
    except SyntaxError as exc:
        stock = f"*** SyntaxError: {exc.msg}"
    return [stock if line == "SYNTAX ERROR OF p 1 +" else line for line in PDB_EXPECTED]


@pytest.mark.subprocess
@pytest.mark.parametrize("how", ["runner", "python plain.py", "python tagged.py", "python -m pdb"])
def test_pdb_evaluates_tag_strings_in_the_frame(tmp_path: Path, how: str) -> None:
    """``p``, ``pp``, ``display``, ``!stmt`` and bare statements with tag strings see the frame's
    locals, as the same text written in the function would (issue 36)."""
    if how != "runner" and not hook_installed():
        pytest.skip("the start-up hook is not installed here")
    (tmp_path / "tagmod.py").write_text(TAG_MODULE, encoding="utf-8")
    (tmp_path / "plain.py").write_text("import tagmod\nprint('result', tagmod.work(21))\n", encoding="utf-8")
    (tmp_path / "tagged.py").write_text("from tagmod import tg, work\nprint(tg'result {work(21)}')\n",
                                        encoding="utf-8")
    commands = PDB_COMMANDS
    args = {"runner": ["-m", "tagstr_runtime", "plain.py"], "python plain.py": ["plain.py"],
            "python tagged.py": ["tagged.py"], "python -m pdb": ["-m", "pdb", "tagged.py"]}[how]
    if how == "python -m pdb":
        commands = "c\n" + commands + "q\n"
    env = clean_env(TAGSTR_AUTOLOAD="0") if how == "runner" else clean_env()
    done = run_python(*args, cwd=tmp_path, env=env, stdin=commands)
    assert done.returncode == 0, done.stderr
    lines = pdb_lines(done.stdout)
    if how == "python -m pdb":
        lines = lines[: lines.index("The program finished and will be restarted")]
    assert lines[-len(PDB_EXPECTED):] == expected_pdb(), done.stdout


@pytest.mark.subprocess
def test_pdb_on_plain_text_is_stock(tmp_path: Path) -> None:
    """Commands without tag strings: the same session with and without the hook."""
    (tmp_path / "tagmod.py").write_text(TAG_MODULE, encoding="utf-8")
    (tmp_path / "plain.py").write_text(
        "def work(local):\n    other = local * 2\n    breakpoint()\n    return other\nprint(work(21))\n",
        encoding="utf-8",
    )
    commands = ("p local, other\n!other = 5\np [x for x in (local,)]\np 1 +\n!x = = 1\np undefined\n"
                "pp {'a': f'{local}'}\nc\n")
    runs = [run_python("-m", "tagstr_runtime", "plain.py", cwd=tmp_path, stdin=commands,
                       env=clean_env(TAGSTR_AUTOLOAD="0")),
            run_python("plain.py", cwd=tmp_path, stdin=commands, env=clean_env(TAGSTR_AUTOLOAD="0"))]
    assert runs[0].stdout == runs[1].stdout and runs[0].returncode == runs[1].returncode == 0, runs


@pytest.mark.subprocess
@pytest.mark.parametrize("tool", [["-m", "pdb"], ["-m", "cProfile"], ["-m", "trace", "--count", "-C", "counts"]])
def test_tools_that_compile_the_script_run_one_with_tag_strings(tmp_path: Path, tool: list[str]) -> None:
    """The start-up hook sees ``python -m pdb|cProfile|trace script.py`` and installs the
    compile hook there (before, only with ``TAGSTR_COMPILE=1``)."""
    if not hook_installed():
        pytest.skip("the start-up hook is not installed here")
    (tmp_path / "app.py").write_text(TG + "print(tg'ran {6 * 7}')\n", encoding="utf-8")
    done = run_python(*tool, "app.py", cwd=tmp_path, stdin="c\nq\n")
    assert done.returncode == 0, done.stderr
    assert "ran 42" in done.stdout, done.stdout + done.stderr


@pytest.mark.subprocess
def test_plain_processes_keep_the_builtins(tmp_path: Path) -> None:
    """Only a tool named above gets the hook; a process that imports code with tag strings
    keeps the builtins, and only its pdb learns tag strings (``pdb_commands``)."""
    if not hook_installed():
        pytest.skip("the start-up hook is not installed here")
    (tmp_path / "plain.py").write_text("import builtins\nprint(builtins.exec, builtins.compile)\n")
    (tmp_path / "tagmod.py").write_text(TAG_MODULE, encoding="utf-8")
    plain = run_python("plain.py", cwd=tmp_path)
    assert plain.stdout == "<built-in function exec> <built-in function compile>\n", plain.stderr
    importing = run_python("-c", "import builtins, tagmod, pdb; print(builtins.exec, builtins.eval, "
                           "builtins.compile, pdb.Pdb.default.__module__)", cwd=tmp_path)
    assert importing.stdout == ("<built-in function exec> <built-in function eval> <built-in function compile> "
                                "tagstr_runtime.integrations.pdb_commands\n"), importing.stderr
    child = run_python("-c", "import tagmod, os; print(os.environ.get('TAGSTR_COMPILE'))", cwd=tmp_path)
    assert child.stdout == "None\n", child.stderr  # nothing for its children
    assert tagstr_runtime


@pytest.mark.subprocess
def test_pytest_pdb_in_a_test_with_tag_strings(tmp_path: Path) -> None:
    """``pytest --pdb`` stops in a failing test with tag strings; its pdb evaluates them."""
    (tmp_path / "test_tagged.py").write_text(
        TG + "def test_x():\n    local = 3\n    assert tg'{local}' == '4'\n", encoding="utf-8"
    )
    done = run_python("-m", "pytest", "-q", "-p", "no:cacheprovider", "--pdb", "test_tagged.py", cwd=tmp_path,
                      stdin='p tg"<{local}>"\nc\n')
    assert "(Pdb) '<3>'" in done.stdout, done.stdout + done.stderr
