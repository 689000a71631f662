"""A read-only install's start-up, side by side with the f-string twin's cached start (issue 36, item 4).

    python benchmarks/bench_shipping.py [--runs N] [--lines L ...]

For each module size (the typical module of the flake8 and mypy benchmarks,
``typical_module.py``: ~1,000 lines by default, a small app's views, and
~9,000), four folders are put in turn on ``PYTHONPATH`` of a fresh
interpreter of this environment (the start-up hook installed, as for a
user), each run with ``python -B -c "import ..."``: ``-B`` writes nothing,
as a read-only install (an image run as another user) cannot, and reads
every pyc that is there:

- ``twin``: the f-string twin, its pyc compiled at install (the baseline);
- ``shipped``: the tag-string module as a wheel built with the tagstr build
  hook installs it (``--ship``, then its pyc compiled as pip does);
- ``source, cached``: the tag-string source and the import hook's cache,
  written at image build (``python -m tagstr_runtime --compile``);
- ``source, no cache``: the tag-string source alone: desugared at every start
  (what pip and uv leave, read-only).

Runs are interleaved; prints the median and minimum of each and the ratio of
medians to the twin (target for a read-only install built with the hook:
at most 1.3).  Last line: ``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from typical_module import write_module_pair  # noqa: E402

TARGET = 1.3


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env["PYTHONPATH"] = str(folder)
    return env


def _python(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL)


def _variants(root: Path, lines: int) -> dict[str, tuple[Path, str]]:
    source = root / "source"
    source.mkdir(parents=True)
    write_module_pair(source, lines)
    folders: dict[str, tuple[Path, str]] = {}
    for name, module in (("twin", "fstrings"), ("shipped", "tagged"), ("source, cached", "tagged"),
                         ("source, no cache", "tagged")):
        folder = root / name.replace(", ", "-").replace(" ", "-")
        folder.mkdir()
        shutil.copy(source / "tags.py", folder)
        shutil.copy(source / f"{module}.py", folder)
        if name == "shipped":
            _python("-m", "tagstr_runtime", "--ship", "--in-place", str(folder / "tagged.py"))
        # what pip does at install: compileall (which skips a tag-string module, silently)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder)], stdout=subprocess.DEVNULL)
        if name == "source, cached":
            _python("-m", "tagstr_runtime", "--compile", str(folder))
        folders[name] = (folder, module)
    return folders


def _once(folder: Path, module: str) -> float:
    start = time.perf_counter()
    _python("-B", "-c", f"import {module}", env=_env(folder))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="interpreter starts per variant (default 30)")
    parser.add_argument("--lines", type=int, nargs="+", default=[1000, 9000], help="module sizes (lines)")
    args = parser.parse_args(argv)
    result: dict[str, object] = {"python": sys.version.split()[0]}
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-shipping-") as tmp:
        for lines in args.lines:
            variants = _variants(Path(tmp) / str(lines), lines)
            for folder, module in variants.values():  # warm the OS caches
                _once(folder, module)
            times: dict[str, list[float]] = {name: [] for name in variants}
            for index in range(args.runs):
                order = list(variants) if index % 2 == 0 else list(reversed(variants))
                for name in order:
                    times[name].append(_once(*variants[name]))
            baseline = statistics.median(times["twin"])
            print(f"\n~{lines} lines, python -B -c 'import ...' ({args.runs} runs)")
            print(f"{'ms':<20}{'median':>9}{'min':>9}{'x twin':>9}")
            for name, values in times.items():
                median, best = statistics.median(values), min(values)
                ratio = median / baseline
                result[f"{lines} lines, {name}"] = {"median_ms": round(median * 1e3, 2),
                                                    "min_ms": round(best * 1e3, 2), "ratio": round(ratio, 3)}
                print(f"{name:<20}{median * 1e3:>9.2f}{best * 1e3:>9.2f}{ratio:>9.2f}")
            worst = max(worst, statistics.median(times["shipped"]) / baseline)
    result["shipped_worst_ratio"] = round(worst, 3)
    verdict = "within" if worst <= TARGET else "over"
    print(f"\nshipped (read-only install of a wheel built with the hook): {worst:.2f}x the twin's cached start, "
          f"{verdict} the {TARGET}x target")
    print("BENCH_JSON " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
