"""Importing many cached tag-string modules vs their f-string twins from standard pycs.

    python benchmarks/bench_import.py [--modules 400] [--runs 11] [--quick] [--strace]

Issue 30, item 6.  ``--modules`` copies of the typical module of the other
benchmarks (``typical_module.py``: one block, ~95 lines, 16 html/sql tag
strings) are written to one folder, and their f-string twins (each
``tag"..."`` written ``tag(f"...")``) to another; a first import writes the
caches: the import hook's ``*.tagstr-<fingerprint>.pyc`` for the tag-string
modules, the standard pycs for the twins.  Then fresh interpreters (``-S``,
the hook installed as ``tagstr_autoload.pth`` installs it, in both) import
every module of one folder, alternating tagged and twin runs; each time
includes what a tag-string module pays once per process (``_rt`` and
``_types``, the fingerprint, the listing of ``__pycache__``):

- **warm**: the files in the page cache; the importing process's CPU time
  (``time.process_time``: the load of other processes on a shared machine
  does not count; ``--wall`` for the wall clock);
- **cold**: the modules' sources and caches dropped from the page cache
  first (``posix_fadvise``, those files only), so each file read reaches
  the disk; wall clock;
- **first**: no cache at all (the modules' pycs removed first), so each
  module is compiled, the tag-string ones desugared, and its cache written,
  as at the first import of a project; the process's CPU time.  Issue 42's
  row: the desugarer's speed against CPython compiling the twins.

``--kind dense`` is issue 42's shape (ten functions of two tag strings each,
37 interpolations per module); ``--src DIR`` (repeatable) adds the tag-string
modules imported with another checkout's ``src/`` (its own folder and caches),
for before/after figures in one run.

Prints each time (median and minimum over the runs), the ratio of the
medians, the mean size of a cache file, and with ``--strace`` the
file-system calls per module (``strace -c``).  One line ``BENCH_JSON {...}``
at the end.
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
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
sys.path.insert(0, str(REPO / "benchmarks"))

from typical_module import BLOCK, HEADER, _written  # noqa: E402

TARGETS = {"warm": 1.3, "cold": 4.0, "first": 4.0}

#: The tags both variants call, importing nothing of ``tagstr_runtime``: what the
#: tag-string modules need of it (``_rt``, ``_types``) is on their bill.
TAGS = '''
class Query:
    def __init__(self, text, params):
        self.text, self.params = text, params


def html(*args):
    return "".join(a if isinstance(a, str) else str(a[0]()) for a in args)


def sql(*args):
    return Query("", [])
'''

_SCRIPT = textwrap.dedent('''
    import sys, time
    sys.path.insert(0, {src!r})
    import tagstr_runtime._autohook  # what tagstr_autoload.pth runs at start-up
    sys.path.insert(0, {folder!r})
    names = [f"mod_{{i}}" for i in range({count})]
    import tags  # both variants import it: not timed
    clock = time.{clock}
    t0 = clock()
    for name in names:
        __import__(name)
    print(clock() - t0)
''')


#: A small module of views: a few functions each returning a tag string (no
#: dataclass or class machinery to dilute what the tag strings cost).
SMALL = '''"""Views of one page (generated for the import benchmark, {n})."""

from tags import html, sql


def user_card(user):
    return «html:"<div class='card'><b>{user.name}</b> <i>{user.email}</i></div>"»


def user_row(user, css="plain"):
    return «html:"<tr class='{css}'><td>{user.id}</td><td>{user.name!r}</td><td>{user.age:>3}</td></tr>"»


def by_id(db, user_id):
    return db.execute(«sql:"SELECT id, name, email FROM users WHERE id = {user_id}"»)


def page(title, body, count):
    return «html:"<section id='p{n}'><h2>{title} ({count} users)</h2>{body}</section>"»


FOOTER = «html:"<footer>page {n}</footer>"»
'''


def _dense() -> str:
    """Issue 42's dense shape: ten small functions with two tag strings each (37 interpolations)."""
    views = []
    for k in range(10):
        first = ("«sql:\"SELECT name FROM users WHERE id = {user.id} AND org = {org}\"»" if k % 3 == 0 else
                 "«html:\"<h2 class='{css}'>{user.name:>20}</h2>\"»")
        second = ("«html:\"<p>{len(items)} items</p>\"»" if k in (3, 7, 9) else
                  "«html:\"<p>{len(items)} items for {user.email!r}</p>\"»")
        views.append(f"""

def view_{k}(user, items, css, org):
    return {first}, {second}
""")
    return '"""Views (generated for the import benchmark, {n})."""\n\nfrom tags import html, sql\n' + "".join(views)


