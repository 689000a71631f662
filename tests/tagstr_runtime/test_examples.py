"""The modules in ``examples/`` do what their docstrings say.

Each example is compiled with ``tagstr_runtime.compile`` and executed in
process (as an importable module, and as ``__main__`` for its demo); small tag
strings written here are evaluated the same way against the example's tag.
The ``subprocess`` tests run each example through ``python -m tagstr_runtime``.
"""

from __future__ import annotations

import ast
import html as stdlib_html
import importlib.util
import io
import logging
import os
import shlex
import subprocess
import sys
import types
from contextlib import redirect_stdout
from decimal import Decimal, InvalidOperation, localcontext
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tagstr_runtime

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
NAMES = ("decimal_literal", "delayed", "greet", "html", "lazylog", "sh", "sql")

needs_sqlite = pytest.mark.skipif(
    importlib.util.find_spec("_sqlite3") is None, reason="no sqlite3 in this Python"
)
needs_sh = pytest.mark.skipif(not Path("/bin/sh").exists(), reason="needs a POSIX /bin/sh")


def _exec_example(name: str, module: types.ModuleType) -> types.ModuleType:
    path = EXAMPLES / f"{name}.py"
    code = tagstr_runtime.compile(path.read_text(encoding="utf-8"), str(path), "exec")
    module.__file__ = str(path)
    exec(code, module.__dict__)
    return module


@cache
def example(name: str) -> types.ModuleType:
    """The example imported as a module (its demo does not run)."""
    module_name = f"tagstr_example_{name}"
    module = types.ModuleType(module_name)
    sys.modules[module_name] = module  # as an import would: typing and pickle look it up
    try:
        return _exec_example(name, module)
    finally:
        del sys.modules[module_name]


def run_main(name: str) -> str:
    """What the example prints when run as a script (in this process)."""
    out = io.StringIO()
    with redirect_stdout(out):
        _exec_example(name, types.ModuleType("__main__"))
    return out.getvalue()


def tagged(source: str, **names: Any) -> Any:
    """Evaluate one expression holding tag strings, with ``names`` in scope."""
    return eval(tagstr_runtime.compile(source, "<test>", "eval"), dict(names))


# -- all examples -----------------------------------------------------------------


def test_every_example_is_tested_and_listed() -> None:
    drivers = {"run_all", "quickstart"}  # they run the others
    assert sorted(p.stem for p in EXAMPLES.glob("*.py") if p.stem not in drivers) == sorted(NAMES)
    run_all = (EXAMPLES / "run_all.py").read_text(encoding="utf-8")
    assert all(f'"{name}"' in run_all for name in NAMES)
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"({name}.py)" in readme


