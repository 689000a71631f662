"""The migration on one large module, side by side with CPython's own parse of its f-string twin.

    python benchmarks/bench_migrate.py [--strings N] [--fields 1|2] [--repeats N]

Writes a module of ``--strings`` tag strings (20,000 by default), one per
line, each with ``--fields`` interpolations (2: one with a conversion and a
format spec), under an eager ``@accepts_template`` tag; then, each in a fresh
interpreter, alternated repeat by repeat:

* ``migrate --check``: the command (the analysis of the module, the proof of
  its tag, the rewrite, libcst's check of every t-string written);
* ``ast.parse(twin)``: CPython parsing the same module written with f-strings,
  what any tool that reads the module pays at least.

Prints the CPU time and the wall time (minimum of the repeats) and the peak
resident memory of each (``ru_maxrss``, interpreter included), and their
ratios.  A busy machine changes the wall times most, the CPU times less, the
memory not at all.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAD = '''from tagstr_runtime import accepts_template


@accepts_template
def html(*args):
    return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)


name = "x"
width = 10
'''

MIGRATE = "import resource, sys\nfrom tagstr_runtime.migrate import main\nmain(['--check', sys.argv[1]])\n" \
          "print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
PARSE = "import ast, resource, sys\nast.parse(open(sys.argv[1], encoding='utf-8').read())\n" \
        "print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"


def module(strings: int, fields: int) -> str:
    line = 'v{i} = html"<p class={{name}}>{i}</p>"' if fields == 1 else \
        'v{i} = html"<p class={{name}}>{i} {{name!r:>{{width}}}}</p>"'
    return HEAD + "".join(line.format(i=i) + "\n" for i in range(strings))


def run(code: str, path: Path) -> tuple[float, float, int]:
    """The wall and CPU seconds of one run, and its peak memory in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = [line for line in done.stderr.splitlines() if line.startswith("RSS ")]
    if not rss:
        raise SystemExit(f"the run failed:\n{done.stdout}\n{done.stderr}")
    return elapsed, cpu, int(rss[-1].split()[1]) // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strings", type=int, default=20_000)
    parser.add_argument("--fields", type=int, choices=(1, 2), default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "big.py"
        source.write_text(module(args.strings, args.fields), encoding="utf-8")
        twin = Path(folder) / "twin.py"
        twin.write_text(source.read_text(encoding="utf-8").replace('html"', 'f"'), encoding="utf-8")
        size = source.stat().st_size // 1024
        results: dict[str, list[tuple[float, float, int]]] = {"migrate --check": [], "ast.parse(twin)": []}
        for _ in range(args.repeats):
            results["migrate --check"].append(run(MIGRATE, source))
            results["ast.parse(twin)"].append(run(PARSE, twin))
    print(f"{args.strings} tag strings of {args.fields} field(s), {size} KiB")
    best = {name: (min(t for t, _, _ in runs), min(c for _, c, _ in runs), max(m for _, _, m in runs))
            for name, runs in results.items()}
    for name, (seconds, cpu, megabytes) in best.items():
        print(f"  {name:18} {cpu:6.2f} s CPU  {seconds:6.2f} s wall  {megabytes:5d} MB peak")
    (mt, mc, mm), (pt, pc, pm) = best["migrate --check"], best["ast.parse(twin)"]
    print(f"  ratio              {mc / pc:6.1f}x      {mt / pt:6.1f}x        {mm / pm:5.2f}x")


if __name__ == "__main__":
    main()
