"""The desugarer alone, per emitter, on the stdlib and on the benchmark modules.

    python benchmarks/bench_desugar.py [--corpus stdlib,typical,dense] [--emitter runtime,checker,lint]
                                       [--repeats N] [--instructions] [--src DIR ...]

Every consumer (the runtime's compile and import hook, the mypy plugin, the
flake8 plugin) runs the same desugarer: the scanner, the placeholder text,
CPython's parse of it and the generator, writing through the consumer's
emitter.  This times that alone, without the tool around it:

* ``stdlib``: every module of the running Python's standard library that
  compiles (no tag strings: the scan, then CPython's parse of the source as
  given), against ``compile(..., PyCF_ONLY_AST)`` of the same files;
* ``typical``: the 9,000-line module of ``typical_module.py`` (html/sql tag
  strings as an application has them);
* ``dense``: the 20,000-line dense views of ``dense_module.py`` (5,000 tag
  strings, 10,000 interpolations);
* ``modules``: 300 small modules of ``bench_import.py --kind dense`` (ten
  functions of two tag strings each), compiled to code objects as their first
  import compiles them (emitter ``code``: ``run.compile.compile_source``, the
  desugarer then CPython's compile of its tree) against CPython compiling their
  f-string twins (``twins``): issue 42's row, the desugarer's speed at a
  project's first import.  The ratio is printed (``bench_import.py --phases
  first`` times the imports themselves, caches written).

Emitters: ``runtime`` (``Desugaring``'s default: code that runs), ``checker``
(the mypy plugin's ``checker_tree``), ``lint`` (the flake8 plugin's
``LintEmitter``).  The cyclic collector is off throughout (mypy keeps it off
while it parses, the runtime and the flake8 plugin pause it around the
desugarer).

Default: CPU seconds, the minimum of ``--repeats`` runs.  ``--instructions``:
instructions counted by ``valgrind --tool=callgrind`` (deterministic, so
meaningful on a busy machine), one run that desugars minus one that only
loads the same files.  ``--src DIR`` (repeatable) benchmarks other checkouts'
``src/`` side by side (each variant in its own interpreters, alternated
repeat by repeat); by default this checkout's.  Prints a table, then
``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

CORPORA = ("stdlib", "typical", "dense", "modules")
EMITTERS = ("runtime", "checker", "lint")
#: stdlib folders whose files are test data (some deliberately broken) or not Python's own
_SKIPPED = re.compile(r"(^|/)(test|tests|idle_test|site-packages|lib2to3)(/|$)")


def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = []
    for path in sorted(root.rglob("*.py")):
        if _SKIPPED.search(path.relative_to(root).as_posix()):
            continue
        try:
            compile(path.read_text(encoding="utf-8"), str(path), "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError):  # (UnicodeDecodeError is a ValueError)
            continue
        files.append(path)
    return files


def write_corpora(folder: Path) -> dict[str, list[str]]:
    sys.path.insert(0, str(HERE))
    from dense_module import write_dense_pair
    from typical_module import write_module_pair

    from bench_import import write_modules

    (folder / "typical").mkdir()
    (folder / "dense").mkdir()
    typical, _ = write_module_pair(folder / "typical", 9000)
    dense, _ = write_dense_pair(folder / "dense", 20000)
    write_modules(folder / "modules", 300, fstrings=False, kind="dense")
    write_modules(folder / "twins", 300, fstrings=True, kind="dense")
    return {
        "stdlib": [str(p) for p in stdlib_files()],
        "typical": [str(typical)],
        "dense": [str(dense)],
        "modules": [str(folder / "modules" / f"mod_{i}.py") for i in range(300)],
    }


# -- worker: runs in a fresh interpreter with the variant's src first on sys.path -------


def _desugar_function(emitter: str) -> Callable[[str, str], object]:
    version = sys.version_info[:2]
    if emitter == "runtime":
        from tagstr_runtime.frontend import Desugaring

        return lambda text, name: Desugaring(text, name)
    if emitter == "checker":
        from tagstr_mypy.parse.checker_tree import checker_tree

        return lambda text, name: checker_tree(text, name, version, char_columns=True)
    if emitter == "lint":
        from tagstr_flake8.lint.tag_file import LintEmitter
        from tagstr_runtime.frontend import Desugaring as LintDesugaring

        return lambda text, name: LintDesugaring(text, name, emitter=LintEmitter(), emit_warnings=False)
    if emitter == "compile":  # the baseline: CPython's tree of the source as given
        return lambda text, name: compile(text, name, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    if emitter == "code":  # what a first import does: the builtin fails, the desugarer and compile follow
        from tagstr_runtime.run.compile import compile_source

        def code(text: str, name: str) -> object:
            try:
                return compile(text, name, "exec", dont_inherit=True)
            except SyntaxError as error:
                return compile_source(text, name, "exec", 0, True, -1, error)

        return code
    if emitter == "twins":  # the baseline of ``code``: CPython compiling each module's f-string twin
        return lambda text, name: compile(text, name.replace("/modules/", "/twins/"), "exec", dont_inherit=True)
    raise SystemExit(f"unknown emitter {emitter!r}")


def worker(files: list[str], emitter: str, load_only: bool) -> None:
    """Desugar ``files`` once (after a first desugaring of the first file: imports, caches)
    and print the CPU seconds it took."""
    gc.disable()
    if emitter == "twins":
        files = [name.replace("/modules/", "/twins/") for name in files]
    texts = [(Path(name).read_text(encoding="utf-8"), name) for name in files]
    desugar = _desugar_function(emitter)
    desugar(*texts[0])
    start = time.process_time()
    if not load_only:
        for text, name in texts:
            desugar(text, name)
    print(time.process_time() - start)


# -- driver ---------------------------------------------------------------------------


def _worker_command(files_list: Path, emitter: str, load_only: bool) -> tuple[list[str], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["TAGSTR_AUTOLOAD"] = "0"
    env["PYTHONHASHSEED"] = "0"  # dict and set layouts alike in every run: instruction counts repeat
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(files_list), emitter,
               "1" if load_only else "0"]
    return command, env


def worker_seconds(src: Path, files_list: Path, emitter: str) -> float:
    """CPU seconds of one desugaring of the corpus in a fresh interpreter with ``src`` first."""
    command, env = _worker_command(files_list, emitter, False)
    proc = subprocess.run(command, env={**env, "PYTHONPATH": str(src)}, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"worker failed:\n{proc.stdout}\n{proc.stderr[-2000:]}")
    return float(proc.stdout.strip().splitlines()[-1])


def worker_instructions(src: Path, files_list: Path, emitter: str, load_only: bool) -> int:
    """Instructions (callgrind) of a worker that desugars the corpus once, or only loads it."""
    command, env = _worker_command(files_list, emitter, load_only)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                              env={**env, "PYTHONPATH": str(src)}, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode or found is None:
        raise SystemExit(f"worker failed:\n{proc.stdout}\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=",".join(CORPORA))
    parser.add_argument("--emitter", default=",".join(EMITTERS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind")
    parser.add_argument("--src", type=Path, action="append", help="a checkout's src/ (repeatable)")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        files_list, emitter, load_only = args.worker
        worker(json.loads(Path(files_list).read_text()), emitter, load_only == "1")
        return 0
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind")
    sources = [p.resolve() for p in (args.src or [REPO / "src"])]
    corpora = args.corpus.split(",")
    emitters = args.emitter.split(",")
    results: dict[str, object] = {"python": sys.version.split()[0], "src": [str(s) for s in sources]}
    with tempfile.TemporaryDirectory(prefix="bench-desugar-") as tmp:
        work = Path(tmp)
        files = write_corpora(work)
        for corpus in corpora:
            files_list = work / f"{corpus}.json"
            files_list.write_text(json.dumps(files[corpus]))
            lines = sum(Path(f).read_text(encoding="utf-8").count("\n") for f in files[corpus])
            print(f"{corpus}: {len(files[corpus])} files, {lines} lines")
            row: dict[str, object] = {"files": len(files[corpus]), "lines": lines}
            chosen = ["code", "twins"] if corpus == "modules" else emitters
            for emitter in [*chosen, *(["compile"] if corpus == "stdlib" else [])]:
                if args.instructions:
                    for src in sources:
                        count = (worker_instructions(src, files_list, emitter, False)
                                 - worker_instructions(src, files_list, emitter, True))
                        row[f"{emitter}@{src}"] = count
                        print(f"  {emitter:8s} {count / 1e9:8.3f} G instructions   {src}")
                    continue
                times: dict[Path, list[float]] = {src: [] for src in sources}
                for repeat in range(args.repeats):  # the variants alternate, repeat by repeat
                    for src in sources if repeat % 2 == 0 else sources[::-1]:
                        times[src].append(worker_seconds(src, files_list, emitter))
                for src, found in times.items():
                    low, middle = min(found), statistics.median(found)
                    row[f"{emitter}@{src}"] = {"min": round(low, 4), "median": round(middle, 4)}
                    print(f"  {emitter:8s} min {low:.4f}s median {middle:.4f}s   {src}")
            if corpus == "modules":
                for src in sources:
                    code, twins = row.get(f"code@{src}"), row.get(f"twins@{src}")
                    if isinstance(code, dict) and isinstance(twins, dict):
                        ratio = code["median"] / twins["median"]
                    elif isinstance(code, int) and isinstance(twins, int):
                        ratio = code / twins
                    else:
                        continue
                    row[f"ratio@{src}"] = round(ratio, 3)
                    print(f"  code / twins: {ratio:.2f}x (target <= 4)   {src}")
            results[corpus] = row
    print("BENCH_JSON " + json.dumps(results, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
