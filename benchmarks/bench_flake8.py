"""What the flake8 plugin costs, each figure side by side with its baseline in one run.

    python benchmarks/bench_flake8.py [--quick] [--codebase PATH] [--repeat N]

(a) flake8 with vs without the plugin on a large real codebase without tag
    strings (by default the installed ``libcst`` package, which the plugin's
    ``flake8`` extra installs from PyPI; ``--codebase`` names another folder).
    Target: at most 3% slower (SPEC 1.8: files that parse are untouched).
(b) flake8 with the plugin on a generated corpus dense with tag strings vs the
    same corpus hand-desugared (every tag string written as the explicit call
    ``tag(Decoded(...), Interpolation(lambda: e, 'e', None, None), ...)``),
    both generated from one seed.  Target: at most 15% slower.

"Without the plugin" is the same flake8 in the same environment with the
plugin's entry point filtered out of flake8's plugin discovery (the runner
below, used for both variants, so both pay the same start-up).  Runs are
serial (``--jobs 1``) and interleaved repeat by repeat; the minimum and the
median are reported.  Prints a table, then one line ``BENCH_JSON {...}``.
Run it with the interpreter of an environment where the project (with its
``flake8`` extra) is installed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"a_ratio": 1.03, "b_ratio": 1.15}

RUNNER = r"""
import sys
from flake8.plugins import finder
from flake8.main.cli import main

if sys.argv[1] == "without":
    _find = finder.find_plugins

    def find_plugins(cfg, opts):
        return [p for p in _find(cfg, opts) if p.package != "tagstr-toolkit"]

    finder.find_plugins = find_plugins
sys.exit(main(sys.argv[2:]))
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


def run_flake8(variant: str, path: Path, extra: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, variant, "--isolated", "--jobs=1", "--exit-zero", *extra, str(path)],
        capture_output=True, text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0 or "Traceback" in proc.stderr:
        raise SystemExit(f"flake8 failed ({variant}, {path}):\n{proc.stderr}")
    return elapsed, proc.stdout.count("\n")


def compare(name: str, runs: dict[str, tuple[str, Path, list[str]]], repeat: int) -> dict[str, object]:
    """Interleaved repeats of each variant; min and median seconds, and the output line counts."""
    times: dict[str, list[float]] = {key: [] for key in runs}
    lines: dict[str, int] = {}
    for _ in range(repeat):
        for key, (variant, path, extra) in runs.items():
            elapsed, count = run_flake8(variant, path, extra)
            times[key].append(elapsed)
            lines[key] = count
    out: dict[str, object] = {}
    for key, values in times.items():
        out[f"{name}_{key}_min_s"] = round(min(values), 4)
        out[f"{name}_{key}_median_s"] = round(statistics.median(values), 4)
        out[f"{name}_{key}_output_lines"] = lines[key]
    return out


def default_codebase() -> Path:
    import libcst

    return Path(libcst.__file__).parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codebase", type=Path, default=None, help="folder for (a); default: installed libcst")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 repeats, smaller corpus")
    parser.add_argument("--seed", type=int, default=750)
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    codebase = args.codebase or default_codebase()
    files = sum(1 for _ in codebase.rglob("*.py"))
    result: dict[str, object] = {"python": sys.version.split()[0], "codebase": str(codebase), "codebase_files": files}
    import flake8

    result["flake8"] = flake8.__version__

    print(f"(a) {codebase} ({files} files), {repeat} interleaved repeats")
    a = compare("a", {"without": ("without", codebase, []), "with": ("with", codebase, [])}, repeat)
    if a["a_without_output_lines"] != a["a_with_output_lines"]:
        raise SystemExit("(a): the plugin changed flake8's output on a codebase without tag strings")
    result.update(a)
    result["a_ratio"] = round(a["a_with_min_s"] / a["a_without_min_s"], 4)  # type: ignore[operator]
    result["a_ratio_median"] = round(a["a_with_median_s"] / a["a_without_median_s"], 4)  # type: ignore[operator]

    with tempfile.TemporaryDirectory() as tmp:
        modules = 15 if args.quick else 40
        tagged, plain, fstrings = make_corpus(Path(tmp), args.seed, modules=modules)
        count = sum(p.read_text().count('"') // 2 for p in tagged.glob("*.py"))
        print(f"(b) {modules} generated modules, about {count} tag strings, vs its hand-desugared"
              " and f-string twins")
        b = compare(
            "b",
            {"desugared": ("with", plain, []), "fstring": ("with", fstrings, []), "tagged": ("with", tagged, [])},
            repeat,
        )
    result.update(b)
    result["b_ratio"] = round(b["b_tagged_min_s"] / b["b_desugared_min_s"], 4)  # type: ignore[operator]
    result["b_ratio_median"] = round(b["b_tagged_median_s"] / b["b_desugared_median_s"], 4)  # type: ignore[operator]
    result["b_vs_fstring"] = round(b["b_tagged_min_s"] / b["b_fstring_min_s"], 4)  # type: ignore[operator]
    result["b_vs_fstring_median"] = round(
        b["b_tagged_median_s"] / b["b_fstring_median_s"], 4  # type: ignore[operator]
    )
    result["targets_met"] = all(result[k] <= v for k, v in TARGETS.items())  # type: ignore[operator]

    print(f"{'measure':<44}{'min s':>10}{'median s':>10}")
    for key in ("a_without", "a_with", "b_desugared", "b_fstring", "b_tagged"):
        print(f"{key:<44}{result[key + '_min_s']:>10}{result[key + '_median_s']:>10}")
    print(f"(a) with/without plugin, no tag strings: {result['a_ratio']} (median {result['a_ratio_median']}),"
          f" target <= {TARGETS['a_ratio']}")
    print(f"(b) tag strings/hand-desugared: {result['b_ratio']} (median {result['b_ratio_median']}),"
          f" target <= {TARGETS['b_ratio']}")
    print(f"(b) tag strings/f-string twin (the honest baseline): {result['b_vs_fstring']}"
          f" (median {result['b_vs_fstring_median']})")
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