@pytest.mark.parametrize("name", NAMES)
def test_example_is_fully_annotated_and_has_a_demo(name: str) -> None:
    path = EXAMPLES / f"{name}.py"
    tree = tagstr_runtime.compile(path.read_text(encoding="utf-8"), str(path), "exec", ast.PyCF_ONLY_AST)
    assert isinstance(tree, ast.Module)
    assert ast.get_docstring(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is not None, f"{name}.py:{node.lineno} {node.name}: no return annotation"
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            params += [a for a in (args.vararg, args.kwarg) if a is not None]
            for param in params:
                if param.arg in ("self", "cls"):
                    continue
                assert param.annotation is not None, f"{name}.py:{node.lineno} {node.name}({param.arg})"
    guards = [
        stmt for stmt in tree.body
        if isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "__name__ == '__main__'"
    ]
    assert len(guards) == 1


@pytest.mark.parametrize("name", NAMES)
def test_example_imports_without_running_its_demo(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = example(name)
    assert callable(module.main)
    assert capsys.readouterr().out == ""


# -- html -------------------------------------------------------------------------


@given(st.text())
def test_html_escape_is_the_stdlib_escape(text: str) -> None:
    mod = example("html")
    assert mod.escape(text) == stdlib_html.escape(text, quote=True)
    assert tagged('html"<p title={text}>{text}</p>"', html=mod.html, text=text) == (
        f"<p title={stdlib_html.escape(text)}>{stdlib_html.escape(text)}</p>"
    )


def test_html_escapes_interpolations_not_the_template() -> None:
    mod = example("html")
    name = "<script>alert('x & y')</script>"
    result = tagged('html"<p class=\\"a\\">Hi {name}!</p>"', html=mod.html, name=name)
    assert result == '<p class="a">Hi &lt;script&gt;alert(&#x27;x &amp; y&#x27;)&lt;/script&gt;!</p>'
    assert type(result) is mod.HTML
    assert isinstance(result, str)


def test_html_nested_results_are_not_escaped_twice() -> None:
    mod = example("html")
    result = tagged(
        """html"<div>{html'<i>{x}</i>'} {html"<b>{html'<u>{x}</u>'}</b>"}</div>\"""",
        html=mod.html, x="a<b & c",
    )
    assert result == "<div><i>a&lt;b &amp; c</i> <b><u>a&lt;b &amp; c</u></b></div>"


def test_html_markup_protocol_and_lists() -> None:
    mod = example("html")

    class Markup:
        def __html__(self) -> str:
            return "<hr>"

    assert tagged('html"{m}{s}"', html=mod.html, m=Markup(), s="<hr>") == "<hr>&lt;hr&gt;"
    items = ["<a>", mod.HTML("<b>"), ("&", [mod.HTML("<c>")])]
    assert tagged('html"<ul>{items}</ul>"', html=mod.html, items=items) == "<ul>&lt;a&gt;<b>&amp;<c></ul>"
    assert mod.user_list(["a < b", "O'Henry"]) == "<ul><li>a &lt; b</li><li>O&#x27;Henry</li></ul>"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param('html"{s!r}"', "&#x27;&lt;é&gt;&#x27;", id="repr-is-escaped"),
        pytest.param('html"{s!a}"', "&#x27;&lt;\\xe9&gt;&#x27;", id="ascii-is-escaped"),
        pytest.param('html"{s!s}"', "&lt;é&gt;", id="str"),
        pytest.param('html"{s:*^7}"', "**&lt;é&gt;**", id="spec-then-escape"),
        pytest.param('html"{n:>8.2f}"', "    3.14", id="number-spec"),
        pytest.param('html"{n!r:>{w}}"', " 3.14159", id="nested-spec"),
        pytest.param('html"{m:>5}"', "  <b>", id="markup-padded-not-escaped"),
        pytest.param('html"{m!s}"', "&lt;b&gt;", id="markup-as-text-with-!s"),
        pytest.param('html"{m!r}"', "HTML(&#x27;&lt;b&gt;&#x27;)", id="markup-repr"),
        pytest.param('html"{{literal}} {n=}"', "{literal} n=3.14159", id="braces-and-debug"),
        pytest.param('html""', "", id="empty"),
    ],
)
def test_html_conversions_and_format_specs(source: str, expected: str) -> None:
    mod = example("html")
    names = {"html": mod.html, "s": "<é>", "n": 3.14159, "w": 8, "m": mod.HTML("<b>")}
    assert tagged(source, **names) == expected


def test_html_user_card_and_demo() -> None:
    mod = example("html")
    card = mod.user_card("Tom & Jerry", 'https://x.test/?a=1&b="2"', 4.75)
    assert card == (
        '<div class="card">\n'
        '  <a href="https://x.test/?a=1&amp;b=&quot;2&quot;">Tom &amp; Jerry</a>\n'
        '  <span class="karma">4.8</span>\n'
        "</div>"
    )
    shown = mod.demo()
    assert shown[0] == "<p>Hello &lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;!</p>"
    assert shown[-1] == "<div><i>&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;</i></div>"
    assert all("<script>" not in fragment for fragment in shown)


def test_html_main() -> None:
    out = run_main("html")
    assert out.splitlines()[0] == "<p>Hello &lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;!</p>"
    assert "<td>    3.14</td>" in out


# -- sql --------------------------------------------------------------------------


def test_sql_builds_placeholders_and_params() -> None:
    mod = example("sql")
    name, age = "O'Henry", 42
    query = tagged('sql"SELECT * FROM users WHERE name = {name} AND age > {age}"',
                   sql=mod.sql, name=name, age=age)
    assert query == mod.Query("SELECT * FROM users WHERE name = ? AND age > ?", ("O'Henry", 42))


def test_sql_fragments_identifiers_and_specs() -> None:
    mod = example("sql")
    names = {"sql": mod.sql, "a": 1, "b": 2, "c": 3, "t": 'we"ird', "p": 3.1}
    where = tagged('sql"x = {a} AND y = {b}"', **names)
    query = tagged('sql"SELECT {p:.2f}, {p!r} FROM {t:id} WHERE {where} OR z = {c}"', where=where, **names)
    assert query.text == 'SELECT ?, ? FROM "we""ird" WHERE x = ? AND y = ? OR z = ?'
    assert query.params == ("3.10", "3.1", 1, 2, 3)
    with pytest.raises(ValueError, match="NUL"):
        mod.quote_identifier("a\x00b")


