"""Run-time costs of tag strings, each measured side by side with its baseline.

    python benchmarks/bench_runtime.py [--quick] [--only a,b,c,d,e] [--profile] [--pyodide 3.15]

(a) evaluating ``tag"Hello {name}!"`` vs the same f-string vs the PEP's
    literal desugaring built on every evaluation;
(b) ``tagstr_runtime.compile`` of a generated module with 1,000 tag strings vs
    the builtin ``compile`` of the same module written with plain calls;
(c) importing that module from the import hook's bytecode cache vs importing
    the plain module from its standard pyc;
(d) ``python -c pass`` start-up with vs without ``tagstr_autoload.pth`` and
    ``tagstr_autoload.start``; ``--pyodide 3.15`` measures it on CPython 3.15 in
    Pyodide, where site runs the ``.start`` entry point (PEP 829) instead.
(e) a process importing 200 plain modules (from their pycs) with vs without
    the ``.pth``: time, and file-system calls per module counted by
    ``strace -c`` where it is installed.

Prints a table, then one line ``BENCH_JSON {...}`` with every number.  The
checkout's ``src/`` is benchmarked (it is put first on ``sys.path``), with
the interpreter running this script.  See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import gc
import io
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
sys.path.insert(0, str(SRC))

from compiled_speedups import ensure  # noqa: E402

RUNTIME = ensure()  # the compiled Interpolation constructor, built in src/ where it can be
import tagstr_runtime  # noqa: E402  (after the path set-up, on purpose)
from tagstr_runtime import Decoded, DecodedConcrete, Interpolation, InterpolationConcrete  # noqa: E402

TARGETS = {
    "a_vs_fstring": ("<=", 5.0),
    "a_module_vs_fstring": ("<=", 3.0),
    "a_speedup_vs_literal": (">=", 5.0),
    "b_compile_ratio": ("<=", 2.0),
    "c_import_ratio": ("<=", 1.2),
    "d_added_ms": ("<=", 2.0),
    "e_added_ms": ("<=", 2.0),
    "e_added_syscalls_per_module": ("<=", 0.0),
}


class Settings(NamedTuple):
    repeat: int  # timeit repeats (the minimum is reported)
    target_s: float  # each timeit run lasts about this long
    compile_repeat: int
    import_processes: int  # fresh interpreters per variant for (c)
    import_inner: int  # imports per interpreter for (c)
    startup_runs: int  # interpreter starts per variant for (d)


FULL = Settings(repeat=9, target_s=0.2, compile_repeat=9, import_processes=12, import_inner=20,
                startup_runs=80)
QUICK = Settings(repeat=3, target_s=0.05, compile_repeat=3, import_processes=3, import_inner=5,
                 startup_runs=20)


def verdict(key: str, value: float | None) -> str:
    if value is None:
        return "not measured"
    op, limit = TARGETS[key]
    ok = value <= limit if op == "<=" else value >= limit
    return f"{'OK  ' if ok else 'MISS'} (target {op} {limit:g})"


# -- (a) one evaluation ----------------------------------------------------------------

# The statement runs inside a function, with ``name`` a local, as in timeit's own
# template; the module is compiled by ``tagstr_runtime.compile``, so the tag string
# costs exactly what it costs in a desugared module (table lookups included).
_A_TEMPLATE = '''
def inner(_it, _timer):
    name = "World"
    _t0 = _timer()
    for _i in _it:
        {stmt}
    _t1 = _timer()
    return _t1 - _t0
'''

# The same statement at module level, ``name`` a global: the module's body loops.
_A_MODULE_TEMPLATE = '''
_t0 = _timer()
for _i in _it:
    {stmt}
_t1 = _timer()
'''

#: Timed at module level too (label prefixed "module: ").
A_MODULE_STATEMENTS = ("tag string", "f-string", "empty loop")

A_STATEMENTS = {
    "tag string": 'tag"Hello {name}!"',
    "f-string": 'f"Hello {name}!"',
    "PEP literal desugaring": (
        "tag(DecodedConcrete(r'Hello '), "
        "InterpolationConcrete(lambda: name, 'name', None, None), DecodedConcrete(r'!'))"
    ),
    "empty loop": "pass",
    # where the tag string's time goes (not used in the ratios):
    "  part: tag(3 ready args)": "tag(D1, I1, D2)",
    "  part: closure creation": "lambda: name",
    "  part: closure + 4-tuple": "(lambda: name, 'name', None, None)",
    "  part: Interpolation(...)": "Interpolation((lambda: name, 'name', None, None))",
}


def _tag(*args: object) -> tuple[object, ...]:
    return args


def _timer_for(stmt: str) -> timeit.Timer:
    namespace: dict[str, Any] = {
        "tag": _tag,
        "DecodedConcrete": DecodedConcrete,
        "InterpolationConcrete": InterpolationConcrete,
        "Interpolation": Interpolation,
        "D1": DecodedConcrete("Hello "),
        "D2": DecodedConcrete("!"),
        "I1": Interpolation((str, "name", None, None)),
    }
    code = tagstr_runtime.compile(_A_TEMPLATE.format(stmt=stmt), "<bench-a>", "exec")
    exec(code, namespace)
    timer = timeit.Timer("pass", timer=time.perf_counter)
    timer.inner = namespace["inner"]  # type: ignore[attr-defined]
    return timer


def _module_timer_for(stmt: str) -> timeit.Timer:
    code = tagstr_runtime.compile(_A_MODULE_TEMPLATE.format(stmt=stmt), "<bench-a-module>", "exec")

    def inner(_it: Any, _timer: Callable[[], float]) -> float:
        namespace: dict[str, Any] = {"tag": _tag, "name": "World", "_it": _it, "_timer": _timer}
        exec(code, namespace)
        return float(namespace["_t1"] - namespace["_t0"])

    timer = timeit.Timer("pass", timer=time.perf_counter)
    timer.inner = inner  # type: ignore[attr-defined]
    return timer


def bench_a(settings: Settings) -> dict[str, Any]:
    timers = {label: _timer_for(stmt) for label, stmt in A_STATEMENTS.items()}
    for label in A_MODULE_STATEMENTS:
        timers[f"module: {label}"] = _module_timer_for(A_STATEMENTS[label])
    sample = timers["tag string"].inner(range(1), time.perf_counter)  # type: ignore[attr-defined]
    assert sample >= 0
    # one loop count for all, sized on the slowest statement
    number, _ = timers["PEP literal desugaring"].autorange()
    slow_time = timers["PEP literal desugaring"].timeit(number)
    number = max(1000, int(number * settings.target_s / max(slow_time, 1e-9)))
    best = {label: float("inf") for label in timers}
    for _ in range(settings.repeat):  # interleaved, so drift hits every variant alike
        for label, timer in timers.items():
            best[label] = min(best[label], timer.timeit(number) / number)
    ns = {label: seconds * 1e9 for label, seconds in best.items()}
    return {
        "ns_per_eval": {label: round(value, 1) for label, value in ns.items()},
        "loops": number,
        "a_vs_fstring": ns["tag string"] / ns["f-string"],
        "a_module_vs_fstring": ns["module: tag string"] / ns["module: f-string"],
        "a_speedup_vs_literal": ns["PEP literal desugaring"] / ns["tag string"],
        "a_vs_fstring_minus_loop": (ns["tag string"] - ns["empty loop"])
        / (ns["f-string"] - ns["empty loop"]),
    }


# -- (b) the generated module -----------------------------------------------------------


class Lit(NamedTuple):
    raw: str  # source text of a literal part, braces already collapsed


class Field(NamedTuple):
    expr: str  # as written in the tag string
    plain: str  # the same expression in the plain module
    conv: str | None = None
    spec: str | None = None  # the plain expression giving the format spec, or None


class GeneratedModules(NamedTuple):
    tagged: str
    plain: str
    lines: int
    tag_strings: int


class _PlainWriter:
    """The plain module's ``Dk`` constants, one per distinct literal."""

    def __init__(self) -> None:
        self.constants: dict[tuple[str, str], str] = {}

    def decoded(self, raw: str) -> str:
        key = (str(Decoded(raw)), raw)
        name = self.constants.get(key)
        if name is None:
            name = self.constants[key] = f"D{len(self.constants)}"
        return name

    def call(self, parts: list[Lit | Field]) -> str:
        args: list[str] = []
        pending: list[str] = []
        for part in parts + [Field("", "")]:
            if isinstance(part, Lit):
                pending.append(part.raw)
                continue
            if pending:
                args.append(self.decoded("".join(pending)))
                pending.clear()
            if part.expr:
                spec = "None" if part.spec is None else part.spec
                args.append(f"I((lambda: {part.plain}, {part.expr!r}, {part.conv!r}, {spec}))")
        return f"tag({', '.join(args)})"

    def header(self) -> str:
        lines = [
            "from tagstr_runtime import Decoded, Interpolation as I",
            "_d = Decoded._from_parts  # what the desugared module's table uses: no re-cooking",
        ]
        for (cooked, raw), name in self.constants.items():
            lines.append(f"{name} = _d({cooked!r}, {raw!r})")
        return "\n".join(lines) + "\n"


