"""A real template library end to end: a tdom page of tag strings vs the same page of t-strings.

    python benchmarks/bench_tdom.py [--rows 50] [--repeats 41] [--pyodide 3.14]

Issue 42, row 1.  tdom (an HTML library written for Python 3.14's
t-strings) renders a page of ``--rows`` table rows, each row a template with
six interpolations (a class attribute, an attribute, four cells, one with a
format spec) and the page a template holding the list of rows.  Two versions
of the same module, compiled by ``tagstr_runtime.compile``:

- tag strings: ``html = template_tag(tdom.html)`` renders the page and
  ``tmpl = template_tag(lambda template: template)`` makes each row's
  ``Template``, written ``tmpl"<tr ...>"`` and ``html"<html>..."``;
- native: the same text with ``t"<tr ...>"`` and ``tdom.html(t"<html>...")``.

Both must render the same HTML (checked first).  It runs in CPython 3.14 in
Pyodide under node (``tools/pyodide/run_python.mjs``; tdom is installed as the
``pyodide314`` tox env installs it, ``tools/run_pyodide_tests.py``): one
process, the two pages rendered alternately, ``--pages`` renders per timing,
``--repeats`` timings each (the collector off; the wall clock of the one
thread); prints each page's time (median / min over the repeats), the median
over the repeats of the ratio within each repeat, and the ratio of the
minima.  Also timed alone, per row: the tag string's evaluation (its
arguments, as a tag receives them), the bridge making its ``Template`` from
ready arguments, and the native t-string.  Target: <= 1.05x.  The last line
is ``BENCH_JSON {...}``.  The checkout's ``src/`` is benchmarked (``--src DIR``:
another checkout's).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
TARGET = 1.05

#: Runs in Pyodide; prints one line ``TDOM_JSON {...}``.
WORKER = r'''
import gc, json, statistics, sys, time
sys.path[:0] = [{src!r}, {deps!r}]
import tdom
import tagstr_runtime
from tagstr_runtime import template_tag

ROWS, PAGES, REPEATS = {rows}, {pages}, {repeats}
ROW = ('"<tr class={{user.css}}><td>{{user.id}}</td><td><a href={{user.url}}>{{user.name}}</a></td>'
       '<td>{{user.email}}</td><td>{{user.score:.1f}}</td></tr>"')
PAGE = ('"<html><head><title>{{title}}</title></head><body><h1>{{title}}</h1>'
        '<table>{{[row(u) for u in users]}}</table></body></html>"')
TAGGED = (
    "html = template_tag(tdom.html)\n"
    "tmpl = template_tag(lambda template: template)\n\n"
    "def args(*parts):\n    return parts\n\n"
    "def row(user):\n    return tmpl" + ROW + "\n\n"
    "def row_args(user):\n    return args" + ROW + "\n\n"
    "def page(title, users):\n    return html" + PAGE + "\n"
)
NATIVE = (TAGGED.replace('tmpl"', 't"').replace('args"', 't"').replace('html"', 'html(t"')
          .replace('</html>"', '</html>")').replace("html = template_tag(tdom.html)", "html = tdom.html"))


class User:
    def __init__(self, i):
        self.id, self.name, self.email = i, f"User <{{i}}>", f"u{{i}}@example.org"
        self.url, self.score, self.css = f"/users/{{i}}?a=1&b=2", i * 1.5, "odd" if i % 2 else "even"


users = [User(i) for i in range(ROWS)]
modules = {{}}
for label, text in (("tag strings", TAGGED), ("native", NATIVE)):
    namespace = {{"tdom": tdom, "template_tag": template_tag, "__name__": label}}
    exec(tagstr_runtime.compile(text, f"<{{label}}>", "exec"), namespace)
    modules[label] = namespace
pages = {{label: namespace["page"] for label, namespace in modules.items()}}
html = {{label: page("Users", users) for label, page in pages.items()}}
if html["tag strings"] != html["native"]:
    raise SystemExit("the two pages differ:\n" + html["tag strings"][:500] + "\n" + html["native"][:500])
clock = time.perf_counter
for page in pages.values():  # warm up: tdom's caches, the bridge's sites, specialisation
    for _ in range(20):
        page("Users", users)
ms = {{label: [] for label in pages}}
gc.disable()
try:
    for _ in range(REPEATS):
        for label, page in pages.items():
            start = clock()
            for _ in range(PAGES):
                page("Users", users)
            ms[label].append((clock() - start) / PAGES * 1e3)
finally:
    gc.enable()
# per row, alone: the tag string's arguments, the bridge from ready arguments, the t-string
user = users[1]
tag_row, row_args = modules["tag strings"]["row"], modules["tag strings"]["row_args"]
native_row = modules["native"]["row"]
ready = row_args(user)
tmpl = modules["tag strings"]["tmpl"]
parts = {{"tag string, as a tag receives it": lambda: row_args(user),
         "bridge, from ready arguments": lambda: tmpl(*ready),
         "tag string through the bridge": lambda: tag_row(user), "native t-string": lambda: native_row(user)}}
ns = {{label: [] for label in parts}}
gc.disable()
try:
    for _ in range(15):
        for label, run in parts.items():
            start = clock()
            for _ in range(2000):
                run()
            ns[label].append((clock() - start) / 2000 * 1e9)
finally:
    gc.enable()
print("TDOM_JSON " + json.dumps({{"python": sys.version.split()[0], "tdom": getattr(tdom, "__version__", "?"),
                                 "rows": ROWS, "pages": PAGES, "ms": ms, "row_ns": ns}}))
'''


def run_worker(version: str, rows: int, pages: int, repeats: int, src: Path = SRC) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tools"))
    from run_pyodide_tests import _cache_for, ensure_deps, pyodide_command

    root = Path(os.environ["TAGSTR_PYODIDE_CACHE"]).resolve() if os.environ.get("TAGSTR_PYODIDE_CACHE") else \
        REPO / ".cache" / "pyodide"
    command = pyodide_command(version, root)
    deps = ensure_deps(_cache_for(version, root), version)  # tdom and markupsafe, as the pyodide env has them
    code = WORKER.format(src=str(src), deps=str(deps), rows=rows, pages=pages, repeats=repeats)
    done = subprocess.run([*command, "--mount", str(src), "--mount", str(deps), "-c", code],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the Pyodide worker failed:\n{done.stdout}\n{done.stderr}")
    for line in done.stdout.splitlines():
        if line.startswith("TDOM_JSON "):
            result: dict[str, Any] = json.loads(line[len("TDOM_JSON "):])
            return result
    raise SystemExit(f"no result from the worker:\n{done.stdout}\n{done.stderr}")


def main(argv: list[str] | None = None) -> int:
    import statistics

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--pages", type=int, default=10, help="renders per timing")
    parser.add_argument("--repeats", type=int, default=41, help="timings per page")
    parser.add_argument("--pyodide", default="3.14", metavar="X.Y", help="CPython in Pyodide (3.14)")
    parser.add_argument("--src", type=Path, default=SRC, help="another checkout's src/ (before/after)")
    args = parser.parse_args(argv)
    result = run_worker(args.pyodide, args.rows, args.pages, args.repeats, args.src.resolve())
    tagged, native = result["ms"]["tag strings"], result["ms"]["native"]
    ratio = statistics.median(a / b for a, b in zip(tagged, native))
    result["ratio"] = {"median_of_ratios": ratio, "ratio_of_minima": min(tagged) / min(native)}
    print(f"tdom {result['tdom']} on CPython {result['python']} (Pyodide): a {args.rows}-row page, ms per page "
          f"(median / min of {args.repeats} timings of {args.pages} pages, alternating)")
    for label, values in result["ms"].items():
        print(f"    {label:<40} {statistics.median(values):8.3f} / {min(values):.3f}")
    print("  one row alone, ns (median / min of 15 timings):")
    for label, values in result["row_ns"].items():
        print(f"    {label:<40} {statistics.median(values):8.0f} / {min(values):.0f}")
    verdict = "OK  " if ratio <= TARGET else "MISS"
    print(f"  tag strings / native: {ratio:.3f}x (median of ratios)  {verdict} (target <= {TARGET}); "
          f"ratio of minima {result['ratio']['ratio_of_minima']:.3f}x")
    print("BENCH_JSON " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
