"""How each kind of block is checked: run, type-checked, linted or parsed.

The evaluators are Sybil's (``evaluator(example)``); what they share for one
page (its project folder, one mypy run and one flake8 run over all its
snippets, made on first need) lives in a ``Page``.  Python blocks run in the
page's Sybil namespace, so a block continues the ones above it, compiled by
``tagstr_runtime.compile`` at the block's own lines, as a reader pasting
them in order into ``python -m tagstr_runtime`` would see.
"""

from __future__ import annotations

import configparser
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sybil import Example

import tagstr_runtime
from doc_blocks import Block

REPO = Path(__file__).resolve().parents[2]
MYPY_ARGS = ("--no-incremental", "--no-error-summary", "--hide-error-context")
TIMEOUT = 600


@dataclass
class Page:
    """One page's project folder and the tools' reports on its snippets."""

    path: Path
    work: Path
    blocks: list[Block]
    _mypy: dict[str, list[str]] | None = None
    _flake8: dict[str, dict[int, set[str]]] | None = None
    _files: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for block in self.blocks:
            if block.kind == "file":
                target = self.work / block.name
                target.parent.mkdir(parents=True, exist_ok=True)
                if block.name not in self._files:  # a second (labelled) recipe of one file is not the project's
                    self._files[block.name] = block.source
                    target.write_text(block.source, encoding="utf-8")

    def blocks_of(self, kind: str) -> dict[str, Block]:
        return {block.name: block for block in self.blocks if block.kind == kind}

    def mypy_text(self, block: Block) -> str:
        """The file mypy checks for a ``checked`` block: the one it comes after, then its own text."""
        after = block.option("after")
        return block.source if after is None else self.mypy_text(self.blocks_of("checked")[after]) + block.source

    def mypy(self) -> dict[str, list[str]]:
        """What mypy prints for each ``checked`` file, one run per Python version asked for."""
        if self._mypy is None:
            folder = self.work / "mypy"
            folder.mkdir(exist_ok=True)
            (folder / "mypy.ini").write_text(self._files.get("mypy.ini", "[mypy]\nplugins = tagstr_mypy\n"))
            by_version: dict[str, list[str]] = {}
            for name, block in self.blocks_of("checked").items():
                (folder / name).write_text(self.mypy_text(block), encoding="utf-8")
                by_version.setdefault(block.option("python") or "3.12", []).append(name)
            self._mypy = {name: [] for name in self.blocks_of("checked")}
            for version, names in by_version.items():
                proc = tool("mypy", *MYPY_ARGS, "--python-version", version, *names, cwd=folder)
                assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
                if _native_parser_by_default() and version < "3.14":  # the stdlib's reads no t-string before 3.14
                    other = tool("mypy", *MYPY_ARGS, "--no-native-parser", "--python-version", version, *names,
                                 cwd=folder)
                    assert other.stdout == proc.stdout, "mypy's two parsers disagree on the docs' snippets"
                for line in proc.stdout.splitlines(keepends=True):
                    self._mypy[line.split(":", 1)[0]].append(line)
        return self._mypy

    def flake8(self) -> dict[str, dict[int, set[str]]]:
        """The codes flake8 reports on each ``flake8`` file, by line, in one run."""
        if self._flake8 is None:
            folder = self.work / "flake8"
            folder.mkdir(exist_ok=True)
            names = list(self.blocks_of("flake8"))
            for name in names:
                (folder / name).write_text(self.blocks_of("flake8")[name].source, encoding="utf-8")
            proc = tool("flake8", "--isolated", "--extend-select=TAG", "--format=%(path)s:%(row)d:%(code)s",
                        *names, cwd=folder)
            assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
            self._flake8 = {name: {} for name in names}
            for line in proc.stdout.splitlines():
                name, row, code = line.rsplit(":", 2)
                self._flake8[name.removeprefix("./")].setdefault(int(row), set()).add(code)
        return self._flake8


#: the page of each document Sybil parsed, by its path (set up by the test module)
PAGES: dict[str, Page] = {}


def _native_parser_by_default() -> bool:
    """mypy 2.x parses natively by default; then the docs' snippets are checked with its other parser too."""
    from mypy.options import Options

    return bool(getattr(Options(), "native_parser", False))