def _kinds(i: int, writer: _PlainWriter) -> tuple[str, str]:
    """The ``i``-th tag string of the module and its plain call (cycling through 8 kinds)."""
    kind = i % 8
    if kind == 0:  # plain
        tagged = f'tag"Hello {{x}}, row {i}!"'
        parts: list[Lit | Field] = [Lit("Hello "), Field("x", "x"), Lit(f", row {i}!")]
    elif kind == 1:  # conversions
        tagged = 'tag"{x!r} and {y!s} and {z!a}"'
        parts = [Field("x", "x", "r"), Lit(" and "), Field("y", "y", "s"), Lit(" and "),
                 Field("z", "z", "a")]
    elif kind == 2:  # format specs
        tagged = f'tag"value {{x:>10}} / {{y:.3f}} #{i}"'
        parts = [Lit("value "), Field("x", "x", None, "'>10'"), Lit(" / "),
                 Field("y", "y", None, "'.3f'"), Lit(f" #{i}")]
    elif kind == 3:  # nested field in the format spec, expression with a call
        tagged = 'tag"pad {len(items) + w:>{w}} end"'
        parts = [Lit("pad "), Field("len(items) + w", "len(items) + w", None, "f'>{w}'"), Lit(" end")]
    elif kind == 4:  # nested tag string
        inner = writer.call([Lit("inner "), Field("y", "y"), Lit(f" {i}")])
        tagged = f"tag\"outer {{tag'inner {{y}} {i}'}} done\""
        parts = [Lit("outer "), Field(f"tag'inner {{y}} {i}'", inner), Lit(" done")]
    elif kind == 5:  # multi-line, with the debugging form
        tagged = f'tag"""first line {{x}}\n    second line {i}\n    {{y=}}"""'
        parts = [Lit("first line "), Field("x", "x"), Lit(f"\n    second line {i}\n    "),
                 Lit("y="), Field("y", "y", "r")]
    elif kind == 6:  # escaped braces and adjacent fields
        tagged = f'tag"{{{{literal}}}} {{x}}{{y}} {i}"'
        parts = [Lit("{literal} "), Field("x", "x"), Field("y", "y"), Lit(f" {i}")]
    else:  # escapes: cooked text differs from raw
        tagged = 'tag"caf\\u00e9\\t{x!a:^12}\\n"'
        parts = [Lit("caf\\u00e9\\t"), Field("x", "x", "a", "'^12'"), Lit("\\n")]
    return tagged, writer.call(parts)


