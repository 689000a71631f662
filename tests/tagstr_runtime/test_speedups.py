"""The optional compiled constructor (``_speedups``) against the pure-Python reference.

``_speedups.interpolation_factory(Interpolation)`` must build exactly what
calling the class builds; generated code written for it (``_rt.fields_table``:
four arguments) and for the class (``_rt.table``: one 4-tuple) must run the
same programs the same way.  The differential test runs one program twice, in
fresh interpreters, with the compiled module and with ``TAGSTR_PURE_PYTHON=1``,
and compares everything it prints.  Skipped where the module is not built
(Pyodide; an environment without a C compiler): there the pure path is the
only one, and every other test runs it.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import Interpolation, InterpolationConcrete
from tagstr_runtime import _rt
from tagstr_runtime.desugarer.emit import RuntimeEmitter
from tagstr_runtime.frontend import Desugaring

try:
    from tagstr_runtime import _speedups
except ImportError:  # not built here: the pure-Python runtime is the only one
    _speedups = None  # type: ignore[assignment]

needs_speedups = pytest.mark.skipif(_speedups is None, reason="tagstr_runtime._speedups is not built here")
SRC = Path(tagstr_runtime.__file__).resolve().parents[1]


def getvalue() -> int:  # module level: picklable
    return 42


@needs_speedups
@pytest.mark.parametrize("fields", [
    (getvalue, "x", None, None), (getvalue, "x + 1", "r", ">3"), (len, "", "a", ""), ("not callable", "e", "s", None),
])
def test_the_compiled_constructor_builds_what_the_class_builds(fields: tuple[Any, ...]) -> None:
    build = _speedups.interpolation_factory(Interpolation)
    made, by_tuple, reference = build(*fields), build(fields), Interpolation(fields)
    for value in (made, by_tuple):
        assert type(value) is Interpolation and isinstance(value, tuple)
        assert value == reference and tuple(value) == fields and len(value) == 4
        assert hash(value) == hash(reference) == hash(fields)  # (3.14+: the cached hash starts unset)
        assert repr(value) == repr(reference)
        assert (value.getvalue, value.expr, value.conv, value.format_spec) == fields
        with pytest.raises(AttributeError, match="immutable"):
            value.expr = "y"  # type: ignore[misc]
        match value:
            case Interpolation(g, e, c, s):
                assert (g, e, c, s) == fields
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    if callable(fields[0]) and fields[0] is getvalue:
        assert pickle.loads(pickle.dumps(made)) == made


@needs_speedups
def test_anything_but_a_4_tuple_goes_to_the_class() -> None:
    build = _speedups.interpolation_factory(Interpolation)
    assert build([getvalue, "x", None, None]) == Interpolation([getvalue, "x", None, None])  # any iterable
    assert build((1, 2)) == Interpolation((1, 2))  # the class does not check lengths either
    with pytest.raises(TypeError):
        build(1, 2)
    with pytest.raises(TypeError):
        build(getvalue, "x", None, None, None)
    with pytest.raises(TypeError):
        build(fields=(1, 2, 3, 4))


@needs_speedups
def test_the_factory_takes_only_plain_tuple_subclasses() -> None:
    class WithDict(tuple):  # type: ignore[type-arg]
        pass

    class WithNew(tuple):  # type: ignore[type-arg]
        __slots__ = ()

        def __new__(cls, *args: object) -> WithNew:
            return tuple.__new__(cls, args)

    for cls in (WithDict, WithNew, InterpolationConcrete, list, int):
        if cls is InterpolationConcrete:
            continue  # a __new__ of its own, checked below
        with pytest.raises(TypeError, match="tuple subclass"):
            _speedups.interpolation_factory(cls)
    with pytest.raises(TypeError, match="tuple subclass"):
        _speedups.interpolation_factory(InterpolationConcrete)
    assert _speedups.ABI == _rt.SPEEDUPS >= 1


def test_each_table_serves_its_form_whatever_is_built() -> None:
    """Code of either form runs in either kind of process (the fingerprint keeps their caches apart)."""
    one = _rt.table(("a",))[0]((getvalue, "x", None, None))
    four = _rt.fields_table(("a",))[0](getvalue, "x", None, None)
    assert type(one) is type(four) is Interpolation and one == four
    assert _rt._interpolation_of_fields(getvalue, "x", None, None) == one


def test_the_emitter_writes_the_form_of_the_process() -> None:
    source = "def f(x):\n    return tag'a{x}b'\n"
    forms = {}
    for compiled in (True, False):
        tree = Desugaring(source, "<f>", emitter=RuntimeEmitter(compiled=compiled, salt="s")).tree
        forms[compiled] = __import__("ast").unparse(tree)
    assert "import fields_table as __tagstr__" in forms[True]
    assert "__tagstr_s_0__(lambda: x, 'x', None, None)" in forms[True]
    assert "import table as __tagstr__" in forms[False]
    assert "__tagstr_s_0__((lambda: x, 'x', None, None))" in forms[False]
    default = __import__("ast").unparse(Desugaring(source, "<f>").tree)
    assert ("fields_table" in default) == bool(_rt.SPEEDUPS)


PROGRAM = r'''
import sys, traceback

def tag(*args):
    return args

def show(args):
    return [(type(a).__name__, str(a)) if isinstance(a, str) else
            (type(a).__name__, a.getvalue(), a.expr, a.conv, a.format_spec) for a in args]

x, w = 7, 5
module_level = tag"<p>{x!r:>{w}}</p>{len('ab')}"

def in_function(name, items):
    first = tag"Hello {name}! {items[0]=} {name.upper():>8}"
    second = tag"Hello {name}! {items[0]=} {name.upper():>8}"
    shown = show(first)
    fresh = all(a is not b and a[0] is not b[0] for a, b in zip(first, second) if isinstance(a, tuple))
    same_text = all(a is b for a, b in zip(first, second) if isinstance(a, str))
    return shown, fresh, same_text, sorted(locals())

def nested(v):
    return tag"outer {tag'inner {v}'}"

def fails():
    return tag"{1 / 0}"

print(show(module_level))
print(in_function("ann", [3]))
print([show(a.getvalue()) if isinstance(a, tuple) else str(a) for a in nested(4)])
try:
    fails()[0].getvalue()
except ZeroDivisionError:
    tb = traceback.extract_tb(sys.exc_info()[2])[-1]
    print("traceback", tb.lineno, tb.colno, tb.end_colno, tb.line)
field = module_level[1]
print(type(field).__name__, field == field, hash(field) == hash(tuple(field)))
'''


@needs_speedups
@pytest.mark.subprocess
def test_a_program_runs_the_same_with_and_without_the_compiled_constructor(tmp_path: Path) -> None:
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env.update(PYTHONPATH=str(SRC), TAGSTR_AUTOLOAD="0")
    script = ("import sys, tagstr_runtime; tagstr_runtime.install(); from tagstr_runtime import _rt; "
              "print('speedups', bool(_rt.SPEEDUPS)); import program")
    outputs = {}
    for pure in ("0", "1", "1", "0"):  # each twice: from the source, then from its own cache
        done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path,
                              env={**env, "TAGSTR_PURE_PYTHON": pure}, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == f"speedups {pure == '0'}"
        outputs.setdefault(pure, []).append(lines[1:])
    compiled, pure_python = outputs["0"], outputs["1"]
    assert compiled[0] == compiled[1] == pure_python[0] == pure_python[1]
    # fresh closures and Interpolations, shared Decoded, no hidden local
    assert compiled[0][1].endswith("True, True, ['first', 'fresh', 'items', 'name', 'same_text', 'second', 'shown'])")
    line = PROGRAM.splitlines().index('    return tag"{1 / 0}"') + 1
    assert compiled[0][3] == f"traceback {line} 16 21 return tag\"{{1 / 0}}\""  # the field's own position
    caches = sorted(p.name for p in (tmp_path / "__pycache__").iterdir() if p.name.startswith("program."))
    assert len(caches) == 2 and all(".tagstr-" in name for name in caches)  # one per form of code
