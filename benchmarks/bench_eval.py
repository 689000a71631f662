"""Evaluating a tag string vs its f-string and vs a 3.14 t-string: issue 28's rows, side by side.

    python benchmarks/bench_eval.py [--quick] [--pyodide 3.14] [--no-pyodide] [--repeats N]

Each row times statements in one process, interleaved repeat by repeat (the
garbage collector off, as ``timeit`` does; natively the process's CPU time,
``time.process_time``, so that the load of other processes on a shared
machine does not count), and reports the median over the
repeats of the ratio measured within each repeat (and, beside it, the ratio
of the minima).  ``tag`` is ``def tag(*args): return args``; ``name`` is a
local in a function and a global at module level; every source is compiled
by ``tagstr_runtime.compile`` (standard Python goes to the builtin):

1. ``tag"Hello {name}!"`` in a function vs the native peer
   ``tag(t"Hello {name}!")`` on CPython 3.14 in Pyodide under node (one
   process; ``--pyodide 3.15`` for 3.15, ``--no-pyodide`` to skip);
2. ``tag"Hello {name}!"`` at module level vs ``f"Hello {name}!"``, on the
   interpreter running this script;
3. ``tag"Hello {name}!"`` in a function vs ``f"Hello {name}!"``, on the same;
4. ``tag"Hello {name}!"`` in a function vs its semantic floor (issue 42): the
   call, the closure and the 4-tuple the SPEC asks for and nothing else,
   ``tag(D1, (lambda: name, 'name', None, None), D2)`` with ``D1``, ``D2`` two
   ready ``Decoded``; on the same.

Targets: row 1 <= 2x (issue 42), row 2 <= 3x, row 3 <= 4x (3.12, issue 28),
row 4 <= 1.25x (3.12, issue 42).  Where the compiled ``_speedups`` is
importable (``python hatch_build.py`` builds it in ``src/``) the tag string is
also timed in its pure-Python form (``function: tag string, pure Python``: the
code and table written without it), side by side, for the gain.  Prints a
table, then one line ``BENCH_JSON {...}``.  The checkout's ``src/`` is
benchmarked.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"

TARGETS = {"function_vs_tstring": 2.0, "module_vs_fstring": 3.0, "function_vs_fstring": 4.0, "function_vs_floor": 1.25}

#: Runs in the measured interpreter (native or Pyodide); prints one JSON line.
WORKER = r'''
import ast, gc, itertools, json, sys, time
sys.path.insert(0, {src!r})
import tagstr_runtime
from tagstr_runtime import _rt
from tagstr_runtime._types import Decoded
from tagstr_runtime.desugarer.emit import RuntimeEmitter
from tagstr_runtime.frontend import Desugaring

REPEATS, TARGET_S = {repeats}, {target_s}
clock = getattr(time, {clock!r})
D1, D2 = Decoded("Hello "), Decoded("!")

def tag(*args):
    return args

IN_FUNCTION = """
def inner(_it, _timer):
    name = "World"
    _t0 = _timer()
    for _i in _it:
        {{stmt}}
    return _timer() - _t0
"""
AT_MODULE = """
_t0 = _timer()
for _i in _it:
    {{stmt}}
