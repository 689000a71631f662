"""What reading tag-string modules costs ``inspect.getsourcelines`` (issue 30), side by side.

    python benchmarks/bench_inspect.py [--lines N] [--repeat N]

(a) every function of a typical tag-string module (``typical_module.py``,
    imported through the import hook) against the same functions of its
    f-string twin: ``getsourcelines`` of each, the two runs interleaved,
    median of the ratios.  The first call of each module is timed alone
    first (``linecache`` reading the file, and for the tag strings the first
    block masked as far as it goes).
(b) every function of stdlib modules without tag strings, with
    ``inspect.getblock`` as the runtime installs it against the stock one,
    in a process that runs tag strings: target 1.0x (the stock answer).

Prints a table, then one line ``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import tagstr_runtime  # noqa: E402
import typical_module  # noqa: E402
from tagstr_runtime.run import inspect_source as _inspect_source  # noqa: E402


def functions(module: ModuleType) -> list[Any]:
    found = []
    for value in vars(module).values():
        if inspect.isfunction(value):
            found.append(value)
        elif inspect.isclass(value):
            found.extend(v for v in vars(value).values() if inspect.isfunction(v))
    return [f for f in found if f.__code__.co_filename == module.__file__]


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def each(funcs: list[Any]) -> Callable[[], None]:
    def run() -> None:
        for function in funcs:
            inspect.getsourcelines(function)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    tagstr_runtime.install()
    folder = Path(tempfile.mkdtemp())
    tags_path, twin_path = typical_module.write_module_pair(folder, lines=args.lines)
    sys.path.insert(0, str(folder))
    tags, twin = importlib.import_module(tags_path.stem), importlib.import_module(twin_path.stem)
    ours, theirs = functions(tags), functions(twin)
    inspect.getsourcelines(json.dumps)  # the imports getsourcelines makes, before either is timed
    first = (timed(lambda: inspect.getsourcelines(ours[len(ours) // 2])),
             timed(lambda: inspect.getsourcelines(theirs[len(theirs) // 2])))
    module_ratios = [timed(each(ours)) / timed(each(theirs)) for _ in range(args.repeat)]

    stock: Callable[..., Any] = getattr(inspect.getblock, "__wrapped__", inspect.getblock)
    patched = _inspect_source._reading_tag_strings(stock)
    plain = [f for name in ("typing", "argparse", "inspect") for f in functions(importlib.import_module(name))]

    def with_getblock(getblock: Callable[..., Any]) -> float:
        inspect.getblock = getblock
        return timed(each(plain))

    plain_ratios = [with_getblock(patched) / with_getblock(stock) for _ in range(args.repeat)]
    inspect.getblock = patched  # type: ignore[assignment]
    result: dict[str, Any] = {
        "python": sys.version.split()[0],
        "functions": len(ours),
        "first_call_ms": [round(first[0] * 1000, 2), round(first[1] * 1000, 2)],
        "tag_module_over_twin": round(statistics.median(module_ratios), 3),
        "plain_functions": len(plain),
        "plain_patched_over_stock": round(statistics.median(plain_ratios), 3),
    }
    print(f"Python {result['python']}, {args.lines}-line module pair, {len(ours)} functions")
    print(f"(a) first getsourcelines: tag module {result['first_call_ms'][0]} ms, twin {result['first_call_ms'][1]} ms")
    print(f"(a) getsourcelines of every function, tag module / twin: {result['tag_module_over_twin']}x (median)")
    print(f"(b) {len(plain)} stdlib functions, getblock as installed / stock: "
          f"{result['plain_patched_over_stock']}x (median)")
    print("BENCH_JSON " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