def tool(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ}
    env.pop("MYPYPATH", None)
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)


# -- python ------------------------------------------------------------------------------------

_PRINTED = re.compile(r"^print\(.*\)\s*#\s?(?P<shown>.*)$")


@contextlib.contextmanager
def _from_checkout() -> Iterator[None]:
    """As run from the repository's root (``examples`` importable), as the docs assume."""
    sys.path.insert(0, str(REPO))
    try:
        yield
    finally:
        sys.path.remove(str(REPO))


def run_python(example: Example) -> None:
    """Run the block in the page's namespace; a ``print(...)  # TEXT`` line must print TEXT."""
    block: Block = example.parsed
    source = "\n" * (block.first_line - 1) + block.source
    code = tagstr_runtime.compile(source, example.path, "exec", dont_inherit=True)  # not this module's futures
    out = io.StringIO()
    expected_error = block.name if block.kind == "fails" else None
    with _from_checkout(), contextlib.redirect_stdout(out):
        try:
            exec(code, example.namespace)
        except Exception as exc:
            if expected_error is None or expected_error not in {c.__name__ for c in type(exc).__mro__}:
                raise
            return
    assert expected_error is None, f"the block was to fail with {expected_error}"
    shown = [m["shown"] for line in block.source.splitlines() if (m := _PRINTED.match(line))]
    prints = [line for line in block.source.splitlines() if line.startswith("print(")]
    if shown and len(shown) == len(prints):
        assert out.getvalue().splitlines() == shown


# -- mypy --------------------------------------------------------------------------------------

_INLINE = re.compile(r"#\s*(?P<severity>error|note): (?P<message>.*)$")
_REVEAL = re.compile(r"^\s*(?:\w+ = )?reveal_type\(.*\)\s*#\s*(?P<type>.*?)\s*$")
_QUALIFIER = re.compile(r"\b[A-Za-z_]\w*\.")


def _inline_expectations(name: str, text: str) -> list[str]:
    expected = []
    code_line = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.lstrip().startswith("#"):
            code_line = number
        if (reveal := _REVEAL.match(line)) is not None:
            expected.append(f'{name}:{number}: note: Revealed type is "{reveal["type"]}"\n')
        elif (inline := _INLINE.search(line)) is not None:
            expected.append(f"{name}:{code_line}: {inline['severity']}: {inline['message']}\n")
    return expected


def _unqualified_reveals(lines: list[str]) -> list[str]:
    def short(line: str) -> str:
        head, sep, typ = line.partition(': note: Revealed type is "')
        return head + sep + _QUALIFIER.sub("", typ) if sep else line
    return [short(line) for line in lines]


def check_mypy(example: Example) -> None:
    """mypy prints what the page shows for the snippet, and the snippet runs."""
    block: Block = example.parsed
    page = PAGES[example.path]
    printed = page.mypy()[block.name]
    if block.name not in page.blocks_of("mypy output"):  # the comments say it; notes only if they show some
        expected = _inline_expectations(block.name, page.mypy_text(block))
        if not any(": note: " in line and "Revealed type" not in line for line in expected):
            printed = [line for line in printed if ": note: " not in line or "Revealed type" in line]
        assert _unqualified_reveals(printed) == expected
    fails = block.option("fails:")
    if sys.version_info < tuple(map(int, (block.option("python") or "3.11").split("."))):
        return  # t-strings, say: the snippet is for a later Python than this one
    proc = subprocess.run([sys.executable, "-m", "tagstr_runtime", block.name], cwd=page.work / "mypy",
                          capture_output=True, text=True, timeout=TIMEOUT,
                          env={**os.environ, "PYTHONWARNINGS": "error"})
    if fails is None:
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 1 and proc.stderr.splitlines()[-1].startswith(fails), proc.stderr


def compare_mypy_output(example: Example) -> None:
    block: Block = example.parsed
    assert "".join(PAGES[example.path].mypy()[block.name]) == block.source


# -- flake8 ------------------------------------------------------------------------------------

_CODE = re.compile(r"\b[A-Z]{1,3}\d{3}\b")


