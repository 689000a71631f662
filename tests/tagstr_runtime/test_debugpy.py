"""VS Code's "Run and Debug" on a script with tag strings, driven as VS Code drives debugpy (issue 36, item 2).

debugpy runs the script itself (``runpy.run_path``, with the builtin
``compile``), and its Debug Console evaluates what the user types with the
builtin ``compile`` and ``eval``: the start-up hook installs the compile hook
in a process started by debugpy.  Each test speaks the Debug Adapter Protocol
as VS Code does: ``initialize``, ``launch`` or ``attach``, ``setBreakpoints``,
``configurationDone``, then at the breakpoint ``stackTrace`` and
``evaluate`` (the Debug Console's ``repl`` context, and ``hover``).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clean_python import clean_env
from dap_client import DapClient, DapError

pytest.importorskip("debugpy", reason="debugpy is in the tests dependency group")

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

SCRIPT = textwrap.dedent('''\
    def html(*args):
        return "".join(a if isinstance(a, str) else f"<{a.getvalue()}>" for a in args)

    def work(local):
        other = html"other {local}"
        return other  # BREAK

    print(html"start {1 + 1}")
    print(work(21))
''')
RECIPES = Path(__file__).resolve().parents[2] / "docs" / "recipes.md"
BREAK_LINE = SCRIPT.splitlines().index("    return other  # BREAK") + 1
INITIALIZE = {"clientID": "vscode", "clientName": "Visual Studio Code", "adapterID": "debugpy",
              "pathFormat": "path", "linesStartAt1": True, "columnsStartAt1": True,
              "supportsVariableType": True, "supportsRunInTerminalRequest": False, "locale": "en"}


def hook_installed() -> bool:
    """The start-up hook in this environment: the wheel (tox) or an editable install's ``.pth``."""
    done = subprocess.run([sys.executable, "-c", "import sys, tagstr_runtime._importhook as h; "
                           "print(h._hook in sys.path_hooks)"], env=clean_env(), capture_output=True, text=True)
    return done.stdout == "True\n"


@pytest.fixture
def script(tmp_path: Path) -> Path:
    if not hook_installed():
        pytest.skip("the start-up hook is not installed in this environment")
    path = tmp_path / "app.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


def stop_and_evaluate(client: DapClient, script: Path) -> dict[str, str]:
    """At the breakpoint in ``work``: the frame, and what the Debug Console shows."""
    stopped = client.event("stopped", timeout=90, unless="terminated")
    frames = client.request("stackTrace", threadId=stopped["threadId"])["stackFrames"]
    top = frames[0]
    assert (top["name"], top["line"], Path(top["source"]["path"]).resolve()) == ("work", BREAK_LINE, script.resolve())
    shown = {}
    for expression, context in (('html"{local} and {other}"', "repl"), ('y = html"{local}"', "repl"),
                                ("y", "repl"), ('html"{local}"', "hover"), ('html"{', "repl")):
        try:
            shown[expression] = client.request("evaluate", expression=expression, frameId=top["id"],
                                               context=context).get("result", "")
        except DapError as exc:
            shown[expression] = str(exc)
    client.send("continue", threadId=stopped["threadId"])
    return shown


def check(shown: dict[str, str], client: DapClient) -> None:
    assert shown['html"{local} and {other}"'] == "'<21> and <other <21>>'", shown
    assert shown["y"] == "'<21>'", shown
    assert shown['html"{local}"'] == "'<21>'", shown  # hover: pydevd's eval of the text
    assert "TagSyntaxError" in shown['html"{'] and "expecting '}'" in shown['html"{'], shown
    deadline = time.monotonic() + 60
    while "other <21>" not in client.output() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.output().splitlines()[-2:] == ["start <2>", "other <21>"], client.summary()


