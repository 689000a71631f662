"""What the flake8 plugin costs, each figure side by side with its baseline in one run.

    python benchmarks/bench_flake8.py [--quick] [--only a,b,c] [--codebase PATH] [--repeat N]

(a) flake8 with vs without the plugin on a large real codebase without tag
    strings (by default the installed ``libcst`` package, which the plugin's
    ``flake8`` extra installs from PyPI; ``--codebase`` names another folder).
    Target: at most 3% slower (SPEC 1.8: files that parse are untouched).
(b) flake8 with the plugin on a generated corpus dense with tag strings vs the
    same corpus hand-desugared (every tag string written as the explicit call
    ``tag(Decoded(...), Interpolation(lambda: e, 'e', None, None), ...)``),
    both generated from one seed.  Target: at most 15% slower.
(d) what an editor or pre-commit pays on every save: flake8 on ONE plain file
    (``rich/console.py``) with the project installed vs not installed.
    Target: at most 1.03x (importing the plugin must cost next to nothing).
(e) flake8 on a plain package (``rich``, ``--jobs 1``) with the project
    installed vs not installed.  Target: at most 1.02x.
    (d) and (e) run in one interleaved loop (which of the two variants
    goes first alternates); each ratio is the median, over the pairs, of the
    flake8 process's CPU seconds with over without.  ``rich`` is the wheel
    pip downloads (as ``bench_mypy.py`` does); ``--plain DIR`` names another
    package folder and ``--plain-file`` a file in it.
(c) one ~9,000-line module of typical html/sql tag strings
    (``typical_module.py``) vs its f-string twin (each ``tag"..."`` written
    ``tag(f"...")``: what users would otherwise write), with flake8's default
    selection and with every TAG rule on as well (``--extend-select=TAG``:
    the default selection plus the off-by-default TAG codes).  Time and peak
    memory (the flake8 process's maximum resident set size) of the tag-string
    module over its twin; the time ratio is the median, over the repeats, of
    the ratio of the flake8 process's CPU seconds (user + system, which a busy
    machine disturbs far less than the wall clock) in that repeat; the ratio
    of the minima and the wall-clock ones are printed beside it.  Targets:
    defaults at most 1.2x the time; every TAG rule on at most 1.5x the time
    and 1.5x the memory.

"Without the plugin" is the same flake8 in the same environment with the
plugin's entry point filtered out of flake8's plugin discovery (the runner
below, used for both variants, so both pay the same start-up); for (d) and
(e), "not installed" also sets ``TAGSTR_AUTOLOAD=0``, so that the start-up
hook of ``tagstr_autoload.pth`` is off too (``--stock-python`` runs that
variant with the interpreter of another environment instead, one without the
project).  Runs are
serial (``--jobs 1``) and interleaved repeat by repeat; the minimum and the
median are reported.  Prints a table, then one line ``BENCH_JSON {...}``.
Run it with the interpreter of an environment where the project (with its
``flake8`` extra) is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from typical_module import write_module_pair

TARGETS = {
    "a_ratio": 1.03, "b_ratio": 1.15, "c_ratio": 1.2, "c_all_ratio": 1.5, "c_all_memory_ratio": 1.5,
    "d_ratio": 1.03, "e_ratio": 1.02,
}

RUNNER = r"""
import resource
import sys
from flake8.plugins import finder
from flake8.main.cli import main

if sys.argv[1] == "without":
    _find = finder.find_plugins

    def find_plugins(cfg, opts):
        return [p for p in _find(cfg, opts) if p.package != "tagstr-toolkit"]

    finder.find_plugins = find_plugins
