"""Generated code in every namespace arrangement ``exec`` and ``eval`` allow (issue 30, item 2).

Each case runs three ways in the same arrangement: the tag-string source
through ``tagstr_runtime.compile``, its text form (``desugar()``, stock
Python), and its f-string twin (each ``tag"..."`` written ``tag(f"...")``)
through the builtin ``compile``.  The tag formats what it receives, so the
three agree whenever the tag string works; before the fix the hidden
``__tagstr_*`` names were bound in the locals and every tag string in a
``def``, a lambda or a class body raised ``NameError`` with separate locals.

The interpolations read names of the globals or of a function: an
interpolation is a lambda (SPEC 3), and a lambda never sees the locals of
``exec(code, g, l)``, as it never sees a class body.
``test_top_level_locals_are_invisible_to_interpolations`` shows that rule
against the PEP's own desugaring, with lambdas.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections import UserDict
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]


_CONVERT: dict[str | None, Callable[[object], object]] = {"r": repr, "s": str, "a": ascii}


def tag(*args: object) -> str:
    """The formatted string: the same for a tag string and for its f-string twin (one ``str``)."""
    out = []
    for arg in args:
        if isinstance(arg, Decoded) or type(arg) is str:
            out.append(str(arg))
        else:
            assert isinstance(arg, Interpolation)
            value = _CONVERT.get(arg.conv, lambda v: v)(arg.getvalue())
            out.append(format(value, arg.format_spec or ""))
    return "".join(out)


_MARK = re.compile(r"«('|\")([^«»]*?)\1»")


def written(template: str, form: str) -> str:
    """``«"..."»`` marks a tag string (innermost first): as a tag string or as its f-string twin."""
    while True:
        done = _MARK.sub(
            lambda m: f"tag{m[1]}{m[2]}{m[1]}" if form == "tag" else f"tag(f{m[1]}{m[2]}{m[1]})", template
        )
        if done == template:
            return done
        template = done


def compiled(template: str, form: str, mode: str) -> Any:
    if form == "twin":
        return compile(written(template, "twin"), "<twin>", mode, dont_inherit=True)
    source = written(template, "tag")
    if form == "text":
        return compile(tagstr_runtime.desugar(source), "<text>", mode, dont_inherit=True)
    return tagstr_runtime.compile(source, "<tagged>", mode, dont_inherit=True)


#: Statements binding ``r``; ``G`` is a name of the globals.
EXEC_CASES = {
    "module": 'r = «"m {G}"»',
    "def": 'def f(y):\n    return «"d {y} {G}"»\nr = f(1)',
    "def-globals-only": 'def f():\n    return «"h {G!r:>6}"»\nr = f()',
    "lambda": 'f = lambda y: «"l {y}"»\nr = f(2)',
    "class-body": 'class C:\n    v = «"c {G}"»\nr = C.v',
    "method": 'class C:\n    def m(self, y):\n        return «"m {y} {G}"»\nr = C().m(3)',
    "lambda-in-class-body": 'class C:\n    v = (lambda y: «"cl {y}"»)(4)\nr = C.v',
    "nested-def": 'def outer(y):\n    def inner():\n        return «"n {y}"»\n    return inner()\nr = outer(5)',
    "comprehension": 'r = [«"c {y} {G}"» for y in (1, 2)]',
    "nested-tag-string": 'def f(y):\n    return «"o {«\'i {y} {G}\'»}"»\nr = f(6)',
    "generator": 'def g(ys):\n    for y in ys:\n        yield «"g {y}"»\nr = list(g((1, 2)))',
    "class-in-def": 'def f():\n    class K:\n        v = «"k {G}"»\n    return K.v\nr = f()',
    "format-spec-field": 'def f(y, w):\n    return «"s {y:>{w}}|"»\nr = f(7, 4)',
    # evaluated where they stand before 3.14, lazily in their own scope (PEP 649) from 3.14
    "annotations": 'def f(y) -> «"ret {G}"»:\n    return y\nr = f.__annotations__["return"]',
    "class-annotations": 'class C:\n    a: «"ann {G}"» = 1\nr = C.__annotations__["a"]',
    "decorator-and-default": (
        'def deco(fn):\n    return lambda: fn() + «"@"»\n'
        '@deco\ndef f(d=«"default {G}"»):\n    return d\nr = f()'
    ),
}

#: Expressions.
EVAL_CASES = {
    "top-level": '«"e {G}"»',
    "lambda": '(lambda y: «"l {y}"»)(1)',
    "comprehension": '[«"c {y}"» for y in (1, 2)]',
    "nested-tag-string": '(lambda y: «"o {«\'i {y}\'»}"»)(2)',
    "lambda-comprehension": '(lambda: [«"n {y} {G}"» for y in (3,)])()',
}


def _globals() -> dict[str, Any]:
    return {"tag": tag, "G": "g"}


#: name -> run(code, mode) -> the value of ``r`` (exec) or of the expression (eval)
ARRANGEMENTS: dict[str, Callable[[Any, str], Any]] = {}


def arrangement(function: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    ARRANGEMENTS[function.__name__.removeprefix("run_")] = function
    return function


@arrangement
def run_one_dict(code: Any, mode: str) -> Any:
    g = _globals()
    if mode == "exec":
        exec(code, g)
        return g["r"]
    return eval(code, g)


@arrangement
def run_separate_locals(code: Any, mode: str) -> Any:
    g, loc = _globals(), {}
    if mode == "exec":
        exec(code, g, loc)
        return loc["r"]
    return eval(code, g, loc)


@arrangement
def run_mapping_locals(code: Any, mode: str) -> Any:
    g, loc = _globals(), UserDict[str, Any]()
    if mode == "exec":
        exec(code, g, loc)
        return loc["r"]
    return eval(code, g, loc)


@arrangement
def run_class_body(code: Any, mode: str) -> Any:
    """``exec``/``eval`` with default namespaces in a class body: the module's
    globals (this module's: ``tag`` and ``G`` are bound there) and the class namespace."""
    if mode == "exec":
        class Holder:
            exec(code)
        return vars(Holder)["r"]

    class Holder2:
        value = eval(code)
    return Holder2.value


@arrangement
def run_function_body(code: Any, mode: str) -> Any:
    """With default namespaces in a function: its globals and a snapshot of its locals."""
    def body() -> Any:
        y = "unused local"  # noqa: F841 - the snapshot has it
        if mode == "exec":
            snapshot: MutableMapping[str, Any] = {}
            exec(code, globals(), snapshot)
            return snapshot["r"]
        return eval(code)
    return body()


@arrangement
def run_nested_exec(code: Any, mode: str) -> Any:
    """Code that itself runs the code with separate namespaces, run with separate namespaces."""
    outer = compile(
        "def run():\n    inner_l = {}\n"
        + ("    exec(CODE, dict(BASE), inner_l)\n    return inner_l['r']\n" if mode == "exec"
           else "    return eval(CODE, dict(BASE), inner_l)\n")
        + "r = run()\n",
        "<outer>", "exec",
    )
    g: dict[str, Any] = {"CODE": code, "BASE": _globals()}
    loc: dict[str, Any] = {}
    exec(outer, g, loc)
    return loc["r"]


G = "g"  # for the class-body and function-body arrangements, which run in this module's globals


def outcome(run: Callable[[Any, str], Any], code: Any, mode: str) -> object:
    try:
        return run(code, mode)
    except Exception as exc:  # compared with the twin's
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("where", ARRANGEMENTS)
@pytest.mark.parametrize("case", EXEC_CASES)
def test_exec(case: str, where: str) -> None:
    template, run = EXEC_CASES[case], ARRANGEMENTS[where]
    expected = outcome(run, compiled(template, "twin", "exec"), "exec")
    assert not str(expected).startswith(("NameError", "TypeError")), expected
    assert outcome(run, compiled(template, "tag", "exec"), "exec") == expected
    assert outcome(run, compiled(template, "text", "exec"), "exec") == expected


@pytest.mark.parametrize("where", ARRANGEMENTS)
@pytest.mark.parametrize("case", EVAL_CASES)
def test_eval(case: str, where: str) -> None:
    template, run = EVAL_CASES[case], ARRANGEMENTS[where]
    expected = outcome(run, compiled(template, "twin", "eval"), "eval")
    assert not str(expected).startswith(("NameError", "TypeError")), expected
    assert outcome(run, compiled(template, "tag", "eval"), "eval") == expected
    assert outcome(run, compiled(template, "text", "eval"), "eval") == expected


def test_exec_mode_code_run_by_eval() -> None:
    """``eval`` also runs ``exec``-mode code objects."""
    g, loc = _globals(), {}
    eval(compiled(EXEC_CASES["method"], "tag", "exec"), g, loc)
    assert loc["r"] == "m 3 g"


def test_single_mode_with_separate_locals() -> None:
    """The interactive mode (a console, ``pdb``'s commands) puts the prologue in the statement."""
    g, loc = _globals(), {}
    exec(compiled('def f(y): return «"s {y}"»\n', "tag", "single"), g, loc)
    exec(compiled('r = f(8)', "tag", "single"), g, loc)
    assert loc["r"] == "s 8"


def test_hidden_names_stay_out_of_the_locals() -> None:
    """With separate locals the generated names go to the globals: a class body
    that runs ``exec`` keeps only its own attributes, and the locals only the user's names."""
    g, loc = _globals(), {}
    exec(compiled(EXEC_CASES["def-globals-only"], "tag", "exec"), g, loc)
    assert sorted(loc) == ["f", "r"]
    assert any(name.startswith("__tagstr") for name in g)

    class Holder:
        exec(compiled('v = «"x {G}"»\ndef m(self):\n    return «"m {self.v}"»', "tag", "exec"))

    assert Holder().m() == "m x g"
    assert not [name for name in vars(Holder) if name.startswith("__tagstr")]


def test_top_level_locals_are_invisible_to_interpolations() -> None:
    """An interpolation is a lambda: with separate locals it reads the globals,
    exactly as the PEP's desugaring with a lambda does (the f-string twin, eager,
    would see the locals)."""
    source = 'y = "local"\nr = «"{y}"»'
    pep = 'y = "local"\nr = tag(Decoded("", raw=""), Interpolation((lambda: y, "y", None, None)))'
    names = {**_globals(), "Decoded": Decoded, "Interpolation": Interpolation}
    results = [
        outcome(lambda c, m: exec(c, dict(names), {}), code, "exec")
        for code in (compiled(source, "tag", "exec"), compile(pep, "<pep>", "exec"))
    ]
    assert results[0] == results[1] == "NameError: name 'y' is not defined"


@pytest.mark.subprocess
def test_exec_with_separate_namespaces_under_the_runner(tmp_path: Path) -> None:
    """User code that compiles a tag-string source with the builtin ``compile``
    (replaced under ``python -m tagstr_runtime``) and runs it with separate namespaces."""
    script = tmp_path / "app.py"
    script.write_text(textwrap.dedent('''
        def tag(*args):
            return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)
        SOURCE = """
        def f(y):
            return tag"f {y}"
        class C:
            v = tag"c {len('ab')}"
            def m(self):
                return tag"m {self.v}"
        r = [f(1), C.v, C().m(), (lambda q: tag"l {q}")(2)]
        """
        g, l = {"tag": tag}, {}
        exec(compile(SOURCE, "<src>", "exec"), g, l)
        print(l["r"])
        print(eval(compile('(lambda q: tag"e {q}")(3)', "<e>", "eval"), g, {}))
    '''), encoding="utf-8")
    env = {"PYTHONPATH": str(SRC), "TAGSTR_AUTOLOAD": "0", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "tagstr_runtime", str(script)], capture_output=True,
                          text=True, env=env, timeout=60, check=False)
    assert done.stderr == ""
    assert done.stdout.splitlines() == ["['f 1', 'c 2', 'm c 2', 'l 2']", "e 3"]
