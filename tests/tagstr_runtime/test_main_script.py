"""``python script.py`` just works for a script with tag strings (issue 29).

Each case runs the real ``python app.py`` in a subprocess and compares its
standard output, standard error and exit status with ``python -m
tagstr_runtime app.py`` on the same script; a script without tag strings is
compared with stock Python (the package's hook switched off).  The start-up
hook must be active in this environment (the project installed, as tox
installs its wheel); the tests are skipped otherwise.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import zipapp
from pathlib import Path

import pytest

import tagstr_runtime

pytestmark = pytest.mark.subprocess

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]
TAG = "def tag(*args):\n    return ''.join(a if isinstance(a, str) else str(a.getvalue()) for a in args)\n"
SHOW = TAG + textwrap.dedent("""\
    import sys
    print("argv", sys.argv)
    print("path0", sys.path[0])
    print("main", __name__, __file__, __cached__, type(__loader__).__name__, __spec__ and __spec__.name)
    print("globals", sorted(globals()))
    print("last", [n for n in ("last_type", "last_value", "last_exc") if hasattr(sys, n)])
    print(tag"tag {6 * 7}")
""")


def python(*args: str, cwd: Path, stdin: str | None = None, **env_vars: str) -> subprocess.CompletedProcess[str]:
    """This interpreter in a clean environment: the start-up hook as installed, ``src/`` first on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env.update({"PYTHONPATH": str(SRC), **env_vars})
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=60)