@needs_sqlite
def test_sql_values_are_stored_verbatim_and_the_table_survives() -> None:
    mod = example("sql")
    outcome = mod.demo()
    assert outcome.stored == mod.NAMES
    assert outcome.tables == ["users"]
    assert outcome.rows == [
        (2, "x'; DROP TABLE users; --", 21),
        (1, "O'Henry", 20),
        (1, "O'Henry", 20),
    ]


@needs_sqlite
def test_sql_the_f_string_version_is_injectable() -> None:
    assert example("sql").unsafe_demo() == []


@needs_sqlite
def test_sql_injection_strings_round_trip_through_sqlite() -> None:
    import sqlite3

    mod = example("sql")
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE users (name TEXT)")
    evil = "x'; DROP TABLE users; --"
    for value in (evil, "O'Henry", "'); DELETE FROM users; --", "\x00nul"):
        mod.execute(db, tagged('sql"INSERT INTO users VALUES ({value})"', sql=mod.sql, value=value))
        found = mod.execute(db, tagged('sql"SELECT name FROM users WHERE name = {value}"',
                                       sql=mod.sql, value=value)).fetchall()
        assert found == [(value,)]
    assert db.execute("SELECT count(*) FROM users").fetchone() == (4,)


@needs_sqlite
def test_sql_main() -> None:
    out = run_main("sql")
    assert "query:  SELECT * FROM users WHERE name = ?\n" in out
    assert "tables after the tag-string queries: ['users']\n" in out
    assert "tables after one f-string query:     []\n" in out


# -- sh ---------------------------------------------------------------------------


def test_sh_quotes_each_value_as_one_word() -> None:
    mod = example("sh")
    name = mod.EVIL
    command = tagged('sh"cat -- {name}"', sh=mod.sh, name=name)
    assert command == "cat -- " + shlex.quote(name)
    assert type(command) is mod.Command
    assert command.argv == ["cat", "--", name]


@given(st.text(st.characters(blacklist_characters="\x00")))
def test_sh_argv_round_trips_any_text(text: str) -> None:
    mod = example("sh")
    assert tagged('sh"printf %s {text}"', sh=mod.sh, text=text).argv == ["printf", "%s", text]


def test_sh_lists_commands_paths_and_specs() -> None:
    mod = example("sh")
    names = {
        "sh": mod.sh,
        "files": ["a b", ("c;d", PurePosixPath("/tmp/e f"))],
        "inner": mod.Command("ls -1 | head"),
        "n": 7,
        "s": "it's",
    }
    command = tagged('sh"rm -- {files}; {inner} | wc -l; echo {n:03d} {s!r} {inner!s}"', **names)
    assert command == (
        "rm -- 'a b' 'c;d' '/tmp/e f'; ls -1 | head | wc -l; "
        "echo 007 '\"it'\"'\"'s\"' 'ls -1 | head'"
    )


@pytest.mark.subprocess
@needs_sh
def test_sh_runs_without_injection() -> None:
    mod = example("sh")
    outputs = mod.demo()
    assert outputs == [
        "it's * $HOME\n",
        "1",
        "[a b][c;d][$e]",
        mod.EVIL + "\n",
        mod.EVIL,
    ]


@pytest.mark.subprocess
@needs_sh
def test_sh_main() -> None:
    out = run_main("sh")
    assert out.splitlines()[0] == "command: cat -- " + shlex.quote(example("sh").EVIL)
    assert "PWNED" not in out.split("\n", 1)[1].replace(example("sh").EVIL, "")


# -- lazylog ------------------------------------------------------------------------


class ListHandler(logging.Handler):
    def __init__(self, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname} {record.getMessage()}")


def private_logger(name: str, level: int, handler: logging.Handler) -> logging.Logger:
    """A logger that pytest's capturing handlers (on the root) never see."""
    logger = logging.getLogger(f"tagstr.tests.{name}")
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False
    return logger


def test_lazylog_evaluates_only_emitted_records() -> None:
    mod = example("lazylog")
    handler = ListHandler()
    seen = mod.demo(private_logger("info", logging.INFO, handler))
    assert seen == [
        ("debug as msg", 0),
        ("debug as arg", 0),
        ("info as msg", 1),
        ("warning as arg", 2),
        ("debug f-string", 3),
    ]
    assert handler.messages == [
        "INFO info:          '<big state dump #1>'",
        "WARNING warning: <big state dump #2>",
    ]


