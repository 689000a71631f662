"""The formatter and ruff wrappers against the plain tools on the same files.

Each wrapper (``python -m tagstr_runtime --format [--tool ruff] --check``,
``python -m tagstr_runtime --ruff-check``) runs on tag-string files, and the
plain tool (``black --check``, ``ruff format --check``, ``ruff check``) on
their f-string twins (every tag string an f-string of the same width: the
same text to format and lint).  Three corpora: ``examples/``; one large
generated module; a project: ``examples/`` beside this project's own
modules, which have no tag strings (the wrappers hand those to the tool in
one run).

Whole commands are timed, process start-up included, as a user or
pre-commit runs them, in wall time and in CPU time (the command's and its
children's: steadier than wall time on a shared machine), on code the tool
has formatted already (the ``--check`` of CI).  Caches are off (black's cache
directory is a fresh one per run, ruff runs with ``--no-cache``), so every
run does the work.  Minimum of interleaved repeats.  Target: each ratio
<= 1.5.

    python benchmarks/bench_tools.py [--repeat N] [--quick]

The last line is ``BENCH_JSON {...}`` (every number, ``targets_met``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
for _name in [m for m in sys.modules if m.split(".")[0] == "tagstr_runtime"]:  # an installed copy's start-up hook
    del sys.modules[_name]

from tagstr_runtime.tools.invoke import ruff_program  # noqa: E402
from tagstr_runtime.frontend import parse  # noqa: E402

TARGET = 1.5
TAGS = ["h", "q", "s"]
EXPRS = ["user.name", "items[0]", "count + 1", "d['k']", "name!r", "count:>8", "f(x, y)"]


def twin(text: str) -> str:
    """Each tag string (nested too) an f-string of the same width."""
    out = list(text)
    for outer in parse(text).tag_strings:
        for tag in outer.walk():
            name = tag.tag_span
            out[name.start : name.end] = ["f", *[""] * (name.end - name.start - 1)]
            quote_end = name.end + len(tag.quote) - 1
            out[quote_end] += " " * (name.end - name.start - 1)
    return "".join(out)


def generated_module(seed: int, functions: int) -> str:
    """A large module: functions full of tag strings in calls, returns, lists and
    multi-line literals, written carelessly enough that a formatter has work to do."""
    rng = random.Random(seed)
    out = [f"from tags import {', '.join(TAGS)}\n"]
    for n in range(functions):
        out.append(f"\n\ndef function_{n}(user, items, count, d, name, f, x, y):\n")
        for _ in range(rng.randint(2, 5)):
            tag = rng.choice(TAGS)
            fields = " ".join("{" + rng.choice(EXPRS) + "}" for _ in range(rng.randint(1, 3)))
            form = rng.randrange(4)
            if form == 0:
                out.append(f'    result = some_function(  {tag}"<p>{fields}</p>", count , name)\n')
            elif form == 1:
                out.append(f'    rows = [ {tag}"{fields}",{tag}"<li>{fields}</li>" ]\n')
            elif form == 2:
                out.append(f'    text = {tag}"""<div>\n  {fields}\n</div>"""\n')
            else:
                out.append(f'    message = render_template(template_name, {tag}"{fields} and more text", x, y)\n')
        out.append("    return result if count else rows\n")
    return "".join(out)


def corpora(folder: Path, seed: int, functions: int) -> dict[str, tuple[Path, Path]]:
    """name -> (folder of tag-string files, folder of their twins)."""
    made = {}
    for name in ("examples", "generated", "project"):
        tagged, twins = folder / name / "tagged", folder / name / "twins"
        tagged.mkdir(parents=True)
        twins.mkdir(parents=True)
        if name == "generated":
            (tagged / "generated.py").write_text(generated_module(seed, functions), encoding="utf-8")
        else:  # project: this project's own modules (no tag strings) beside the examples
            for path in sorted((ROOT / "examples").glob("*.py")):
                shutil.copy(path, tagged)
            if name == "project":
                for path in sorted((ROOT / "src").rglob("*.py")):
                    shutil.copy(path, tagged / f"{path.parent.name}_{path.name}")
        for path in tagged.glob("*.py"):
            (twins / path.name).write_text(twin(path.read_text(encoding="utf-8")), encoding="utf-8")
        made[name] = (tagged, twins)
    return made


def commands(tagged: Path, twins: Path, ruff: str) -> dict[str, tuple[list[str], list[str], list[str]]]:
    """tool -> (the wrapper's command on the tag-string files, the plain tool's on the
    twins, and the wrapper's command that first formats the files as the tool would)."""
    runner = [sys.executable, "-m", "tagstr_runtime"]
    tag_files = sorted(str(p) for p in tagged.glob("*.py"))
    twin_files = sorted(str(p) for p in twins.glob("*.py"))
    return {
        "black": ([*runner, "--format", "--check", "-q", *tag_files],
                  [sys.executable, "-m", "black", "--check", "-q", *twin_files],
                  [*runner, "--format", "-q", *tag_files]),
        "ruff format": ([*runner, "--format", "--tool", "ruff", "--check", "-q", *tag_files],
                        [ruff, "format", "--check", "--no-cache", *twin_files],
                        [*runner, "--format", "--tool", "ruff", "-q", *tag_files]),
        "ruff check": ([*runner, "--ruff-check", *tag_files],
                       [ruff, "check", "--no-cache", *twin_files],
                       []),
    }


def formatted(tagged: Path, twins: Path, command: list[str], env: dict[str, str]) -> None:
    """Both trees formatted by the tool: ``--check`` then times a formatted code base, as in CI."""
    if command:
        subprocess.run(command, env=env, capture_output=True, check=False)
    for path in tagged.glob("*.py"):
        (twins / path.name).write_text(twin(path.read_text(encoding="utf-8")), encoding="utf-8")


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and every process it started)."""
    with tempfile.TemporaryDirectory() as cache:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, env={**env, "BLACK_CACHE_DIR": cache})
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
        raise SystemExit(f"{command[:4]} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 repeats, a smaller generated module")
    parser.add_argument("--seed", type=int, default=750)
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    functions = 150 if args.quick else 500
    ruff = ruff_program()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TAGSTR_AUTOLOAD": "0"}
    result: dict[str, object] = {"python": sys.version.split()[0]}
    version = subprocess.run([sys.executable, "-m", "black", "--version"], capture_output=True, text=True)
    result["black"] = version.stdout.split("\n")[0]
    result["ruff"] = subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{result['black']}; {result['ruff']}; Python {result['python']}; {repeat} interleaved repeats")
    print(f"{'corpus':<11}{'tool':<13}{'wrapper wall':>14}{'plain wall':>12}{'ratio':>8}"
          f"{'wrapper CPU':>14}{'plain CPU':>12}{'ratio':>8}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for corpus, (tagged, twins) in corpora(Path(tmp), args.seed, functions).items():
            lines = sum(p.read_text(encoding="utf-8").count("\n") for p in tagged.glob("*.py"))
            count = sum(len(parse(p.read_text(encoding="utf-8")).tag_strings) for p in tagged.glob("*.py"))
            result[f"{corpus}_lines"], result[f"{corpus}_tag_strings"] = lines, count
            result[f"{corpus}_files"] = len(list(tagged.glob("*.py")))
            for tool, (ours, plain, prepare) in commands(tagged, twins, ruff).items():
                formatted(tagged, twins, prepare, env)
                runs: dict[str, list[tuple[float, float]]] = {"wrapper": [], "plain": []}
                for _ in range(repeat):
                    runs["wrapper"].append(timed(ours, env))
                    runs["plain"].append(timed(plain, env))
                key = f"{corpus}_{tool.replace(' ', '_')}"
                row = f"{corpus:<11}{tool:<13}"
                for index, measure in enumerate(("wall", "cpu")):
                    best = {side: min(r[index] for r in values) for side, values in runs.items()}
                    for side, values in runs.items():
                        result[f"{key}_{side}_{measure}_min_s"] = round(best[side], 4)
                        result[f"{key}_{side}_{measure}_median_s"] = round(
                            statistics.median(r[index] for r in values), 4
                        )
                    ratio = round(best["wrapper"] / best["plain"], 3)
                    result[f"{key}_{measure}_ratio"] = ratio
                    ratios.append(ratio)
                    row += f"{best['wrapper']:>13.3f}s{best['plain']:>11.3f}s{ratio:>7.2f}x"
                print(row)
    result["targets_met"] = all(r <= TARGET for r in ratios)
    sizes = "; ".join(
        f"{c}: {result[c + '_files']} files, {result[c + '_lines']} lines, {result[c + '_tag_strings']} tag strings"
        for c in ("examples", "generated", "project")
    )
    print(f"({sizes}); target <= {TARGET}x")
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
