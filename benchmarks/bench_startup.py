"""What the start-up hook costs every interpreter: ``python -c pass`` and ``python script.py``.

    python benchmarks/bench_startup.py [--runs N] [--src DIR]

Fresh interpreters of this environment (the project installed, so that
``tagstr_autoload.pth`` runs), the hook on (as installed) and off
(``TAGSTR_AUTOLOAD=0``: the ``.pth`` line still imports ``_autohook``, which
returns at once), interleaved run by run; ``python script.py`` is a plain
one-line script, where the hook also arms the main-script path of issue 29
(``-c`` does not).  Prints the median and minimum wall time of each, the
added milliseconds (median of on minus median of off; target: within 2 ms),
and the modules of ours each start imported (``-X importtime``).  ``--src``
puts another checkout's ``src/`` first on ``PYTHONPATH`` (a before/after
comparison in the same environment).  Last line: ``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
TARGET_MS = 2.0


def _env(src: Path, autoload: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env["PYTHONPATH"] = str(src)
    if not autoload:
        env["TAGSTR_AUTOLOAD"] = "0"
    return env


def _once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _ours_imported(args: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", *args], env=env, check=True,
                          capture_output=True, text=True)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line]
    return [name for name in names if name.startswith("tagstr")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="interpreter starts per variant (default 40)")
    parser.add_argument("--src", type=Path, default=SRC, help="the src/ folder to measure (default: this one)")
    args = parser.parse_args(argv)
    result: dict[str, object] = {"python": sys.version.split()[0], "src": str(args.src)}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        script = Path(tmp) / "script.py"
        script.write_text("x = 1\n", encoding="utf-8")
        commands = {"python -c pass": ["-c", "pass"], "python script.py": [str(script)]}
        variants = {"on": _env(args.src, True), "off": _env(args.src, False)}
        for command in commands.values():  # warm the OS caches, write the pycs
            for env in variants.values():
                _once(command, env)
        times: dict[tuple[str, str], list[float]] = {(c, v): [] for c in commands for v in variants}
        for index in range(args.runs):
            order = list(variants) if index % 2 == 0 else list(reversed(variants))
            for label, command in commands.items():
                for variant in order:
                    times[label, variant].append(_once(command, variants[variant]))
        imported = {f"{label}, {variant}": _ours_imported(command, variants[variant])
                    for label, command in commands.items() for variant in variants}
    print(f"{'ms':<26}{'median':>9}{'min':>9}")
    for (label, variant), values in times.items():
        median, best = statistics.median(values) * 1e3, min(values) * 1e3
        result[f"{label}, {variant}"] = {"median_ms": round(median, 3), "min_ms": round(best, 3)}
        print(f"{label + ', hook ' + variant:<26}{median:>9.2f}{best:>9.2f}")
    for label in commands:
        added = (statistics.median(times[label, "on"]) - statistics.median(times[label, "off"])) * 1e3
        result[f"{label}: added_ms"] = round(added, 3)
        print(f"{label}: the hook adds {added:.2f} ms (median; target <= {TARGET_MS})")
    for key, names in imported.items():
        print(f"modules of ours ({key}): {' '.join(names) or '-'}")
    result["imported"] = imported
    added_ms = [float(result[f"{label}: added_ms"]) for label in commands]  # type: ignore[arg-type]
    result["target_met"] = all(ms <= TARGET_MS for ms in added_ms)
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