def generate_modules(tag_strings: int = 1000, per_function: int = 4) -> GeneratedModules:
    writer = _PlainWriter()
    tagged: list[str] = []
    plain: list[str] = []
    for start in range(0, tag_strings, per_function):
        count = min(per_function, tag_strings - start)
        signature = f"def f{start // per_function}(x, y, z, w, items):"
        tagged.append(signature)
        plain.append(signature)
        names = []
        for k in range(count):
            t, p = _kinds(start + k, writer)
            names.append(f"v{k}")
            tagged.append(f"    v{k} = {t}")
            plain.append(f"    v{k} = {p}")
        tagged.append(f"    return {', '.join(names)}")
        plain.append(f"    return {', '.join(names)}")
        tagged.append("")
        plain.append("")
    tagged_text = "\n".join(tagged)
    plain_text = writer.header() + "\n" + "\n".join(plain)
    return GeneratedModules(tagged_text, plain_text, tagged_text.count("\n") + 1, tag_strings)


def _flatten(value: object) -> object:
    """What a ``tag`` returning its args received, as comparable data."""
    if isinstance(value, tuple) and not isinstance(value, Interpolation):
        return tuple(_flatten(item) for item in value)
    if isinstance(value, Decoded):
        return ("D", str(value), value.raw)
    if isinstance(value, Interpolation):
        return ("I", _flatten(value.getvalue()), value.expr, value.conv, value.format_spec)
    return value


def check_equivalent(modules: GeneratedModules) -> None:
    """Both modules give every tag the same arguments (so the comparison is fair)."""
    results = []
    for source, compiler in ((modules.tagged, tagstr_runtime.compile), (modules.plain, compile)):
        namespace: dict[str, Any] = {"__name__": "generated", "tag": _tag}
        exec(compiler(source, "<generated>", "exec"), namespace)
        functions = sorted((k for k in namespace if k.startswith("f") and k[1:].isdigit()),
                           key=lambda k: int(k[1:]))
        results.append([_flatten(namespace[f]("X", 2.5, "é", 3, [1, 2])) for f in functions])
    if results[0] != results[1]:
        first = next(i for i, (a, b) in enumerate(zip(*results)) if a != b)
        raise AssertionError(f"f{first}: tagged {results[0][first]!r} != plain {results[1][first]!r}")


