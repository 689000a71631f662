"""Hoisting (``desugarer.emit.RuntimeEmitter``): an Interpolation that is the same at every
evaluation is built once per module, and nothing observable changes but speed."""

from __future__ import annotations

import ast
import sys
import traceback
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime.desugarer.desugaring import Desugaring
from tagstr_runtime.desugarer.emit import RuntimeEmitter

PRELUDE = "def tag(*args): return args\nname = 'W'\n"


def compiled(src: str, hoist: bool = True) -> Any:
    tree = Desugaring(src, "<hoist>", "exec", emitter=RuntimeEmitter(hoist=hoist)).tree
    return compile(tree, "<hoist>", "exec")


def run(src: str, hoist: bool = True) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compiled(PRELUDE + src, hoist), namespace)
    return namespace


def hoisted(expr_src: str) -> bool:
    """Whether the last statement's tag string (``r = ...``) gets the same
    Interpolation object at two evaluations: the observable effect of hoisting."""
    ns = run(expr_src + "\nfirst, second = again(), again()\n")
    first, second = ns["first"], ns["second"]
    interpolations = [a for a in first if isinstance(a, tagstr_runtime.Interpolation)]
    same = [a is b for a, b in zip(first, second) if isinstance(a, tagstr_runtime.Interpolation)]
    assert interpolations and len(set(same)) == 1
    return same[0]


@pytest.mark.parametrize(
    "src, expected",
    [
        ("again = lambda: tag'{name}'", False),  # inside a lambda: never
        ("def again(): return tag'{name}'", True),  # a global read in a function
        ("def again(): return tag'{name!r:>9}'", True),  # constant spec
        ("def again(p=1): return tag'{p}'", False),  # a parameter
        ("def again(): return tag'{name:{name}}'", False),  # spec not constant
        ("def again():\n    (name := 1)\n    return tag'{name}'", False),  # walrus
        ("def again():\n    import os as name\n    return tag'{name}'", False),
        ("def again():\n    def g(): return tag'{name}'\n    return g()", True),
        ("def again():\n    name = 2\n    def g(): return tag'{name}'\n    return g()", False),
        # bound in a nested function only: not a local where the tag string stands
        ("def again():\n    def g():\n        name = 2\n    return tag'{name}'", True),
        ("def again():\n    return [tag'{name}' for _ in 'x'][0]", False),  # comprehension
        ("def again():\n    class C:\n        v = tag'{name}'\n    return C.v", False),  # class body
        ("def again(): return tag'{tag\"{name}\"}'", True),  # outer one
    ],
)
def test_which_are_hoisted(src: str, expected: bool) -> None:
    assert hoisted(src) is expected


def test_module_level_is_hoisted_and_nested_is_not() -> None:
    ns = run("def again(): return r\nr = tag'{name} {tag\"{name}\"}'\n")
    outer = ns["r"][2]
    assert ns["again"]()[2] is outer
    inner = outer.getvalue()[0]
    assert inner is not outer.getvalue()[0]  # the nested tag string builds a fresh one


def test_late_binding_holds_for_hoisted() -> None:
    ns = run("def again(): return tag'{name}'\n")
    first = ns["again"]()
    assert first[0].getvalue() == "W"
    ns["name"] = "X"
    second = ns["again"]()
    assert second[0] is first[0] and second[0].getvalue() == "X"
    del ns["name"]
    with pytest.raises(NameError):
        ns["again"]()[0].getvalue()


def test_traceback_from_hoisted_getvalue_points_at_original_line() -> None:
    ns = run("x = 0\n\n\n\nr = tag'{1 / x}'\n")
    with pytest.raises(ZeroDivisionError) as info:
        ns["r"][0].getvalue()
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.name, frame.lineno) == ("<lambda>", 7)  # 2 prelude lines + 5
    assert (frame.colno, frame.end_colno) == (9, 14)  # 3.11+ carets: '1 / x'


def test_hoisted_line_is_not_traced_as_run_at_import() -> None:
    """A line tracer (coverage) must not see a tag string's line run before it is."""
    code = compiled(PRELUDE + "if name == 'never':\n    r = tag'{name}'\n")
    lines: set[int] = set()

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename == "<hoist>" and event == "line":
            lines.add(frame.f_lineno)
        return tracer

    sys.settrace(tracer)
    try:
        exec(code, {})
    finally:
        sys.settrace(None)
    assert 3 in lines and 4 not in lines


SAMPLE = '''
import sys
seen = []
def show(*args):
    return [a if isinstance(a, str) else (a.getvalue(), a.expr, a.conv, a.format_spec)
            for a in args]
def f(p, *, k=3):
    return show"{p} {name!r:>5} {len(name)} {k}"
class C:
    v = show"{name}"
out = [f(1), C.v, show"{name} {[i for i in range(2)]} {sys.version_info[0]}"]
out.append([show"{i} {name}" for i in range(2)])
name = "changed"
out.append(f(2))
try:
    show"{undefined}"
except NameError as error:
    out.append(str(error))
'''


def test_same_module_runs_identically_hoisted_or_not() -> None:
    results = [run(SAMPLE, hoist)["out"] for hoist in (True, False)]
    assert results[0] == results[1]
    assert results[0][-2][2][0] == "changed"


@pytest.mark.parametrize("opening", ["while True:\n", "if name:\n", "for _ in 'x':\n", "with open(__file__):\n"])
def test_a_module_opening_a_block_on_line_1_hoists_nothing(opening: str) -> None:
    """Hoisted lambdas are made (and, before 3.13, return) on line 1: there they
    would read as runs of that block's branches to a line tracer (coverage)."""
    src = opening + "    def tag(*args): return args\n    r = tag'{len}'\n"
    if opening.startswith("while"):
        src += "    break\n"
    tree = Desugaring(src, "<h>", "exec", emitter=RuntimeEmitter()).tree
    assert "_h1__" not in ast.unparse(tree)
    assert "_h1__" in ast.unparse(Desugaring("\n" + src, "<h>", "exec", emitter=RuntimeEmitter()).tree)


def test_eval_mode_and_no_hoist_build_nothing_extra() -> None:
    tree = Desugaring(PRELUDE + "r = tag'{name}'\n", "<h>", "exec",
                      emitter=RuntimeEmitter(hoist=False)).tree
    assert "__tagstr_h1__" not in ast.unparse(tree)
    assert tagstr_runtime.compile("tag'{name}'", "<e>", "eval") is not None