def outcome(proc: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module", autouse=True)
def _hook_active(tmp_path_factory: pytest.TempPathFactory) -> None:
    probe = python("-c", "import sys; print('tagstr_runtime._autostart' in sys.modules)",
                   cwd=tmp_path_factory.mktemp("probe"))
    if probe.stdout.strip() != "True":
        pytest.skip("the start-up hook is not active here: install the project (tox installs its wheel)")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def same_as_runner(tmp_path: Path, text: str, *args: str, options: tuple[str, ...] = (), stdin: str | None = None,
                   **env_vars: str) -> tuple[int, str, str]:
    """``python [options] app.py [args]`` vs ``python [options] -m tagstr_runtime app.py [args]``: equal."""
    write(tmp_path, "app.py", text)
    ours = python(*options, "app.py", *args, cwd=tmp_path, stdin=stdin, **env_vars)
    runner = python(*options, "-m", "tagstr_runtime", "app.py", *args, cwd=tmp_path, stdin=stdin, **env_vars)
    assert outcome(ours) == outcome(runner)
    return outcome(ours)


def same_as_stock(tmp_path: Path, text: str, *options: str, **env_vars: str) -> tuple[int, str, str]:
    """``python app.py`` with the hook vs without it (``TAGSTR_AUTOLOAD=0``): equal."""
    write(tmp_path, "app.py", text)
    ours = python(*options, "app.py", cwd=tmp_path, **env_vars)
    stock = python(*options, "app.py", cwd=tmp_path, TAGSTR_AUTOLOAD="0", **env_vars)
    assert outcome(ours) == outcome(stock)
    return outcome(ours)


# -- the script runs as if the runner had started it -----------------------------------------


def test_prints_and_exits_0(tmp_path: Path) -> None:
    status, out, err = same_as_runner(tmp_path, SHOW, "a", "-b")
    assert (status, err) == (0, "")
    assert f"argv ['app.py', 'a', '-b']\npath0 {tmp_path.resolve()}\n" in out
    assert f"main __main__ {tmp_path.resolve() / 'app.py'} None TagSourceFileLoader None\n" in out
    assert "last []\n" in out  # CPython recorded its SyntaxError; a script that runs leaves none
    assert out.endswith("tag 42\n")


def test_sys_exit_status(tmp_path: Path) -> None:
    text = TAG + "import sys\nprint(tag'bye')\nsys.exit(3)\n"
    assert same_as_runner(tmp_path, text) == (3, "bye\n", "")
    assert same_as_runner(tmp_path, text.replace("sys.exit(3)", "sys.exit('message')")) == (1, "bye\n", "message\n")


def test_traceback_at_the_original_line(tmp_path: Path) -> None:
    text = TAG + "def f(x):\n    return tag'{1 / x}'\n\nprint(tag'before')\nf(0)\n"
    status, out, err = same_as_runner(tmp_path, text)
    assert (status, out) == (1, "before\n")
    path = tmp_path.resolve() / "app.py"
    assert err.startswith(f'Traceback (most recent call last):\n  File "{path}", line 7, in <module>\n    f(0)\n')
    assert f'  File "{path}", line 4, in <lambda>\n    return tag\'{{1 / x}}\'\n' in err
    assert err.endswith("ZeroDivisionError: division by zero\n")
    assert "tagstr_runtime" not in err and "_main_script" not in err


def test_malformed_tag_string_gets_the_runners_error(tmp_path: Path) -> None:
    status, out, err = same_as_runner(tmp_path, TAG + "print('not run')\nx = tag'{v!z}'\n")
    assert (status, out) == (1, "")
    assert err.splitlines()[1:] == [
        "    x = tag'{v!z}'", "               ^",
        "tagstr_runtime.TagSyntaxError: tag string: invalid conversion character 'z': expected 's', 'r', or 'a'",
    ]


def test_atexit_and_buffered_output(tmp_path: Path) -> None:
    text = TAG + "import atexit, sys\natexit.register(print, 'at exit')\nsys.stdout.write(tag'no newline')\n"
    assert same_as_runner(tmp_path, text) == (0, "no newlineat exit\n", "")
    raising = text + "raise ValueError('late')\n"
    status, out, err = same_as_runner(tmp_path, raising)
    assert (status, out) == (1, "no newlineat exit\n")


def test_keyboard_interrupt_ends_by_sigint(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("death by signal is POSIX")
    text = TAG + "import atexit\natexit.register(print, 'at exit')\nprint(tag'x')\nraise KeyboardInterrupt\n"
    status, out, err = same_as_runner(tmp_path, text)
    assert (status, out) == (-signal.SIGINT, "x\nat exit\n")
    assert err.endswith("KeyboardInterrupt\n")


def test_input_on_stdin(tmp_path: Path) -> None:
    text = TAG + "name = input()\nprint(tag'hello {name}', input())\n"
    assert same_as_runner(tmp_path, text, stdin="Ann\nBob\n") == (0, "hello Ann Bob\n", "")


@pytest.mark.parametrize(
    ("text", "stdin"),
    [
        pytest.param(TAG + "x = 6\nprint(tag'{x}')\n", "print(tag'{x * 7}', __name__)\nprint(sorted(globals()))\n",
                     id="runs"),
        pytest.param(TAG + "import sys\nx = 1\nsys.exit(3)\n", "print('still here', x)\n", id="sys-exit"),
        pytest.param(TAG + "x = 1\n1 / 0\n", "import sys\nprint(type(sys.last_value).__name__, x)\n", id="raises"),
        pytest.param(TAG + "x = tag'{v!z}'\n", "print('console')\n", id="malformed"),
    ],
)
def test_interactive_afterwards(tmp_path: Path, text: str, stdin: str) -> None:
    status, out, err = same_as_runner(tmp_path, text, options=("-i",), stdin=stdin)
    assert status == 0 and ">>> " in err
    assert "__file__" not in out  # python drops it once the script has run


def test_pythoninspect_set_by_the_script(tmp_path: Path) -> None:
    text = TAG + "import os\nos.environ['PYTHONINSPECT'] = '1'\nprint(tag'set')\n"
    status, out, err = same_as_runner(tmp_path, text, stdin="print('console')\n")
    assert (status, out) == (0, "set\n")  # stdin is no terminal: no console, as python decides


def test_warnings_as_errors(tmp_path: Path) -> None:
    text = TAG + "import warnings\nprint(tag'before')\nwarnings.warn('careful')\nprint('not reached')\n"
    status, out, err = same_as_runner(tmp_path, text, options=("-W", "error"))
    assert (status, out) == (1, "before\n")
    assert err.endswith("UserWarning: careful\n")


def test_dev_mode(tmp_path: Path) -> None:
    text = TAG + textwrap.dedent("""\
        import faulthandler, sys, warnings
        print(tag'{sys.flags.dev_mode} {faulthandler.is_enabled()} {sys.warnoptions}')
        print(warnings.filters[0][0])
        warnings.warn('shown', DeprecationWarning)
    """)
    status, out, err = same_as_runner(tmp_path, text, options=("-X", "dev", "-W", "ignore::ImportWarning"))
    assert status == 0 and out.startswith("True True [") and out.endswith("'ignore::ImportWarning']\nignore\n")
    assert "DeprecationWarning: shown" in err


def test_user_excepthook_from_sitecustomize(tmp_path: Path) -> None:
    """The hook another library installs at start-up still gets every error: ours runs before it."""
    custom = write(tmp_path / "custom", "sitecustomize.py", textwrap.dedent("""\
        import sys
        _previous = sys.excepthook
        def user_hook(kind, value, tb):
            print("user hook:", kind.__name__, file=sys.stderr)
            _previous(kind, value, tb)
        sys.excepthook = user_hook
    """))
    path = f"{custom.parent}{os.pathsep}{SRC}"
    raising = TAG + "print(tag'x')\nraise ValueError('boom')\n"
    status, out, err = same_as_runner(tmp_path, raising, PYTHONPATH=path)
    assert (status, out) == (1, "x\n")
    assert err.startswith("user hook: ValueError\nTraceback") and err.count("user hook") == 1
    status, _, err = same_as_runner(tmp_path, TAG + "x = tag'{v!z}'\n", PYTHONPATH=path)
    assert status == 1 and err.startswith("user hook: TagSyntaxError\n")
    status, _, err = same_as_stock(tmp_path, "x = (\n", PYTHONPATH=path)
    assert status == 1 and err.startswith("user hook: SyntaxError\n")


# -- never worse than stock --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("print('a')\nx = (\n", id="never-closed"),
        pytest.param("print('a')\nif True\n    pass\n", id="invalid-syntax"),
        pytest.param("def f():\n\treturn 1\n        return 2\n", id="indentation"),
        pytest.param("# say\"hi\" in a comment\nprint 'x'\n", id="candidate-in-a-comment"),
        pytest.param("s = 'it''s'\nx = 1 +\n", id="quotes-no-tag"),
        pytest.param("x = '\\d'\nprint(1\n", id="warning-then-error"),
    ],
)
def test_plain_script_with_a_syntax_error_is_stock(tmp_path: Path, text: str) -> None:
    status, out, err = same_as_stock(tmp_path, text)
    assert status == 1 and out == "" and "Error" in err