code = main(sys.argv[2:])
# the process's CPU seconds and peak memory (kB on Linux), on lines of their own
usage = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"\nCPU_S {usage.ru_utime + usage.ru_stime}\nPEAK_RSS_KB {usage.ru_maxrss}\n")
sys.exit(code)
"""

TAGS = ["html", "sql", "log", "sh"]
EXPRS = ["name", "user.name", "items[0]", "count + 1", "len(items)", "user.email.lower()", "d['k']"]


def _body(rng: random.Random) -> tuple[str, list[tuple[str, str, str | None]]]:
    """A tag-string body and its parts: ('lit', text, None) or ('field', expr, conv)."""
    parts: list[tuple[str, str, str | None]] = []
    text = []
    for _ in range(rng.randint(1, 4)):
        lit = rng.choice(["<li>", "SELECT * FROM t WHERE id = ", "value: ", "-n ", "<b>"])
        parts.append(("lit", lit, None))
        text.append(lit)
        expr = rng.choice(EXPRS)
        conv = rng.choice([None, None, "r", "s"])
        parts.append(("field", expr, conv))
        text.append("{" + expr + (f"!{conv}" if conv else "") + "}")
    return "".join(text).replace('"', "'"), parts


def _desugared(tag: str, parts: list[tuple[str, str, str | None]]) -> str:
    args = []
    for kind, text, conv in parts:
        if kind == "lit":
            args.append(f"Decoded({text!r})")
        else:
            args.append(f"Interpolation((lambda: {text}, {text!r}, {conv!r}, None))")
    return f"{tag}({', '.join(args)})"


def make_corpus(
    folder: Path, seed: int, modules: int = 40, functions: int = 25
) -> tuple[Path, Path, Path]:
    """The tag-string corpus, its hand-desugared twin and its f-string twin, from one seed."""
    rng = random.Random(seed)
    tagged, plain, fstrings = folder / "tagged", folder / "plain", folder / "fstrings"
    tagged.mkdir()
    plain.mkdir()
    fstrings.mkdir()
    header = (
        "from tagstr_runtime import Decoded, Interpolation\n"
        f"from tags import {', '.join(TAGS)}\n"
    )
    for m in range(modules):
        out_t, out_p, out_f = [header], [header], [header]
        for f in range(functions):
            lines_t = [f"\n\ndef func_{f}(user, items, name, count, d):\n", "    out = []\n"]
            lines_p, lines_f = list(lines_t), list(lines_t)
            for _ in range(rng.randint(2, 6)):
                tag = rng.choice(TAGS)
                body, parts = _body(rng)
                lines_t.append(f'    out.append({tag}"{body}")\n')
                lines_p.append(f"    out.append({_desugared(tag, parts)})\n")
                lines_f.append(f'    out.append({tag}(f"{body}"))\n')  # same names read, same length + 3
            for lines in (lines_t, lines_p, lines_f):
                lines.append("    return out\n")
            out_t += lines_t
            out_p += lines_p
            out_f += lines_f
        (tagged / f"mod_{m}.py").write_text("".join(out_t), encoding="utf-8")
        (plain / f"mod_{m}.py").write_text("".join(out_p), encoding="utf-8")
        (fstrings / f"mod_{m}.py").write_text("".join(out_f), encoding="utf-8")
    return tagged, plain, fstrings


def run_flake8(
    variant: str, path: Path, extra: list[str], *, python: str = sys.executable,
    env: dict[str, str] | None = None, cwd: Path | None = None,
) -> tuple[float, float, int, int]:
    """Wall and CPU seconds, lines of output and peak memory (kB) of one flake8 run."""
    start = time.perf_counter()
    proc = subprocess.run(
        [python, "-c", RUNNER, variant, "--isolated", "--jobs=1", "--exit-zero", *extra, str(path)],
        capture_output=True, text=True, env=env, cwd=cwd,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0 or "Traceback" in proc.stderr:
        raise SystemExit(f"flake8 failed ({variant}, {path}):\n{proc.stderr}")
    tail = dict(line.split(" ", 1) for line in proc.stderr.splitlines()[-2:] if " " in line)
    cpu, rss = float(tail.get("CPU_S", "nan")), int(tail.get("PEAK_RSS_KB", "0"))
    return elapsed, cpu, proc.stdout.count("\n"), rss


def compare(name: str, runs: dict[str, tuple[str, Path, list[str]]], repeat: int) -> dict[str, object]:
    """Interleaved repeats of each variant: min and median wall and CPU seconds,
    median peak memory, and the output line counts."""
    times: dict[str, list[float]] = {key: [] for key in runs}
    cpu: dict[str, list[float]] = {key: [] for key in runs}
    memory: dict[str, list[int]] = {key: [] for key in runs}
    lines: dict[str, int] = {}
    for _ in range(repeat):
        for key, (variant, path, extra) in runs.items():
            elapsed, seconds, count, rss = run_flake8(variant, path, extra)
            times[key].append(elapsed)
            cpu[key].append(seconds)
            memory[key].append(rss)
            lines[key] = count
    out: dict[str, object] = {}
    for key, values in times.items():
        out[f"{name}_{key}_min_s"] = round(min(values), 4)
        out[f"{name}_{key}_median_s"] = round(statistics.median(values), 4)
        out[f"{name}_{key}_cpu_min_s"] = round(min(cpu[key]), 4)
        out[f"{name}_{key}_cpu_median_s"] = round(statistics.median(cpu[key]), 4)
        out[f"{name}_{key}_cpu_s"] = [round(value, 4) for value in cpu[key]]  # repeat by repeat
        out[f"{name}_{key}_peak_rss_mb"] = round(statistics.median(memory[key]) / 1024, 1)
        out[f"{name}_{key}_output_lines"] = lines[key]
    return out


def _ratio(result: dict[str, object], name: str, over: str, measure: str) -> float:
    return round(float(result[f"{name}_{measure}"]) / float(result[f"{over}_{measure}"]), 4)  # type: ignore[arg-type]


def default_codebase() -> Path:
    import libcst

    return Path(libcst.__file__).parent


def run_a(result: dict[str, object], codebase: Path, repeat: int) -> None:
    files = sum(1 for _ in codebase.rglob("*.py"))
    result.update(codebase=str(codebase), codebase_files=files)
    print(f"(a) {codebase} ({files} files), {repeat} interleaved repeats")
    a = compare("a", {"without": ("without", codebase, []), "with": ("with", codebase, [])}, repeat)
    if a["a_without_output_lines"] != a["a_with_output_lines"]:
        raise SystemExit("(a): the plugin changed flake8's output on a codebase without tag strings")
    result.update(a)
    result["a_ratio"] = _ratio(result, "a_with", "a_without", "min_s")
    result["a_ratio_median"] = _ratio(result, "a_with", "a_without", "median_s")


def run_b(result: dict[str, object], seed: int, modules: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tagged, plain, fstrings = make_corpus(Path(tmp), seed, modules=modules)
        count = sum(p.read_text().count('"') // 2 for p in tagged.glob("*.py"))
        print(f"(b) {modules} generated modules, about {count} tag strings, vs its hand-desugared"
              " and f-string twins")
        b = compare(
            "b",
            {"desugared": ("with", plain, []), "fstring": ("with", fstrings, []), "tagged": ("with", tagged, [])},
            repeat,
        )
    result.update(b)
    result["b_ratio"] = _ratio(result, "b_tagged", "b_desugared", "min_s")
    result["b_ratio_median"] = _ratio(result, "b_tagged", "b_desugared", "median_s")
    result["b_vs_fstring"] = _ratio(result, "b_tagged", "b_fstring", "min_s")
    result["b_vs_fstring_median"] = _ratio(result, "b_tagged", "b_fstring", "median_s")


def plain_codebase(work: Path) -> Path:
    """``rich`` as pip downloads it (the wheel, unpacked): a real package without tag strings."""
    from bench_mypy import fetch_codebase

    root, _ = fetch_codebase(work)
    return root / "rich"


def run_plain(result: dict[str, object], package: Path, one_file: Path, repeat: int, stock_python: str | None) -> None:
    """(d) one plain file and (e) the plain package, with the project installed vs not, interleaved."""
    files = sum(1 for _ in package.rglob("*.py"))
    result.update(plain_package=str(package), plain_package_files=files, plain_file=str(one_file))
    print(f"(d) {one_file}, (e) {package} ({files} files, --jobs 1): installed vs not, "
          f"{repeat} interleaved pairs")
    # modules load from their bytecode caches, as users run flake8 (written by the warm-up runs)
    env = {k: v for k, v in os.environ.items() if k not in ("TAGSTR_AUTOLOAD", "PYTHONDONTWRITEBYTECODE")}
    stock = {"python": stock_python or sys.executable, "env": {**env, "TAGSTR_AUTOLOAD": "0"}, "cwd": package.parent}
    ours = {"python": sys.executable, "env": env, "cwd": package.parent}
    for variant, how in (("with", ours), ("without", stock)):
        run_flake8(variant, one_file, [], **how)  # type: ignore[arg-type]
    for row, target in (("d", one_file), ("e", package)):
        cpu: dict[str, list[float]] = {"with": [], "without": []}
        wall: dict[str, list[float]] = {"with": [], "without": []}
        lines: dict[str, int] = {}
        for index in range(repeat):
            order = ("with", "without") if index % 2 == 0 else ("without", "with")
            for variant in order:
                how = ours if variant == "with" else stock
                elapsed, seconds, count, _ = run_flake8(variant, target, [], **how)  # type: ignore[arg-type]
                wall[variant].append(elapsed)
                cpu[variant].append(seconds)
                lines[variant] = count
        if lines["with"] != lines["without"]:
            raise SystemExit(f"({row}): the plugin changed flake8's output on code without tag strings")
        for variant in ("with", "without"):
            result[f"{row}_{variant}_cpu_median_s"] = round(statistics.median(cpu[variant]), 4)
            result[f"{row}_{variant}_median_s"] = round(statistics.median(wall[variant]), 4)
            result[f"{row}_{variant}_cpu_s"] = [round(value, 4) for value in cpu[variant]]
        result[f"{row}_output_lines"] = lines["with"]
        result[f"{row}_ratio"] = round(
            statistics.median(w / o for w, o in zip(cpu["with"], cpu["without"])), 4
        )
        result[f"{row}_ratio_wall"] = round(
            statistics.median(w / o for w, o in zip(wall["with"], wall["without"])), 4
        )


ALL_TAG = ["--extend-select=TAG"]  # flake8's default selection plus every TAG code


def run_c(result: dict[str, object], lines: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tagged, twin = write_module_pair(Path(tmp), lines)
        result["c_module_lines"] = tagged.read_text(encoding="utf-8").count("\n")
        result["c_module_tag_strings"] = twin.read_text(encoding="utf-8").count('(f"') + twin.read_text(
            encoding="utf-8").count("(f'")
        print(f"(c) one module of {result['c_module_lines']} lines, {result['c_module_tag_strings']} tag strings,"
              f" vs its f-string twin, defaults and every TAG rule on, {repeat} interleaved repeats")
        c = compare(
            "c",
            {
                "fstring": ("with", twin, []), "tagged": ("with", tagged, []),
                "all_fstring": ("with", twin, ALL_TAG), "all_tagged": ("with", tagged, ALL_TAG),
            },
            repeat,
        )
    result.update(c)
    for prefix, mine, base in (("c", "c_tagged", "c_fstring"), ("c_all", "c_all_tagged", "c_all_fstring")):
        # CPU seconds (on a shared machine the wall clock also counts the waits for a
        # core), as the median of each repeat's ratio: the two runs of a repeat are
        # next to each other, so a busy spell disturbs both
        pairs = zip(result[f"{mine}_cpu_s"], result[f"{base}_cpu_s"])  # type: ignore[call-overload]
        result[f"{prefix}_ratio"] = round(statistics.median(m / b for m, b in pairs), 4)
        result[f"{prefix}_ratio_min"] = _ratio(result, mine, base, "cpu_min_s")
        result[f"{prefix}_ratio_wall"] = _ratio(result, mine, base, "min_s")
        result[f"{prefix}_ratio_wall_median"] = _ratio(result, mine, base, "median_s")
        result[f"{prefix}_memory_ratio"] = _ratio(result, mine, base, "peak_rss_mb")


def report(result: dict[str, object]) -> None:
    print(f"{'measure':<30}{'min s':>10}{'median s':>10}{'CPU min s':>11}{'CPU med s':>11}{'peak MB':>9}")
    for key in ("a_without", "a_with", "b_desugared", "b_fstring", "b_tagged",
                "c_fstring", "c_tagged", "c_all_fstring", "c_all_tagged"):
        if key + "_min_s" in result:
            print(f"{key:<30}{result[key + '_min_s']:>10}{result[key + '_median_s']:>10}"
                  f"{result[key + '_cpu_min_s']:>11}{result[key + '_cpu_median_s']:>11}"
                  f"{result[key + '_peak_rss_mb']:>9}")
    for key in ("d_without", "d_with", "e_without", "e_with"):
        if key + "_median_s" in result:
            print(f"{key:<30}{'':>10}{result[key + '_median_s']:>10}{'':>11}{result[key + '_cpu_median_s']:>11}")
    lines = [
        ("a_ratio", "(a) with/without plugin, no tag strings"),
        ("b_ratio", "(b) tag strings/hand-desugared"),
        ("b_vs_fstring", "(b) tag strings/f-string twin (the honest baseline)"),
        ("c_ratio", "(c) module/f-string twin, defaults, CPU time (median of the repeats' ratios)"),
        ("c_ratio_min", "(c) module/f-string twin, defaults, CPU time (ratio of the minima)"),
        ("c_ratio_wall", "(c) module/f-string twin, defaults, wall time"),
        ("c_memory_ratio", "(c) module/f-string twin, defaults, peak memory"),
        ("c_all_ratio", "(c) module/f-string twin, every TAG rule on, CPU time (median of the repeats' ratios)"),
        ("c_all_ratio_min", "(c) module/f-string twin, every TAG rule on, CPU time (ratio of the minima)"),
        ("c_all_ratio_wall", "(c) module/f-string twin, every TAG rule on, wall time"),
        ("c_all_memory_ratio", "(c) module/f-string twin, every TAG rule on, peak memory"),
        ("d_ratio", "(d) ONE plain file, installed/not installed, CPU time (median of the pairs' ratios)"),
        ("d_ratio_wall", "(d) ONE plain file, installed/not installed, wall time (median of the pairs' ratios)"),
        ("e_ratio", "(e) plain package --jobs 1, installed/not installed, CPU time (median of the pairs' ratios)"),
        ("e_ratio_wall", "(e) plain package --jobs 1, installed/not installed, wall time (median of pair ratios)"),
    ]
    for key, label in lines:
        if key in result:
            median = result.get(key + "_median")
            extra = f" (median {median})" if median is not None else ""
            target = f", target <= {TARGETS[key]}" if key in TARGETS else ""
            print(f"{label}: {result[key]}{extra}{target}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codebase", type=Path, default=None, help="folder for (a); default: installed libcst")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 repeats, smaller corpora")
    parser.add_argument("--only", default="a,b,c,d", help="which measurements, e.g. c or a,b (default: all; "
                        "d runs (d) and (e))")
    parser.add_argument("--plain", type=Path, default=None, help="package folder for (d)/(e); default: rich")
    parser.add_argument("--plain-file", type=Path, default=None,
                        help="the file of (d); default: console.py of --plain")
    parser.add_argument("--stock-python", default=None,
                        help="for (d)/(e): the interpreter of an environment with flake8 but not this project")
    parser.add_argument("--seed", type=int, default=750)
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    only = set(args.only.split(","))
    import flake8

    result: dict[str, object] = {"python": sys.version.split()[0], "flake8": flake8.__version__}
    if "a" in only:
        run_a(result, args.codebase or default_codebase(), repeat)
    if "b" in only:
        run_b(result, args.seed, 15 if args.quick else 40, repeat)
    if "c" in only:
        run_c(result, 3000 if args.quick else 9000, repeat)
    if "d" in only:
        pairs = 5 if args.quick else max(args.repeat, 15)
        with tempfile.TemporaryDirectory(prefix="bench-flake8-") as tmp:
            package = args.plain.resolve() if args.plain else plain_codebase(Path(tmp))
            one_file = args.plain_file.resolve() if args.plain_file else package / "console.py"
            run_plain(result, package, one_file, pairs, args.stock_python)
    measured = [key for key in TARGETS if key in result]
    result["targets_met"] = all(float(result[k]) <= TARGETS[k] for k in measured)  # type: ignore[arg-type]
    report(result)
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
