"""Run a multi-module program in this process, before and after the migration.

A program is a folder of modules (``app/``, plus the roots of what it imports
from elsewhere) and its entry file.  Its modules are imported by a finder of
their own, each compiled by the function given, so one process can run the
same program as tag strings (``before``: what 3.11-3.13 run, on any Python)
and as t-strings (``after``: natively on 3.14; before 3.14 with stand-in
``t``/``rt`` tags that build the same templates, eagerly and in order).
Pyodide cannot start subprocesses: everything happens in-process.
"""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.util
import io
import re
import sys
import types
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import tagstr_runtime
from tagstr_runtime import template_tag
from tagstr_runtime.run.compile import desugar_ast
from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.syntax.source import decode_source

PY314 = sys.version_info >= (3, 14)

Compiler = Callable[[str, str], Any]  # (text, path) -> code


def compile_before(text: str, path: str) -> Any:
    """As 3.11-3.13 run it: ``t"..."`` is a tag string too."""
    return compile(desugar_ast(text, path, template_strings=False), path, "exec")


def compile_after(text: str, path: str) -> Any:
    """As 3.14 runs it with ``tagstr_runtime``: t-strings native, the tag strings left desugared.
    Before 3.14 ``t"..."`` is a tag string, and ``stand_ins`` provide ``t``."""
    if PY314:
        return tagstr_runtime.compile(text, path, "exec")
    return compile(desugar_ast(text, path), path, "exec")


def stand_ins() -> dict[str, Any]:
    """Before 3.14: builtins ``t``, ``rt`` building the templates ``t"..."`` and ``rt"..."`` build."""
    if PY314:
        return {}
    return {"t": template_tag(lambda template: template), "rt": template_tag(lambda template: template, raw=True)}


class _Loader(importlib.abc.Loader):
    def __init__(self, path: Path, compiler: Compiler) -> None:
        self.path = path
        self.compiler = compiler

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        code = self.compiler(decode_source(self.path.read_bytes()), str(self.path))
        exec(code, module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the program's modules under its roots, and only those."""

    def __init__(self, roots: Sequence[Path], compiler: Compiler) -> None:
        self.roots = [root.resolve() for root in roots]
        self.compiler = compiler

    def _ours(self, folder: Path) -> bool:
        return any(folder == root or root in folder.parents for root in self.roots)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        bases = self.roots if path is None else [Path(p).resolve() for p in path if self._ours(Path(p).resolve())]
        last = fullname.rpartition(".")[2]
        for base in bases:
            package = base / last / "__init__.py"
            if package.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, package, loader=_Loader(package, self.compiler),
                    submodule_search_locations=[str(package.parent)],
                )
            module = base / f"{last}.py"
            if module.is_file():
                return importlib.util.spec_from_file_location(fullname, module, loader=_Loader(module, self.compiler))
        return None


def _forget(roots: Sequence[Path]) -> None:
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and any(root.resolve() in Path(file).resolve().parents for root in roots):
            del sys.modules[name]


def run_program(main: Path, roots: Sequence[Path], compiler: Compiler, builtin_names: dict[str, Any]) -> str:
    """What ``main`` prints, its imports found under ``roots`` and compiled by ``compiler``."""
    finder = _Finder(roots, compiler)
    _forget(roots)
    sys.meta_path.insert(0, finder)
    saved = {name: getattr(builtins, name) for name in builtin_names if hasattr(builtins, name)}
    for name, value in builtin_names.items():
        setattr(builtins, name, value)
    out = io.StringIO()
    try:
        namespace = {"__name__": "__main__", "__file__": str(main)}
        code = compiler(main.read_text(encoding="utf-8"), str(main))
        with redirect_stdout(out):
            exec(code, namespace)
    finally:
        sys.meta_path.remove(finder)
        for name in builtin_names:
            if name in saved:
                setattr(builtins, name, saved[name])
            else:
                delattr(builtins, name)
        _forget(roots)
    return out.getvalue()


class Outcome(NamedTuple):
    """What a run of a program shows: its output, the shape of its error output, its status."""

    stdout: str
    #: each warning (category and message), each line written to stderr, and the last line of
    #: the traceback of an error that ended the program (tracebacks differ in their frames)
    stderr: tuple[str, ...]
    status: int


def run_outcome(main: Path, roots: Sequence[Path], compiler: Compiler, builtin_names: dict[str, Any]) -> Outcome:
    """Run ``main`` as ``python main.py`` would, in this process: what it shows (``Outcome``)."""
    finder = _Finder(roots, compiler)
    _forget(roots)
    sys.meta_path.insert(0, finder)
    saved = {name: getattr(builtins, name) for name in builtin_names if hasattr(builtins, name)}
    for name, value in builtin_names.items():
        setattr(builtins, name, value)
    out, err = io.StringIO(), io.StringIO()
    status, last = 0, ""
    try:
        with warnings.catch_warnings(record=True) as caught, redirect_stdout(out), redirect_stderr(err):
            warnings.simplefilter("always")
            try:
                namespace = {"__name__": "__main__", "__file__": str(main)}
                exec(compiler(decode_source(main.read_bytes()), str(main)), namespace)
            except SystemExit as done:
                code = done.code
                status = code if isinstance(code, int) else 0 if code is None else 1
                if isinstance(code, str):
                    last = code
            except Exception as error:  # noqa: BLE001 - what ends the program is the outcome
                status, last = 1, f"{type(error).__name__}: {error}"
    finally:
        sys.meta_path.remove(finder)
        for name in builtin_names:
            if name in saved:
                setattr(builtins, name, saved[name])
            else:
                delattr(builtins, name)
        _forget(roots)
    said = [f"{w.category.__name__}: {w.message}" for w in caught]
    said += err.getvalue().splitlines()
    if last:
        said.append(last)
    return Outcome(out.getvalue(), tuple(said), status)


# -- what a program's files expect of the migration --------------------------------------

_EXPECT = re.compile(r"#\s*expect:\s*((?:MIG\d{3}\s*)+)$")
REPORT = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>MIG\d{3}) ")


class Expectation(NamedTuple):
    path: Path
    line: int
    code: str


def expectations(root: Path) -> set[Expectation]:
    """The ``# expect: MIGnnn`` comments of every module under ``root``."""
    found: set[Expectation] = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = _EXPECT.search(line)
            if match:
                found.update(Expectation(path.resolve(), number, code) for code in match.group(1).split())
    return found


def reported(output: str) -> set[Expectation]:
    """The reasons the command printed, as (path, line, code)."""
    found: set[Expectation] = set()
    for line in output.splitlines():
        match = REPORT.match(line)
        if match:
            found.add(Expectation(Path(match["path"]).resolve(), int(match["line"]), match["code"]))
    return found


def tag_string_lines(text: str) -> Iterator[int]:
    """The lines where the tag strings of a module (t-strings aside) start."""
    from tagstr_runtime.syntax.source import SourceText

    source = SourceText(text)
    for top in parse(text, "<program>", template_strings=True).tag_strings:
        for tag in top.walk():
            yield source.pos(tag.span.start).line