@pytest.fixture
def adapter(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen([sys.executable, "-m", "debugpy.adapter"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, env=clean_env(), cwd=tmp_path)
    yield process
    _end(process)


def _end(process: subprocess.Popen[bytes]) -> None:
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            stream.close()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def launch_configurations() -> list[dict[str, Any]]:
    """The configurations of docs/recipes.md's ``launch.json`` (a JSON with comments)."""
    text = RECIPES.read_text(encoding="utf-8")
    block = text[text.index("// .vscode/launch.json"):]
    block = block[: block.index("```")]
    plain = "\n".join(line for line in block.splitlines() if not line.strip().startswith("//"))
    configurations: list[dict[str, Any]] = json.loads(plain)["configurations"]
    return configurations


@pytest.mark.parametrize("configuration", launch_configurations(), ids=lambda c: c["name"])
def test_launch_runs_the_script_and_the_debug_console_evaluates_tag_strings(
    script: Path, adapter: subprocess.Popen[bytes], configuration: dict[str, Any]
) -> None:
    """VS Code's "Python Debugger: Current File": the adapter's launcher starts
    ``python <debugpy folder> --connect ... app.py``; no setting of ours in launch.json.
    The runner's configuration is for an interpreter without the start-up hook."""
    assert adapter.stdout is not None and adapter.stdin is not None
    client = DapClient(adapter.stdout, adapter.stdin)
    client.request("initialize", **INITIALIZE)
    arguments = json.loads(json.dumps(configuration).replace("${file}", str(script)))
    arguments["console"] = "internalConsole"  # VS Code's terminal is not here: the output comes as events
    runner = arguments.get("module") == "tagstr_runtime"
    env = clean_env(TAGSTR_AUTOLOAD="0") if runner else clean_env()
    launch = client.send("launch", **arguments, cwd=str(script.parent), justMyCode=True,
                         python=[sys.executable], env=env)
    client.event("initialized", timeout=90)
    client.request("setBreakpoints", source={"path": str(script)}, breakpoints=[{"line": BREAK_LINE}])
    client.request("configurationDone")
    client.response(launch)
    shown = stop_and_evaluate(client, script)
    client.event("terminated", timeout=90)
    check(shown, client)


def test_listen_then_attach_over_a_socket(script: Path) -> None:
    """``python -m debugpy --listen PORT --wait-for-client app.py``, then VS Code's "attach"."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", "--wait-for-client", str(script)],
        env=clean_env(), cwd=script.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        connection = _connect(port, process)
        with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
            client = DapClient(reader, writer)
            client.request("initialize", **INITIALIZE)
            attach = client.send("attach", name="Python Debugger: Attach", type="debugpy", request="attach",
                                 connect={"host": "127.0.0.1", "port": port}, justMyCode=True)
            client.event("initialized", timeout=90)
            client.request("setBreakpoints", source={"path": str(script)}, breakpoints=[{"line": BREAK_LINE}])
            client.request("configurationDone")
            client.response(attach)
            shown = stop_and_evaluate(client, script)
            client.event("terminated", timeout=90)
            client.send("disconnect")
            out, err = process.communicate(timeout=90)
        assert process.returncode == 0, err.decode()
        assert shown['html"{local} and {other}"'] == "'<21> and <other <21>>'", shown
        assert shown["y"] == "'<21>'", shown
        assert out.decode().splitlines()[-2:] == ["start <2>", "other <21>"], err.decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _connect(port: int, process: subprocess.Popen[bytes]) -> socket.socket:
    deadline = time.monotonic() + 60
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=60)
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"debugpy did not listen: {process.communicate()[1].decode()}") from None
            time.sleep(0.1)


def test_a_plain_script_under_debugpy_is_stock(tmp_path: Path) -> None:
    """The compile hook in a debugpy process changes nothing for a script without tag strings:
    its own syntax error is CPython's, and exec/eval/compile behave as the builtins."""
    if not hook_installed():
        pytest.skip("the start-up hook is not installed in this environment")
    script = tmp_path / "plain.py"
    script.write_text(textwrap.dedent('''\
        import builtins, sys, traceback
        print(builtins.compile.__module__, builtins.exec.__module__)
        def f():
            exec("1/0")
        try:
            f()
        except ZeroDivisionError as exc:
            print([frame.name for frame in traceback.extract_tb(exc.__traceback__)])
        try:
            eval("x x")
        except SyntaxError as exc:
            print(exc.msg, traceback.extract_tb(exc.__traceback__)[-1].name)
    '''), encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([sys.executable, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", str(script)],
                          env=clean_env(), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    try:
        eval("x x")
    except SyntaxError as exc:
        stock = exc.msg
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "tagstr_runtime.run.compile_hook tagstr_runtime.run.compile_hook",
        "['<module>', 'f', '<module>']",  # no frame of ours between f and the text
        f"{stock} <module>",
    ], done.stderr
