"""mypy with the tagstr plugin vs stock mypy, side by side in one run.

    python benchmarks/bench_mypy.py [--quick] [--repeats N] [--codebase PATH] [--only a,b,c,d,e] [--lines N]

(a) a large real typed codebase without tag strings, installed from PyPI
    (``rich``, downloaded as a wheel with pip; or any package directory given
    with ``--codebase``): cold ``mypy -p`` with the plugin enabled vs without.
    Target: <= 1.01.
(b) a generated corpus dense with tag strings, checked with the plugin, vs the
    same corpus hand-desugared (``tagstr_runtime.desugar``: plain calls to the
    tags with ``Decoded``/``Interpolation`` arguments) checked by stock mypy.
    Target: <= 1.15.
(c) the typical module of html/sql tag strings (``typical_module.py``, ~9,000
    lines, shared with ``bench_flake8.py``) checked with the plugin vs its
    f-string twin (each ``tag"..."`` written ``tag(f"...")``) checked by stock
    mypy, both with ``--check-untyped-defs``: what a user pays over the code
    they would otherwise write (the honest baseline; (b)'s hand-desugared twin
    flatters us). Target: <= 1.3. The module's hand-desugared calls (typed
    imports), checked by stock mypy, are timed too: what the semantics cost.
(d) dense views (``dense_module.py``: four tag strings and eight interpolations
    per view, an ``html`` tag typed with a union, a generic ``sql`` tag), ~9,000
    lines, with the plugin vs its f-string twin on stock mypy, both ``--strict``.
    Target: <= 1.3.
(e) the same at ~20,000 lines. Target: <= 1.3.
(f) dense views without a dataclass per view (``write_dense_views``: one
    dataclass, then views of four tag strings and eight interpolations, a
    union-typed ``html`` tag, a generic ``sql`` tag, a tag string in a list
    comprehension, a format spec with a field), at ~3,000, ~9,000 and ~20,000
    lines, with the plugin vs the f-string twin on stock mypy, both
    ``--strict``. Target: <= 1.3 at each size.

Every run is cold (a fresh cache directory). Variants alternate repeat by
repeat, so drift on a busy machine hits both alike; the minimum and the median
of the CPU seconds of the mypy process are reported. Needs mypy (the ``mypy`` extra) in the running
interpreter; the checkout's ``src/`` is put first on ``PYTHONPATH``. Prints a
table, then ``BENCH_JSON {...}`` with every number.
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
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
sys.path.insert(0, str(SRC))

import tagstr_runtime  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
from dense_module import write_dense_pair, write_dense_views  # noqa: E402
from typical_module import write_module_pair  # noqa: E402

TARGETS = {
    "a_codebase_ratio": 1.01, "b_dense_ratio": 1.15, "c_fstring_ratio": 1.3,
    "d_dense_ratio": 1.3, "e_dense_large_ratio": 1.3,
    "f_views_3000_ratio": 1.3, "f_views_9000_ratio": 1.3, "f_views_20000_ratio": 1.3,
}
#: the sizes of (f), in lines
VIEW_SIZES = (3000, 9000, 20000)

TAGS_MODULE = '''\
from __future__ import annotations

from typing import Any, TypeVar

from tagstr_runtime import Decoded, Interpolation

T = TypeVar("T")


class HTML(str):
    pass


def html(*args: Decoded | Interpolation[str | int | HTML]) -> HTML:
    return HTML("".join(str(a) for a in args))


def sql(*args: Decoded | Interpolation[int | str | float | None]) -> tuple[str, list[Any]]:
    return ("", [])


def collect(*args: Decoded | Interpolation[T]) -> list[T]:
    return []


class Delayed:
    def __init__(self, *args: Decoded | Interpolation) -> None:
        self.args = args
'''

SHAPES = [
    'html"<p>{user.name}</p>"',
    'html"<a href=\'{url}\'>{user.name!r:>{width}}</a> {count}"',
    'sql"SELECT * FROM t WHERE id = {user.id} AND name = {user.name}"',
    'collect"{count} {count + 1} {len(items)}"',
    'html"<ul>{html"<li>{user.name}</li>"}</ul>"',
    'Delayed"lazy {user.id} {[i * 2 for i in items]}"',
    'html"{ user.name = }"',
    'sql"{score:.2f} {None}"',
]


def generate_corpus(root: Path, modules: int, functions: int, seed: int) -> tuple[Path, Path, int]:
    """Write the tag-string corpus and its desugared twin; return both dirs and the line count."""
    rng = random.Random(seed)
    tagged, plain = root / "tagged" / "dense", root / "plain" / "dense"
    lines = 0
    for target in (tagged, plain):
        target.mkdir(parents=True)
        (target / "__init__.py").write_text("", encoding="utf-8")
        (target / "tags.py").write_text(TAGS_MODULE, encoding="utf-8")
    for index in range(modules):
        out = [
            "from __future__ import annotations\n",
            "from dense.tags import HTML, Delayed, collect, html, sql\n\n\n",
            "class User:\n    id: int = 0\n    name: str = ''\n\n\n",
        ]
        for number in range(functions):
            params = "user: User, url: str, width: int, count: int, score: float, items: list[int]"
            body = [f"def f{number}({params}) -> list[object]:\n",
                    "    out: list[object] = []\n"]
            for _ in range(rng.randint(3, 6)):
                body.append(f"    out.append({rng.choice(SHAPES)})\n")
            body.append("    return out\n\n\n")
            out.extend(body)
        text = "".join(out)
        lines += text.count("\n")
        (tagged / f"m{index}.py").write_text(text, encoding="utf-8")
        (plain / f"m{index}.py").write_text(tagstr_runtime.desugar(text), encoding="utf-8")
    return tagged.parent, plain.parent, lines


def typed_desugaring(text: str) -> str:
    """The module written as the calls its tag strings make, with the runtime's names
    imported (the text form reaches them through ``__import__``, an ``Any`` to mypy)."""
    import re

    desugared = tagstr_runtime.desugar(text)
    names = sorted(set(re.findall(r"__import__\('tagstr_runtime'\)\.(\w+)", desugared)))
    body = re.sub(r"__import__\('tagstr_runtime'\)\.", "", desugared)
    future = "from __future__ import annotations\n"
    head, found, rest = body.partition(future)  # a __future__ import must stay first
    imports = f"from tagstr_runtime import {', '.join(names)}\n"
    return head + future + imports + rest if found else imports + body


def fetch_codebase(work: Path) -> tuple[Path, str]:
    """``rich`` from PyPI (a typed, pure-Python package of ~50k lines)."""
    download = work / "download"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
         "--dest", str(download), "rich"],
        check=True,
    )
    wheel = next(download.glob("rich-*.whl"))
    target = work / "codebase"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target, wheel.name


def mypy_time(cwd: Path, args: list[str], plugin: bool | Path, work: Path) -> float:
    """CPU seconds of one cold ``mypy`` run; ``plugin``: with the plugin (a path: that
    checkout's ``src/`` instead of this one's)."""
    config = work / ("with.ini" if plugin else "without.ini")
    config.write_text("[mypy]\n" + ("plugins = tagstr_mypy\n" if plugin else ""), encoding="utf-8")
    cache = Path(tempfile.mkdtemp(dir=work, prefix="cache-"))
    src = plugin if isinstance(plugin, Path) else SRC
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")])}
    env.pop("MYPYPATH", None)
    # as users run it: modules load from their bytecode caches (the first run writes them)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache),
         "--ignore-missing-imports", "--follow-imports", "silent", *args],
        cwd=cwd, env=env, capture_output=True, text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds of the mypy process: a busy machine makes it wait for a core,
    # which the wall clock would count against whichever variant met the load
    elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shutil.rmtree(cache, ignore_errors=True)
    if "INTERNAL ERROR" in proc.stdout + proc.stderr or "Traceback" in proc.stderr:
        raise SystemExit(f"mypy crashed:\n{proc.stdout}\n{proc.stderr}")
    return elapsed


def compare(
    name: str, runs: list[tuple[str, Path, list[str], bool | Path]], repeats: int, work: Path
) -> dict[str, object]:
    times: dict[str, list[float]] = {label: [] for label, *_ in runs}
    for repeat in range(repeats):
        order = runs if repeat % 2 == 0 else runs[::-1]
        for label, cwd, args, plugin in order:
            times[label].append(mypy_time(cwd, args, plugin, work))
    (base, *_), (variant, *_) = runs[:2]  # the ratio is of these two; more runs are timed beside them
    result: dict[str, object] = {
        f"{label}_s": {"min": round(min(ts), 3), "median": round(statistics.median(ts), 3)}
        for label, ts in times.items()
    }
    for label, ts in times.items():
        if label not in (base, variant):
            result[f"{label}_ratio_median"] = round(statistics.median(ts) / statistics.median(times[base]), 3)
            print(f"{name}: {label} min {min(ts):.2f}s median {statistics.median(ts):.2f}s | "
                  f"ratio median {result[f'{label}_ratio_median']}")
    result["ratio_min"] = round(min(times[variant]) / min(times[base]), 3)
    result["ratio_median"] = round(statistics.median(times[variant]) / statistics.median(times[base]), 3)
    print(f"{name}: {base} min {min(times[base]):.2f}s median {statistics.median(times[base]):.2f}s | "
          f"{variant} min {min(times[variant]):.2f}s median {statistics.median(times[variant]):.2f}s | "
          f"ratio min {result['ratio_min']} median {result['ratio_median']}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller corpus, fewer repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--codebase", type=Path, help="a package directory to check instead of rich")
    parser.add_argument("--only", default="a,b,c,d,e,f")
    parser.add_argument("--lines", type=int, default=None, help="size of (c)'s module (default 9000)")
    parser.add_argument("--compare-src", type=Path, default=None,
                        help="another checkout's src/: its plugin is timed beside this one's, in the same runs")
    args = parser.parse_args(argv)
    other: list[tuple[str, Path]] = (
        [] if args.compare_src is None else [("plugin_compare_src", args.compare_src.resolve())]
    )
    repeats = args.repeats or (2 if args.quick else 5)
    only = set(args.only.split(","))
    results: dict[str, object] = {"python": sys.version.split()[0]}
    import mypy.version

    results["mypy"] = mypy.version.__version__
    with tempfile.TemporaryDirectory(prefix="bench-mypy-") as tmp:
        work = Path(tmp)
        if "a" in only:
            if args.codebase:
                package_dir, label = args.codebase.resolve(), str(args.codebase)
            else:
                root, label = fetch_codebase(work)
                package_dir = root / "rich"
            lines = sum(p.read_text(encoding="utf-8").count("\n") for p in package_dir.rglob("*.py"))
            print(f"(a) {label}: {lines} lines, {repeats} cold runs each")
            target = ["-p", package_dir.name]
            results["a"] = {"codebase": label, "lines": lines, **compare(
                "(a) no tag strings",
                [("stock", package_dir.parent, target, False), ("plugin", package_dir.parent, target, True),
                 *[(label, package_dir.parent, target, src) for label, src in other]],
                repeats, work,
            )}
            results["a_codebase_ratio"] = results["a"]["ratio_min"]  # type: ignore[index]
        if "b" in only:
            modules, functions = (10, 20) if args.quick else (30, 40)
            tagged, plain, lines = generate_corpus(work / "corpus", modules, functions, seed=750)
            print(f"(b) generated corpus: {modules} modules, {lines} lines, {repeats} cold runs each")
            results["b"] = {"lines": lines, **compare(
                "(b) dense tag strings",
                [("stock_on_desugared", plain, ["-p", "dense"], False),
                 ("plugin_on_tag_strings", tagged, ["-p", "dense"], True)],
                repeats, work,
            )}
            results["b_dense_ratio"] = results["b"]["ratio_min"]  # type: ignore[index]
        if "c" in only:
            folder = work / "typical"
            folder.mkdir()
            tagged, twin = write_module_pair(folder, args.lines or (3000 if args.quick else 9000))
            lines = tagged.read_text(encoding="utf-8").count("\n")
            typed = typed_desugaring(tagged.read_text(encoding="utf-8"))
            (folder / "desugared.py").write_text(typed, encoding="utf-8")
            flags = ["--check-untyped-defs"]
            print(f"(c) typical module: {lines} lines vs its f-string twin, {flags[0]}, {repeats} cold runs each")
            results["c"] = {"lines": lines, **compare(
                "(c) tag strings vs f-string twin",
                [("stock_on_fstring_twin", folder, [*flags, twin.name], False),
                 ("plugin_on_tag_strings", folder, [*flags, tagged.name], True),
                 *[(label, folder, [*flags, tagged.name], src) for label, src in other],
                 ("stock_on_hand_desugared", folder, [*flags, "desugared.py"], False)],
                repeats, work,
            )}
            results["c_fstring_ratio"] = results["c"]["ratio_median"]  # type: ignore[index]
            c = results["c"]
            seconds = {label: c[f"{label}_s"]["median"]  # type: ignore[index]
                       for label in ("stock_on_hand_desugared", "stock_on_fstring_twin")}
            hand = seconds["stock_on_hand_desugared"] / seconds["stock_on_fstring_twin"]
            c["hand_desugared_over_fstring_median"] = round(hand, 3)  # type: ignore[index]
            print(f"(c) the hand-desugared calls alone (stock mypy) / f-string twin: median {hand:.3f}")
        for key, size in (("d", 9000), ("e", 20000)):
            if key not in only:
                continue
            folder = work / f"dense-{key}"
            folder.mkdir()
            tagged, twin = write_dense_pair(folder, args.lines or (size // 3 if args.quick else size))
            lines = tagged.read_text(encoding="utf-8").count("\n")
            print(f"({key}) dense views: {lines} lines vs their f-string twin, --strict, {repeats} cold runs each")
            results[key] = {"lines": lines, **compare(
                f"({key}) dense tag strings vs f-string twin",
                [("stock_on_fstring_twin", folder, ["--strict", twin.name], False),
                 ("plugin_on_tag_strings", folder, ["--strict", tagged.name], True),
                 *[(label, folder, ["--strict", tagged.name], src) for label, src in other]],
                repeats, work,
            )}
            ratio = "d_dense_ratio" if key == "d" else "e_dense_large_ratio"
            results[ratio] = results[key]["ratio_median"]  # type: ignore[index]
        for size in VIEW_SIZES if "f" in only else ():
            size = args.lines or (size // 3 if args.quick else size)
            folder = work / f"views-{size}"
            folder.mkdir()
            tagged, twin = write_dense_views(folder, size)
            lines = tagged.read_text(encoding="utf-8").count("\n")
            key = f"f_views_{size}"
            print(f"(f) dense views, one dataclass: {lines} lines vs their f-string twin, --strict, "
                  f"{repeats} cold runs each")
            results[key] = {"lines": lines, **compare(
                f"(f) {lines} lines of views vs f-string twin",
                [("stock_on_fstring_twin", folder, ["--strict", twin.name], False),
                 ("plugin_on_tag_strings", folder, ["--strict", tagged.name], True),
                 *[(label, folder, ["--strict", tagged.name], src) for label, src in other]],
                repeats, work,
            )}
            results[f"{key}_ratio"] = results[key]["ratio_median"]  # type: ignore[index]
            if args.lines:
                break
    met = {key: results[key] <= limit for key, limit in TARGETS.items() if key in results}  # type: ignore[operator]
    results["targets_met"] = met
    print("BENCH_JSON " + json.dumps(results, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