def bench_b(settings: Settings, modules: GeneratedModules, profile: bool) -> dict[str, Any]:
    def ours() -> object:
        return tagstr_runtime.compile(modules.tagged, "gen_tags.py", "exec")

    def builtin() -> object:
        return compile(modules.plain, "gen_plain.py", "exec")

    ours()  # warm up: imports the parser and the desugarer
    best = {"tagstr_runtime.compile": float("inf"), "builtin compile": float("inf")}
    for _ in range(settings.compile_repeat):
        for label, func in (("tagstr_runtime.compile", ours), ("builtin compile", builtin)):
            best[label] = min(best[label], _once(func))
    result: dict[str, Any] = {
        "ms": {label: round(value * 1e3, 2) for label, value in best.items()},
        "lines": modules.lines,
        "tag_strings": modules.tag_strings,
        "plain_lines": modules.plain.count("\n") + 1,
        "b_compile_ratio": best["tagstr_runtime.compile"] / best["builtin compile"],
        "phases_ms": _phases(modules.tagged, settings),
    }
    if profile:
        result["profile"] = _profile(ours)
    return result


def _phases(source: str, settings: Settings) -> dict[str, float]:
    """Where ``tagstr_runtime.compile`` spends its time (internal API; best effort)."""
    try:
        from tagstr_runtime import _desugar
        from tagstr_runtime.syntax import parser as _parser
    except ImportError:
        return {}
    steps: dict[str, Callable[[], object]] = {}
    steps["builtin compile (fails: SPEC 1.8 fast path)"] = lambda: _try_compile(source)
    steps["_parser.parse (find tag strings)"] = lambda: _parser.parse(source, "gen_tags.py")
    result = _parser.parse(source, "gen_tags.py")
    steps["placeholder_text"] = lambda: _desugar.placeholder_text(source, result.tag_strings)
    placeholder = _desugar.placeholder_text(source, result.tag_strings)
    steps["ast.parse of the placeholder source"] = lambda: ast.parse(placeholder)
    steps["Desugaring (all of the above + generation)"] = lambda: _desugar.Desugaring(source, "gen_tags.py")
    tree: Any = _desugar.Desugaring(source, "gen_tags.py").tree
    steps["compile(tree) (AST -> code)"] = lambda: compile(tree, "gen_tags.py", "exec")
    out = {}
    for label, step in steps.items():
        out[label] = round(min(_once(step) for _ in range(max(3, settings.compile_repeat))) * 1e3, 2)
    labels = list(out)
    out["  => generation (Desugaring minus the three above)"] = round(
        out[labels[4]] - out[labels[1]] - out[labels[2]] - out[labels[3]], 2
    )
    return out


def _once(func: Callable[[], object]) -> float:
    """Seconds for one call, the garbage collector left on (unlike timeit): users pay for it."""
    t0 = time.perf_counter()
    result = func()
    elapsed = time.perf_counter() - t0
    del result  # freeing a big tree is not part of the measured step
    return elapsed


def _try_compile(source: str) -> None:
    try:
        compile(source, "gen_tags.py", "exec")
    except SyntaxError:
        pass


def _profile(func: Callable[[], object]) -> str:
    profiler = cProfile.Profile()
    gc.disable()
    try:
        profiler.enable()
        for _ in range(5):
            func()
        profiler.disable()
    finally:
        gc.enable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(18)
    return out.getvalue()


# -- (c) importing from the bytecode cache ----------------------------------------------

_IMPORT_SCRIPT = textwrap.dedent('''
    import importlib, sys, time
    sys.path.insert(0, {src!r})
    import tagstr_runtime._rt, tagstr_runtime._types  # both modules need these: not timed
    if {hook!r}:
        import tagstr_runtime
        tagstr_runtime.install()
    sys.path.insert(0, {folder!r})
    best = float("inf")
    for _ in range({inner}):
        importlib.invalidate_caches()
        sys.modules.pop({name!r}, None)
        t0 = time.perf_counter()
        module = importlib.import_module({name!r})
        t1 = time.perf_counter()
        best = min(best, t1 - t0)
    assert callable(module.f0)
    print(best)
''')