def test_lazylog_at_debug_everything_is_evaluated_once() -> None:
    mod = example("lazylog")
    handler = ListHandler()
    seen = mod.demo(private_logger("debug", logging.DEBUG, handler))
    assert [calls for _, calls in seen] == [1, 2, 3, 4, 5]
    assert handler.messages[0] == "DEBUG debug: <big state dump #1>"


def test_lazylog_record_filtered_by_the_handler_is_not_evaluated() -> None:
    mod = example("lazylog")
    handler = ListHandler(level=logging.ERROR)
    logger = private_logger("handler-level", logging.DEBUG, handler)
    counter = mod.Counter()
    logger.info(tagged('lazy"{counter.dump()}"', lazy=mod.lazy, counter=counter))
    assert counter.calls == 0 and handler.messages == []


def test_lazylog_message_is_computed_once() -> None:
    mod = example("lazylog")
    counter = mod.Counter()
    message = tagged('lazy"a{counter.dump()!r:>25}b{{}}"', lazy=mod.lazy, counter=counter)
    assert counter.calls == 0 and not message.evaluated
    assert "not evaluated" in repr(message)
    assert str(message) == "a    '<big state dump #1>'b{}"
    assert str(message) == "a    '<big state dump #1>'b{}"
    assert counter.calls == 1 and message.evaluated
    assert repr(message) == "LazyMessage(\"a    '<big state dump #1>'b{}\")"


def test_lazylog_main() -> None:
    out = run_main("lazylog").splitlines()
    assert out[-5:] == [
        f"after {what:<15} the expensive function has run {n} time(s)"
        for what, n in [("debug as msg", 0), ("debug as arg", 0), ("info as msg", 1),
                        ("warning as arg", 2), ("debug f-string", 3)]
    ]


# -- decimal_literal ----------------------------------------------------------------


def test_decimal_literals_are_exact() -> None:
    mod = example("decimal_literal")
    total = tagged('D"0.1" + D"0.2"', D=mod.D)
    assert total == Decimal("0.3") == tagged('D"0.3"', D=mod.D)
    assert type(total) is Decimal and str(total) == "0.3"
    assert tagged('D"0.1" + D"0.2" == D"0.3"', D=mod.D) is True
    assert tagged('dec"1_000.25"', dec=mod.dec) == Decimal("1000.25")
    assert tagged('D"  -0.000 "', D=mod.D).as_tuple() == Decimal("-0.000").as_tuple()
    assert str(tagged('D"-Infinity"', D=mod.D)) == "-Infinity"
    with localcontext() as ctx:
        ctx.prec = 3
        assert tagged('D"3.14159265358979323846"', D=mod.D) == Decimal("3.14159265358979323846")


def test_decimal_interpolations_are_formatted_then_parsed() -> None:
    mod = example("decimal_literal")
    names = {"D": mod.D, "units": 12, "cents": 5, "e": -3, "x": 0.1, "d": Decimal("1.10")}
    assert tagged('D"{units}.{cents:02d}"', **names) == Decimal("12.05")
    assert tagged('D"1e{e}"', **names) == Decimal("0.001")
    assert tagged('D"{x}"', **names) == Decimal("0.1") != Decimal(0.1)
    assert tagged('D"{x:.3f}"', **names).as_tuple() == Decimal("0.100").as_tuple()
    assert tagged('D"{d}"', **names).as_tuple() == Decimal("1.10").as_tuple()
    assert tagged('D"{d * 3}"', **names) == Decimal("3.30")


@pytest.mark.parametrize("text", ["", "abc", "1.2.3", "0x10", "1,5", "{x!r}"])
def test_decimal_invalid_text_is_a_value_error(text: str) -> None:
    mod = example("decimal_literal")
    with pytest.raises(ValueError, match="invalid decimal literal"):
        tagged(f'D"{text}"', D=mod.D, x="1")
    with localcontext() as ctx:
        ctx.traps[InvalidOperation] = False
        with pytest.raises(ValueError, match="invalid decimal literal"):
            tagged(f'D"{text}"', D=mod.D, x="1")


def test_decimal_literal_only_values_are_cached() -> None:
    mod = example("decimal_literal")
    values = tagged('[D"2.5" for _ in range(3)]', D=mod.D)
    assert values[0] is values[1] is values[2]