def test_plain_script_runs_stock(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        import site, sys
        print(sys.excepthook.__module__, sys.excepthook.__wrapped__ is sys.__excepthook__)
        print(sorted(m for m in sys.modules if m.startswith('tagstr')))
        print(site.execsitecustomize.__module__, site.execusercustomize.__module__)
    """)
    write(tmp_path, "app.py", text)
    status, out, err = outcome(python("app.py", cwd=tmp_path))
    assert (status, err) == (0, "")
    # the hook is ours, chained to python's; the start-up imports nothing for it; site is as it was
    assert out.splitlines() == [
        "tagstr_runtime._autostart True",
        "['tagstr_runtime', 'tagstr_runtime._autohook', 'tagstr_runtime._autostart', 'tagstr_runtime._importhook']",
        "site site",
    ]


@pytest.mark.parametrize(
    ("options", "env"),
    [
        pytest.param((), {"TAGSTR_AUTOLOAD": "0"}, id="TAGSTR_AUTOLOAD=0"),
        pytest.param(("-S",), {}, id="-S"),
        pytest.param(("-I",), {}, id="-I"),
    ],
)
def test_switched_off(tmp_path: Path, options: tuple[str, ...], env: dict[str, str]) -> None:
    write(tmp_path, "app.py", TAG + "print(tag'x')\n")
    proc = python(*options, "app.py", cwd=tmp_path, **env)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.endswith("SyntaxError: invalid syntax\n")


def test_skipped_first_line(tmp_path: Path) -> None:
    """``python -x``: the first line is not Python, and line numbers still count it."""
    text = "this is not python\n" + TAG + "print(tag'x')\n1 / 0\n"
    write(tmp_path, "app.py", text)
    proc = python("-x", "app.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (1, "x\n")
    assert ", line 5, in <module>" in proc.stderr


# -- the other ways to name the main program (the import hook serves them) ---------------------


def test_module_directory_and_zipapp(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/app.py", SHOW)
    write(tmp_path, "folder/__main__.py", SHOW)
    zipapp.create_archive(tmp_path / "folder", tmp_path / "app.pyz")
    for target in (["-m", "pkg.app"], ["folder"], ["app.pyz"]):
        ours = python(*target, "arg", cwd=tmp_path)
        runner = python("-m", "tagstr_runtime", *target, "arg", cwd=tmp_path)
        assert outcome(ours) == outcome(runner), target
        assert ours.returncode == 0 and ours.stdout.endswith("tag 42\n"), ours.stderr