def _has_import_hook() -> bool:
    try:
        from tagstr_runtime import _importhook  # noqa: F401
    except ImportError:
        return False
    return hasattr(tagstr_runtime, "install")


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment minus ``PYTHON*`` settings (``PYTHONDONTWRITEBYTECODE`` would defeat caches)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "TAGSTR_AUTOLOAD"}
    return {**env, **extra}


def _import_time(folder: Path, name: str, hook: bool, inner: int) -> float:
    script = _IMPORT_SCRIPT.format(src=str(SRC), hook=hook, folder=str(folder), name=name, inner=inner)
    env = _clean_env(TAGSTR_AUTOLOAD="0")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          check=False)
    if done.returncode:
        raise RuntimeError(f"importing {name} failed:\n{done.stderr}")
    return float(done.stdout.strip().splitlines()[-1])


def bench_c(settings: Settings, modules: GeneratedModules) -> dict[str, Any]:
    if not _has_import_hook():
        return {"skipped": "tagstr_runtime.install() (the import hook) is not available"}
    with tempfile.TemporaryDirectory(prefix="tagstr-bench-") as tmp:
        folder = Path(tmp)
        (folder / "gen_tags.py").write_text(modules.tagged, encoding="utf-8")
        (folder / "gen_plain.py").write_text(modules.plain, encoding="utf-8")
        # first imports write the caches (and time the cold, desugaring import)
        cold = _import_time(folder, "gen_tags", True, 1)
        _import_time(folder, "gen_plain", False, 1)
        cache = sorted(p.name for p in (folder / "__pycache__").iterdir())
        times: dict[str, list[float]] = {"tagged, hook cache": [], "plain, standard pyc": []}
        for _ in range(settings.import_processes):
            times["tagged, hook cache"].append(_import_time(folder, "gen_tags", True, settings.import_inner))
            times["plain, standard pyc"].append(_import_time(folder, "gen_plain", False, settings.import_inner))
    best = {label: min(values) for label, values in times.items()}
    median = {label: statistics.median(values) for label, values in times.items()}
    return {
        "ms_min": {label: round(v * 1e3, 3) for label, v in best.items()},
        "ms_median": {label: round(v * 1e3, 3) for label, v in median.items()},
        "cold_desugaring_import_ms": round(cold * 1e3, 2),
        "cache_files": cache,
        "c_import_ratio": best["tagged, hook cache"] / best["plain, standard pyc"],
        "c_import_ratio_median": median["tagged, hook cache"] / median["plain, standard pyc"],
    }


# -- (d) interpreter start-up with the .pth and the .start ------------------------------

_PTH = SRC / "tagstr_autoload.pth"
_START = SRC / "tagstr_autoload.start"

# Run in a fresh ``python -S`` interpreter: what ``site`` does at start-up for a
# site-packages folder holding the .pth, timed from inside the process (a process
# start is 10-70 ms with several ms of jitter; this is the part that differs).
# ``-S`` keeps the environment's own .pth files out: one that happens to import
# ``typing`` or ``re`` would hide what our .pth costs in a clean environment.
_ADDSITEDIR_SCRIPT = textwrap.dedent('''
    import site, sys, time
    sys.dont_write_bytecode = False  # Pyodide's default is True; an installed package has its pycs
    {preload}
    hooks, before = len(sys.path_hooks), set(sys.modules)
    t0 = time.perf_counter()
    site.addsitedir({folder!r})
    t1 = time.perf_counter()
    print(t1 - t0, len(sys.path_hooks) - hooks, ",".join(sorted(set(sys.modules) - before)))
''')