def test_decimal_main() -> None:
    out = run_main("decimal_literal")
    assert 'D"0.1" + D"0.2" == D"0.3"    -> True\n' in out
    assert "0.1 + 0.2 == 0.3 (float)     -> False\n" in out
    assert "D\"{units}.{cents:02d}\"       -> Decimal('12.05')\n" in out


# -- greet ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        ("pep_abstract", "Hello WORLD!"),
        ("pep_static", "Hello!"),
        ("pep_uppercase", "HELLO!"),
        ("pep_interpolation", "Hello WORLD!"),
        ("pep_pattern_matching", "Hello WORLD nice to meet you!"),
        ("pep_formatting", "Hello gv: World, r: name, c: r, f: s!"),
    ],
)
def test_greet_gives_the_peps_results(function: str, expected: str) -> None:
    assert getattr(example("greet"), function)() == expected


def test_greet_main() -> None:
    out = run_main("greet")
    assert "pep_pattern_matching   'Hello WORLD nice to meet you!'\n" in out
    assert "pep_formatting         'Hello gv: World, r: name, c: r, f: s!'\n" in out


# -- delayed ----------------------------------------------------------------------------


def test_delayed_demo() -> None:
    assert example("delayed").demo() == [
        "Hello World!",
        "Hello Everyone!",
        "tick 001",
        "tick 002",
        "tick 003",
        "[  tick 004]",
        "1 item(s): 'apples'",
        "2 item(s): 'apples, pears'",
        "Delayed\"{len(items)} item(s): {', '.join(items)!r}\"",
    ]


def test_delayed_evaluates_late_and_every_time() -> None:
    mod = example("delayed")
    namespace: dict[str, Any] = {"Delayed": mod.Delayed}
    source = (
        "calls = []\n"
        "def value():\n"
        "    calls.append(1)\n"
        "    return name\n"
        "name = 'World'\n"
        "greeting = Delayed\"Hello {value()}{'!':>2}\"\n"
        "before = len(calls)\n"
        "name = 'Everyone'\n"
    )
    exec(tagstr_runtime.compile(source, "<test>", "exec"), namespace)
    greeting = namespace["greeting"]
    assert namespace["before"] == 0 and namespace["calls"] == []
    assert str(greeting) == "Hello Everyone !"
    namespace["name"] = "again"
    assert f"{greeting}" == "Hello again !"
    assert format(greeting, "*>15") == "**Hello again !"
    assert greeting.freeze() == "Hello again !"
    assert len(namespace["calls"]) == 4
    assert repr(greeting) == "Delayed\"Hello {value()}{'!':>2}\""


def test_delayed_main() -> None:
    out = run_main("delayed").splitlines()
    assert out[:2] == ["Hello World!", "Hello Everyone!"]


# -- through the runner -------------------------------------------------------------------


def _has_runner() -> bool:
    try:
        return all(importlib.util.find_spec(f"tagstr_runtime.{m}") is not None for m in ("__main__", "_runner"))
    except ImportError:
        return False


SCRIPT_OUTPUT = {
    "html": "<p>Hello &lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;!</p>\n",
    "sql": "tables after the tag-string queries: ['users']\n",
    "sh": "output:  [a b][c;d][$e]\n",
    "lazylog": "after debug as arg    the expensive function has run 0 time(s)\n",
    "decimal_literal": 'D"0.1" + D"0.2" == D"0.3"    -> True\n',
    "greet": "pep_formatting         'Hello gv: World, r: name, c: r, f: s!'\n",
    "delayed": "Hello World!\nHello Everyone!\n",
}


@pytest.mark.subprocess
@pytest.mark.skipif(not _has_runner(), reason="python -m tagstr_runtime is not available yet")
@pytest.mark.parametrize("name", NAMES)
def test_example_runs_with_the_runner(name: str) -> None:
    if name == "sh" and not Path("/bin/sh").exists():
        pytest.skip("needs a POSIX /bin/sh")
    if name == "sql" and importlib.util.find_spec("_sqlite3") is None:
        pytest.skip("no sqlite3 in this Python")
    package_root = Path(tagstr_runtime.__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package_root), env.get("PYTHONPATH")]))
    env.pop("PYTHONSTARTUP", None)
    done = subprocess.run(
        [sys.executable, "-m", "tagstr_runtime", f"examples/{name}.py"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert SCRIPT_OUTPUT[name] in done.stdout
    assert done.stdout == run_main(name)