#: ``--kind``: the module written ``--modules`` times
KINDS = {"typical": HEADER + BLOCK, "small": SMALL, "dense": _dense()}


def write_modules(folder: Path, count: int, fstrings: bool, kind: str = "typical") -> None:
    folder.mkdir(parents=True)
    (folder / "tags.py").write_text(TAGS, encoding="utf-8")
    for i in range(count):
        text = _written(KINDS[kind].replace("{n}", str(i)), fstrings=fstrings)
        (folder / f"mod_{i}.py").write_text(text, encoding="utf-8")


def evict(folder: Path) -> bool:
    """Drop the modules' sources and caches from the page cache (``posix_fadvise``):
    only these files, so nothing else on a shared machine is disturbed."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:
        return False
    for path in [*folder.glob("mod_*.py"), *(folder / "__pycache__").glob("mod_*.pyc")]:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)  # a dirty page cannot be dropped
            advise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return True


def _env() -> dict[str, str]:
    """No ``PYTHON*`` settings (``PYTHONDONTWRITEBYTECODE`` would defeat the caches)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "TAGSTR_AUTOLOAD"}


def _command(folder: Path, count: int, clock: str, src: Path = SRC) -> list[str]:
    script = _SCRIPT.format(src=str(src), folder=str(folder), count=count, clock=clock)
    return [sys.executable, "-S", "-c", script]


def _run(folder: Path, count: int, clock: str, src: Path = SRC) -> float:
    done = subprocess.run(_command(folder, count, clock, src), capture_output=True, text=True, env=_env(),
                          check=False)
    if done.returncode:
        raise RuntimeError(f"importing from {folder} failed:\n{done.stderr}")
    return float(done.stdout)


def drop_caches(folder: Path) -> None:
    """The modules' bytecode caches removed: the next import compiles (desugars) and writes them."""
    for path in (folder / "__pycache__").glob("mod_*.pyc"):
        path.unlink()