def _start(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(args, env=env, check=True, stdout=subprocess.PIPE, text=True)
    return time.perf_counter() - t0, done.stdout


def _site_folders(tmp: Path) -> dict[str, Path]:
    """Site folders, each with a path entry for ``src/``: as the wheel installs the
    start-up files (.pth and .start), with the .pth alone, and with neither."""
    folders = {"installed": [_PTH, _START], "pth": [_PTH], "without": []}
    made = {}
    for name, files in folders.items():
        folder = made[name] = tmp / name
        folder.mkdir()
        (folder / "tagstr-src.pth").write_text(str(SRC) + "\n", encoding="utf-8")
        for file in files:
            shutil.copy(file, folder / file.name)
    return made


def bench_d(settings: Settings, pyodide: str | None = None) -> dict[str, Any]:
    """``pyodide``: a CPython version run in Pyodide (fresh per start; in-process times only)."""
    if not (_PTH.exists() and _START.exists()):
        return {"skipped": f"{_PTH.relative_to(REPO)} or {_START.name} does not exist"}
    env = _clean_env()  # bytecode writing allowed: an installed package has its pycs
    with tempfile.TemporaryDirectory(prefix="tagstr-bench-") as tmp:
        folders = _site_folders(Path(tmp))
        inside = {
            "as installed (.pth + .start)": (folders["installed"], env),
            ".pth alone": (folders["pth"], env),
            "without (path .pth only)": (folders["without"], env),
            "as installed, TAGSTR_AUTOLOAD=0": (folders["installed"], {**env, "TAGSTR_AUTOLOAD": "0"}),
        }
        # 3.15+: site imports pkgutil to resolve any .start entry point; where another
        # package's .start file came first, ours costs only what it imports itself
        preloaded = {"as installed, pkgutil already imported": folders["installed"]}
        if pyodide:
            sys.path.insert(0, str(REPO / "tools"))
            from run_pyodide_tests import pyodide_command

            python = [*pyodide_command(pyodide), "--mount", tmp, "--mount", str(SRC)]
        else:
            python = [sys.executable, "-S"]
        wall = {
            **({} if pyodide else {"python -c pass": ([sys.executable, "-c", "pass"], env)}),
            **{
                f"{label} (wall)": ([*python, "-c", _ADDSITEDIR_SCRIPT.format(folder=str(folder), preload="")], e)
                for label, (folder, e) in inside.items()
            },
            **{
                f"{label} (wall)": (
                    [*python, "-c", _ADDSITEDIR_SCRIPT.format(folder=str(folder), preload="import pkgutil")], env
                )
                for label, folder in preloaded.items()
            },
        }
        for args, e in wall.values():  # warm the OS caches and write the pycs
            _start(args, e)
        times: dict[str, list[float]] = {label: [] for label in [*inside, *preloaded, *wall]}
        report: dict[str, str] = {}
        # a Pyodide start is seconds of node time: fewer, the in-process times vary little
        for _ in range(settings.startup_runs // 4 if pyodide else settings.startup_runs):
            for label, (args, e) in wall.items():
                elapsed, out = _start(args, e)
                times[label].append(elapsed)
                if label.endswith(" (wall)"):
                    seconds, hooks, modules = out.split()[0], out.split()[1], out.split()[2:]
                    times[label[: -len(" (wall)")]].append(float(seconds))
                    report[label[: -len(" (wall)")]] = f"+{hooks} path hook(s); imports: {' '.join(modules) or '-'}"
    median = {label: statistics.median(values) * 1e3 for label, values in times.items()}
    best = {label: min(values) * 1e3 for label, values in times.items()}
    base = median["without (path .pth only)"]
    return {
        "interpreter": f"CPython {pyodide} in Pyodide" if pyodide else f"CPython {sys.version.split()[0]}",
        "ms_median": {label: round(v, 3) for label, v in median.items()},
        "ms_min": {label: round(v, 3) for label, v in best.items()},
        "what_the_pth_does": report,
        "d_added_ms": median["as installed (.pth + .start)"] - base,
        # a Pyodide start is a second or more: its wall clock says nothing of ours
        "d_added_ms_wall": None if pyodide else (
            median["as installed (.pth + .start) (wall)"] - median["without (path .pth only) (wall)"]
        ),
        "d_added_ms_pth_alone": median[".pth alone"] - base,
        "d_added_ms_autoload_off": median["as installed, TAGSTR_AUTOLOAD=0"] - base,
        "d_added_ms_pkgutil_preloaded": median["as installed, pkgutil already imported"] - base,
    }


# -- (e) plain imports with the hook installed ------------------------------------------------

_PLAIN_MODULES = 200
_IMPORTS_SCRIPT = textwrap.dedent('''
    import site, sys, time
    site.addsitedir({folder!r})
    sys.path.insert(0, {modules!r})
    t0 = time.perf_counter()
    for i in range({count}):
        __import__(f"plain_{{i}}")
    print(time.perf_counter() - t0)
''')


def _syscalls(args: list[str], env: dict[str, str]) -> dict[str, int] | None:
    """File-system calls of a process by ``strace -c`` (None without strace)."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    with tempfile.NamedTemporaryFile(prefix="tagstr-strace-", suffix=".txt") as out:
        done = subprocess.run([strace, "-f", "-c", "-e", "trace=%file,read,close", "-o", out.name, *args],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if done.returncode != 0:
            return None
        counts: dict[str, int] = {}
        for line in Path(out.name).read_text().splitlines():
            fields = line.split()
            if len(fields) >= 5 and fields[3].isdigit() and fields[-1] not in ("total", "syscall"):
                counts[fields[-1]] = int(fields[3])
        return counts


def bench_e(settings: Settings) -> dict[str, Any]:
    if not _PTH.exists():
        return {"skipped": f"{_PTH.relative_to(REPO)} does not exist"}
    env = _clean_env()
    with tempfile.TemporaryDirectory(prefix="tagstr-bench-") as tmp:
        folders = _site_folders(Path(tmp))
        with_pth, without = folders["installed"], folders["without"]
        modules = Path(tmp) / "modules"
        modules.mkdir()
        for i in range(_PLAIN_MODULES):
            (modules / f"plain_{i}.py").write_text(f"VALUE = {i}\ndef f(x):\n    return x + VALUE\n")

        def command(folder: Path, count: int) -> list[str]:
            script = _IMPORTS_SCRIPT.format(folder=str(folder), modules=str(modules), count=count)
            return [sys.executable, "-S", "-c", script]

        variants = {"with tagstr_autoload.pth": with_pth, "without": without}
        for folder in variants.values():  # writes the standard pycs: then every import reads one
            _start(command(folder, _PLAIN_MODULES), env)
        times: dict[str, list[float]] = {label: [] for label in variants}
        for _ in range(settings.startup_runs):
            for label, folder in variants.items():
                times[label].append(float(_start(command(folder, _PLAIN_MODULES), env)[1]))
        # per module: (200 imports - none) with the .pth, minus the same without it
        calls = {
            (label, count): _syscalls(command(folder, count), env)
            for label, folder in variants.items() for count in (0, _PLAIN_MODULES)
        }
    median = {label: statistics.median(v) * 1e3 for label, v in times.items()}
    result: dict[str, Any] = {
        "modules": _PLAIN_MODULES,
        "ms_median": {label: round(v, 3) for label, v in median.items()},
        "e_added_ms": median["with tagstr_autoload.pth"] - median["without"],
    }
    if all(found is not None for found in calls.values()):
        def added(label: str) -> dict[str, int]:
            many, none = calls[label, _PLAIN_MODULES], calls[label, 0]
            assert many is not None and none is not None
            return {name: many.get(name, 0) - none.get(name, 0) for name in set(many) | set(none)}

        ours, stock = added("with tagstr_autoload.pth"), added("without")
        extra = {name: ours.get(name, 0) - stock.get(name, 0) for name in sorted(set(ours) | set(stock))}
        result["syscalls_for_the_imports"] = {"with": sum(ours.values()), "without": sum(stock.values())}
        result["extra_syscalls_by_name"] = {name: n for name, n in extra.items() if n}
        result["e_added_syscalls_per_module"] = sum(extra.values()) / _PLAIN_MODULES
    else:
        result["syscalls"] = "strace not available"
    return result


# -- main ------------------------------------------------------------------------------------


def _ratio(label: str, section: dict[str, Any], key: str, unit: str = "x") -> str:
    return f"    {label:<34}{section[key]:>8.2f}{unit:<3}  {verdict(key, section[key])}"


def _aside(label: str, value: float, unit: str = "x") -> str:
    return f"      ({label:<31}{value:>8.2f}{unit})"


def _rows(results: dict[str, Any]) -> Iterator[str]:
    a = results.get("a")
    if a:
        yield "(a) one evaluation, ns (min of repeats, same loop count for all)"
        for label, value in a["ns_per_eval"].items():
            yield f"      {label:<26} {value:>10.1f} ns"
        yield _ratio("tag / f-string, in a function", a, "a_vs_fstring")
        yield _aside("loop overhead removed", a["a_vs_fstring_minus_loop"])
        yield _ratio("tag / f-string, at module level", a, "a_module_vs_fstring")
        yield _ratio("literal desugaring / tag", a, "a_speedup_vs_literal")
    b = results.get("b")
    if b:
        yield (f"(b) compile a {b['lines']}-line module with {b['tag_strings']} tag strings "
               f"(plain equivalent: {b['plain_lines']} lines)")
        for label, value in b["ms"].items():
            yield f"      {label:<26} {value:>10.2f} ms"
        yield _ratio("ratio", b, "b_compile_ratio")
        if b.get("phases_ms"):
            yield "    phases of tagstr_runtime.compile (each timed alone):"
            for label, value in b["phases_ms"].items():
                yield f"      {label:<48} {value:>8.2f} ms"
        if b.get("profile"):
            yield "    cProfile of 5 x tagstr_runtime.compile, by own time:"
            yield textwrap.indent(b["profile"].strip(), "      ")
    c = results.get("c")
    if c:
        if "skipped" in c:
            yield f"(c) import from the bytecode cache: skipped ({c['skipped']})"
        else:
            yield "(c) import from the bytecode cache (fresh interpreters; min / median of per-process minima)"
            for label in c["ms_min"]:
                yield f"      {label:<26} {c['ms_min'][label]:>8.3f} / {c['ms_median'][label]:.3f} ms"
            yield f"      first (desugaring) import  {c['cold_desugaring_import_ms']:>8.2f} ms"
            yield _ratio("ratio", c, "c_import_ratio")
            yield _aside("ratio of medians", c["c_import_ratio_median"])
    d = results.get("d")
    if d:
        if "skipped" in d:
            yield f"(d) start-up with the .pth: skipped ({d['skipped']})"
        else:
            yield f"(d) interpreter start-up on {d['interpreter']}, ms (median / min over fresh interpreters)"
            for label in d["ms_median"]:
                yield f"      {label:<42} {d['ms_median'][label]:>8.3f} / {d['ms_min'][label]:.3f}"
            for label, text in d["what_the_pth_does"].items():
                yield f"      {label}: {text}"
            yield _ratio("added as installed (in-process)", d, "d_added_ms", " ms")
            if d["d_added_ms_wall"] is not None:
                yield _aside("wall clock, whole process", d["d_added_ms_wall"], " ms")
            yield _aside("by the .pth alone", d["d_added_ms_pth_alone"], " ms")
            yield _aside("with TAGSTR_AUTOLOAD=0", d["d_added_ms_autoload_off"], " ms")
            yield _aside("with pkgutil already imported", d["d_added_ms_pkgutil_preloaded"], " ms")
    e = results.get("e")
    if e:
        if "skipped" in e:
            yield f"(e) plain imports with the .pth: skipped ({e['skipped']})"
        else:
            yield f"(e) importing {e['modules']} plain modules from their pycs, ms (median over fresh interpreters)"
            for label, value in e["ms_median"].items():
                yield f"      {label:<42} {value:>8.3f}"
            yield _ratio("added by the hook", e, "e_added_ms", " ms")
            if "e_added_syscalls_per_module" in e:
                calls = e["syscalls_for_the_imports"]
                yield (f"      file-system calls for the imports (strace -c): {calls['with']} with,"
                       f" {calls['without']} without; extra: {e['extra_syscalls_by_name'] or 'none'}")
                yield _ratio("extra calls per module", e, "e_added_syscalls_per_module", "")
            else:
                yield f"      {e['syscalls']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a rough figure in seconds)")
    parser.add_argument("--only", default="a,b,c,d,e", help="comma-separated subset of a,b,c,d,e")
    parser.add_argument("--profile", action="store_true", help="cProfile tagstr_runtime.compile in (b)")
    parser.add_argument("--pyodide", metavar="X.Y", help="run (d) on CPython X.Y in Pyodide under node (3.15: "
                        "the .start path of PEP 829)")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    only = set(args.only.split(","))
    print(f"Python {sys.version.split()[0]} ({sys.executable}), tagstr_runtime {tagstr_runtime.__version__}"
          f"{', --quick' if args.quick else ''}; runtime: {RUNTIME}", flush=True)
    results: dict[str, Any] = {}
    modules = generate_modules()
    if only & {"b", "c"}:
        check_equivalent(modules)
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("a", lambda: bench_a(settings)),
        ("b", lambda: bench_b(settings, modules, args.profile)),
        ("c", lambda: bench_c(settings, modules)),
        ("d", lambda: bench_d(settings, args.pyodide)),
        ("e", lambda: bench_e(settings)),
    ]
    for key, step in steps:
        if key in only:
            results[key] = step()
            for row in _rows({key: results[key]}):
                print(row, flush=True)
    summary = {
        "python": sys.version.split()[0],
        "quick": args.quick,
        **{key: {k: v for k, v in value.items() if k != "profile"} for key, value in results.items()},
        "targets_met": {
            key: verdict(key, _find(results, key)).startswith("OK")
            for key in TARGETS
            if _find(results, key) is not None
        },
    }
    print("BENCH_JSON " + json.dumps(summary, sort_keys=True))
    return 0


def _find(results: dict[str, Any], key: str) -> float | None:
    section = results.get(key[0], {})
    value = section.get(key)
    return float(value) if value is not None else None


if __name__ == "__main__":
    raise SystemExit(main())