_t1 = _timer()
"""
STATEMENTS = {{
    "tag string": 'tag"Hello {{name}}!"',
    "f-string": 'f"Hello {{name}}!"',
    "empty loop": "pass",
}}
if sys.version_info >= (3, 14):
    STATEMENTS["t-string, tag(t...)"] = 'tag(t"Hello {{name}}!")'
FLOOR = "tag(D1, (lambda: name, 'name', None, None), D2)"  # call + closure + 4-tuple


def in_function(stmt, pure=False):
    namespace = {{"tag": tag, "D1": D1, "D2": D2, "__name__": "bench"}}
    text = IN_FUNCTION.format(stmt=stmt)
    if pure:  # as without _speedups: the 4-tuple form, and the class as slot 0
        tree = Desugaring(text, "<in-function>", emitter=RuntimeEmitter(compiled=False, salt="pure")).tree
        saved, _rt._by_fields = _rt._by_fields, None
        try:
            exec(compile(tree, "<in-function>", "exec"), namespace)
        finally:
            _rt._by_fields = saved
    else:
        exec(tagstr_runtime.compile(text, "<in-function>", "exec"), namespace)
    inner = namespace["inner"]
    return lambda n: inner(itertools.repeat(None, n), clock)


def at_module(stmt):
    code = tagstr_runtime.compile(AT_MODULE.format(stmt=stmt), "<at-module>", "exec")

    def run(n):
        namespace = {{"tag": tag, "name": "World", "_it": itertools.repeat(None, n),
                     "_timer": clock, "__name__": "bench"}}
        exec(code, namespace)
        return namespace["_t1"] - namespace["_t0"]
    return run


timers = {{}}
for label, stmt in STATEMENTS.items():
    timers["function: " + label] = in_function(stmt)
    if "t-string" not in label:
        timers["module: " + label] = at_module(stmt)
timers["function: floor (call + closure + 4-tuple)"] = in_function(FLOOR)
if _rt.SPEEDUPS:
    timers["function: tag string, pure Python"] = in_function(STATEMENTS["tag string"], pure=True)
slowest = timers["function: tag string"]
slowest(1000)
n = 1000
while slowest(n) < TARGET_S / 4:
    n *= 2
n = max(1000, int(n * TARGET_S / max(slowest(n), 1e-9)))
for run in timers.values():  # warm up (specialisation, caches)
    run(n // 10)
ns = {{label: [] for label in timers}}
gc.disable()
try:
    for _ in range(REPEATS):
        for label, run in timers.items():
            ns[label].append(run(n) / n * 1e9)
finally:
    gc.enable()
print("EVAL_JSON " + json.dumps({{"python": sys.version.split()[0], "loops": n, "clock": {clock!r}, "ns": ns,
                                 "speedups": _rt.SPEEDUPS}}))
'''


def _worker(repeats: int, target_s: float, clock: str) -> str:
    return WORKER.format(src=str(SRC), repeats=repeats, target_s=target_s, clock=clock)


def _parse(stdout: str) -> dict[str, Any]:
    for line in stdout.splitlines():
        if line.startswith("EVAL_JSON "):
            result: dict[str, Any] = json.loads(line[len("EVAL_JSON "):])
            return result
    raise RuntimeError(f"no result from the worker:\n{stdout}")


def run_native(repeats: int, target_s: float) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _worker(repeats, target_s, "process_time")], capture_output=True,
                          text=True, check=False)
    if done.returncode:
        raise RuntimeError(done.stderr)
    return _parse(done.stdout)


def run_pyodide(version: str, repeats: int, target_s: float) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tools"))
    from run_pyodide_tests import pyodide_command

    import os

    cache = os.environ.get("TAGSTR_PYODIDE_CACHE")
    command = pyodide_command(version, Path(cache) if cache else None)
    # one thread, nothing else in the process: its wall clock is its CPU time
    done = subprocess.run([*command, "--mount", str(SRC), "-c", _worker(repeats, target_s, "perf_counter")],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(done.stderr)
    return _parse(done.stdout)


def ratio(result: dict[str, Any], mine: str, other: str) -> dict[str, float]:
    ours, theirs = result["ns"][mine], result["ns"][other]
    return {
        "median_of_ratios": statistics.median(a / b for a, b in zip(ours, theirs)),
        "ratio_of_minima": min(ours) / min(theirs),
    }


def _table(title: str, result: dict[str, Any]) -> list[str]:
    lines = [f"{title}: CPython {result['python']}, time.{result['clock']}, {result['loops']} loops per repeat, "
             f"ns per evaluation (median / min of {len(next(iter(result['ns'].values())))} repeats)"]
    for label, values in result["ns"].items():
        lines.append(f"      {label:<34} {statistics.median(values):>9.1f} / {min(values):.1f}")
    return lines


def _row(label: str, key: str, value: dict[str, float] | None) -> str:
    if value is None:
        return f"    {label:<58} not measured"
    ok = "OK  " if value["median_of_ratios"] <= TARGETS[key] else "MISS"
    return (f"    {label:<58} {value['median_of_ratios']:>6.2f}x  {ok} (target <= {TARGETS[key]:g};"
            f" ratio of minima {value['ratio_of_minima']:.2f}x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    parser.add_argument("--repeats", type=int, help="repeats per statement (default 31, --quick 9)")
    parser.add_argument("--pyodide", default="3.14", metavar="X.Y", help="CPython in Pyodide for row 1 (3.14)")
    parser.add_argument("--no-pyodide", action="store_true", help="skip row 1")
    args = parser.parse_args(argv)
    repeats = args.repeats or (9 if args.quick else 31)
    target_s = 0.004 if args.quick else 0.01
    from compiled_speedups import ensure

    print(f"runtime: {ensure()} (natively; Pyodide always runs the pure-Python one)", flush=True)
    native = run_native(repeats, target_s)
    rows: dict[str, dict[str, float] | None] = {
        "function_vs_tstring": None,
        "module_vs_fstring": ratio(native, "module: tag string", "module: f-string"),
        "function_vs_fstring": ratio(native, "function: tag string", "function: f-string"),
        "function_vs_floor": ratio(native, "function: tag string", "function: floor (call + closure + 4-tuple)"),
    }
    if "function: tag string, pure Python" in native["ns"]:
        rows["compiled_gain"] = ratio(native, "function: tag string, pure Python", "function: tag string")
    pyodide = None
    if not args.no_pyodide:
        pyodide = run_pyodide(args.pyodide, repeats, target_s)
        rows["function_vs_tstring"] = ratio(pyodide, "function: tag string", "function: t-string, tag(t...)")
    for line in _table("native", native):
        print(line)
    if pyodide is not None:
        for line in _table("Pyodide", pyodide):
            print(line)
    print("issue 28 (median over repeats of the ratio within each repeat):")
    print(_row(f"1. tag string in a function / tag(t\"...\"), {pyodide['python'] if pyodide else args.pyodide}"
               " Pyodide", "function_vs_tstring", rows["function_vs_tstring"]))
    print(_row(f"2. module-level tag string / f-string, {native['python']}", "module_vs_fstring",
               rows["module_vs_fstring"]))
    print(_row(f"3. tag string in a function / f-string, {native['python']}", "function_vs_fstring",
               rows["function_vs_fstring"]))
    print(_row(f"4. tag string in a function / its semantic floor, {native['python']}", "function_vs_floor",
               rows["function_vs_floor"]))
    gain = rows.get("compiled_gain")
    print(f"    compiled Interpolation (_speedups): {'on' if native['speedups'] else 'not built'}"
          + (f"; pure Python / compiled, in a function: {gain['median_of_ratios']:.2f}x" if gain else ""))
    print("BENCH_JSON " + json.dumps({"native": native, "pyodide": pyodide, "rows": rows}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