def _syscalls_per_module(folder: Path, count: int) -> dict[str, float] | None:
    strace = shutil.which("strace")
    if strace is None:
        return None
    counts = []
    for n in (0, count):
        with tempfile.NamedTemporaryFile(prefix="tagstr-strace-", suffix=".txt") as out:
            subprocess.run([strace, "-f", "-c", "-e", "trace=%file,read,close", "-o", out.name,
                            *_command(folder, n, "perf_counter")], env=_env(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            found: dict[str, int] = {}
            for line in Path(out.name).read_text().splitlines():
                fields = line.split()
                if len(fields) >= 5 and fields[3].isdigit() and fields[-1] not in ("total", "syscall"):
                    found[fields[-1]] = int(fields[3])
            counts.append(found)
    names = sorted(set(counts[0]) | set(counts[1]))
    return {name: round((counts[1].get(name, 0) - counts[0].get(name, 0)) / count, 2) for name in names
            if counts[1].get(name, 0) != counts[0].get(name, 0)}


PHASES = {
    "warm": "files in the page cache",
    "cold": "files dropped from the page cache",
    "first": "no cache: compiled (tag strings: desugared) and cached",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=400)
    parser.add_argument("--kind", choices=KINDS, default="typical",
                        help="typical: typical_module.py's block; small: five tag strings in four functions; "
                             "dense: ten functions of two tag strings each (issue 42)")
    parser.add_argument("--runs", type=int, default=11, help="fresh interpreters per variant and phase")
    parser.add_argument("--quick", action="store_true", help="3 runs")
    parser.add_argument("--strace", action="store_true", help="count file-system calls per module")
    parser.add_argument("--wall", action="store_true",
                        help="warm: time.perf_counter (wall clock) instead of the process's CPU time")
    parser.add_argument("--src", action="append", type=Path, default=[], metavar="DIR",
                        help="also the tag-string modules with another checkout's src/ (repeatable: before/after)")
    parser.add_argument("--phases", default="warm,cold,first", help="any of warm, cold, first")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    count = args.modules
    phases = [phase for phase in args.phases.split(",") if phase]
    warm_clock = "perf_counter" if args.wall else "process_time"
    clocks = {"warm": warm_clock, "cold": "perf_counter", "first": "process_time"}
    from compiled_speedups import ensure

    print(f"runtime: {ensure()}")
    print(f"Python {sys.version.split()[0]} ({sys.executable}); {count} {args.kind} modules, {runs} interpreters"
          f" per variant and phase, alternating; warm: time.{warm_clock}, cold: time.perf_counter, first: "
          "time.process_time", flush=True)
    tagged, twin = "tag strings, hook cache", "f-string twins, pycs"
    srcs = {tagged: SRC, twin: SRC}
    for extra in args.src:
        srcs[f"tag strings, {extra.resolve()}"] = extra.resolve()
    with tempfile.TemporaryDirectory(prefix="tagstr-bench-import-") as tmp:
        folders = {label: Path(tmp) / f"variant{index}" for index, label in enumerate(srcs)}
        for label, folder in folders.items():
            write_modules(folder, count, fstrings=label == twin, kind=args.kind)
            _run(folder, count, "perf_counter", srcs[label])  # writes the caches
        tagged_cache = sorted((folders[tagged] / "__pycache__").glob("mod_*.pyc"))
        if len(tagged_cache) != count or any(".tagstr-" not in p.name for p in tagged_cache):
            raise RuntimeError(f"expected {count} hook caches, found {[p.name for p in tagged_cache][:5]}...")
        sizes = {label: statistics.mean(p.stat().st_size for p in (folder / "__pycache__").glob("mod_*.pyc"))
                 for label, folder in folders.items()}
        times: dict[str, dict[str, list[float]]] = {label: {phase: [] for phase in phases} for label in folders}
        can_evict = True
        for _ in range(runs):  # interleaved: drift hits every variant alike
            for label, folder in folders.items():
                src = srcs[label]
                if "warm" in phases:
                    times[label]["warm"].append(_run(folder, count, clocks["warm"], src))
                if "cold" in phases:
                    can_evict = evict(folder)
                    if can_evict:
                        times[label]["cold"].append(_run(folder, count, clocks["cold"], src))
                if "first" in phases:
                    drop_caches(folder)
                    times[label]["first"].append(_run(folder, count, clocks["first"], src))
        calls = {label: _syscalls_per_module(folder, count) for label, folder in folders.items()} \
            if args.strace else {}
    result: dict[str, Any] = {"python": sys.version.split()[0], "modules": count, "kind": args.kind, "runs": runs,
                              "clocks": clocks, "cache_bytes": {k: round(v) for k, v in sizes.items()},
                              "srcs": {label: str(src) for label, src in srcs.items()}}
    print(f"  mean cache file: {sizes[tagged]:,.0f} bytes (tag strings) vs {sizes[twin]:,.0f} (twins' pycs)")
    for phase in phases:
        if not times[tagged][phase]:
            print(f"  {phase}: not measured (no posix_fadvise to drop the files from the page cache)")
            continue
        med = {label: statistics.median(times[label][phase]) * 1e3 for label in folders}
        low = {label: min(times[label][phase]) * 1e3 for label in folders}
        ratios = {label: med[label] / med[twin] for label in folders if label != twin}
        ratio = ratios[tagged]
        result[phase] = {"ms_median": med, "ms_min": low, "ratio": ratio, "ratios": ratios}
        print(f"  {phase} ({PHASES[phase]}): importing {count} modules in a fresh interpreter, ms (median / min)")
        for label in folders:
            print(f"      {label:<26} {med[label]:>9.1f} / {low[label]:.1f}"
                  + (f"   {ratios[label]:.2f}x" if label in ratios else ""))
        verdict = "OK  " if ratio <= TARGETS[phase] else "MISS"
        print(f"    ratio of medians {ratio:>6.2f}x   {verdict} (target <= {TARGETS[phase]:g})")
    for label, per_module in calls.items():
        if per_module is not None:
            print(f"  file-system calls per import, {label}: {per_module}")
            result.setdefault("syscalls_per_import", {})[label] = per_module
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