def check_flake8(example: Example) -> None:
    """Each line reports the TAG codes its comment names, and no others; other codes named too."""
    block: Block = example.parsed
    reported = PAGES[example.path].flake8()[block.name]
    for number, line in enumerate(block.source.splitlines(), 1):
        comment = line.partition("#")[2] if "#" in line else ""
        named = set(_CODE.findall(comment))
        found = reported.get(number, set())
        where = f"{block.name}:{number}: {line.strip()}"
        assert {c for c in found if c.startswith("TAG")} == {c for c in named if c.startswith("TAG")}, where
        assert {c for c in named if not c.startswith("TAG")} <= found, (where, found)


# -- configuration -----------------------------------------------------------------------------

def _jsonc(text: str) -> object:
    return json.loads("\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")))


def _ini(text: str) -> object:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser


def _yaml(text: str) -> object:
    yaml = pytest.importorskip("yaml", reason="PyYAML (pre-commit's, in the editors group) reads the YAML blocks")

    return yaml.safe_load(text)


def _python(text: str) -> object:
    return tagstr_runtime.compile(text, "<doc>", "exec", dont_inherit=True)


PARSERS: dict[str, Callable[[str], object]] = {
    "ini": _ini, "toml": tomllib.loads, "yaml": _yaml, "json": json.loads, "jsonc": _jsonc, "python": _python,
}
_BY_SUFFIX = {".py": "python", ".toml": "toml", ".yaml": "yaml", ".json": "json"}


def parse_config(example: Example) -> None:
    block: Block = example.parsed
    language = block.language or _BY_SUFFIX.get(Path(block.name).suffix, "ini")  # .flake8, .coveragerc: ini
    assert PARSERS[language](block.source) is not None


# -- shell -------------------------------------------------------------------------------------

def _commands(block: Block) -> list[tuple[str, list[str] | None]]:
    """``(command, output shown or None)`` for each command of a ``sh`` or ``console`` block."""
    if block.language != "console":
        return [(line, None) for line in block.source.splitlines() if line.strip() and not line.startswith("#")]
    commands: list[tuple[str, list[str] | None]] = []
    for line in block.source.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            shown = commands[-1][1]
            assert shown is not None
            shown.append(line)
    return [(command, shown or None) for command, shown in commands]


def run_shell(example: Example) -> None:
    """Each command exits as the marker says (``exit 1,0``: one status per command; 0 by default)
    and prints what is shown, if anything."""
    block: Block = example.parsed
    cwd = REPO if block.name == "repo" else PAGES[example.path].work
    commands = _commands(block)
    statuses = [int(status) for status in (block.option("exit") or "0").split(",")]
    statuses += statuses[-1:] * (len(commands) - len(statuses))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    env.pop("MYPYPATH", None)
    shell = shutil.which("sh")
    assert shell is not None, "the documented commands are for a POSIX shell"
    for (command, shown), status in zip(commands, statuses):
        proc = subprocess.run([shell, "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert proc.returncode == status, (command, proc.stdout, proc.stderr)
        if shown is not None:
            assert proc.stdout.splitlines() == shown, command


def run_doctest(example: Example) -> None:
    """The doctest passes as the page says to run one: ``python -m tagstr_runtime -m doctest FILE``."""
    block: Block = example.parsed
    work = PAGES[example.path].work
    (work / block.name).write_text(block.source, encoding="utf-8")
    proc = tool("tagstr_runtime", "-m", "doctest", block.name, cwd=work)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- dispatch ----------------------------------------------------------------------------------

def unmarked(example: Example) -> None:
    block: Block = example.parsed
    raise AssertionError(
        f"a {block.language or 'plain'} block without a marker: say what it is "
        '(<!-- run: ... -->, <!-- skip: next "why" -->, ...; see tests/docs/doc_blocks.py)'
    )


def evaluate(example: Example) -> None:
    block: Block = example.parsed
    if block.kind == "checked":
        check_mypy(example)
    elif block.kind == "mypy output":
        compare_mypy_output(example)
    elif block.kind == "flake8":
        check_flake8(example)
    elif block.kind == "file":
        parse_config(example)
    elif block.kind == "run":
        run_shell(example)
    elif block.kind == "doctest":
        run_doctest(example)
    elif block.kind == "fails" or (block.kind == "" and block.language == "python"):
        run_python(example)
    elif block.kind == "" and block.language in PARSERS:
        parse_config(example)
    else:
        unmarked(example)
