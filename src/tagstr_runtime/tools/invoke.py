"""The user's black and ruff, run on one source at a time as if on the file itself.

Each tool reads the text on standard input and is told the file's path
(``--stdin-filename``), so it finds the same configuration (``pyproject.toml``,
``ruff.toml``) and applies the same exclusions (black's ``force-exclude``,
ruff's excludes through ``--force-exclude``) as when it is given the file.
Neither is a dependency of this package: each is imported or looked up only
when used, and its absence is a ``ToolError`` naming what to install.

black runs in this process (its command line, with the standard streams
swapped for buffers): starting it once per file would cost a fifth of a
second each.  ruff is a native program and is cheap to start.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
from typing import Any, Callable, Protocol, TypeVar

__all__ = [
    "Black", "Formatter", "RuffFormat", "ToolError", "for_each", "formatter", "ruff_check", "ruff_program",
]

_T = TypeVar("_T")
_R = TypeVar("_R")


ERROR_STATUS = 123  # black's exit status for an error


class ToolError(Exception):
    """The tool is missing, or failed on a source (its own message)."""


class Formatter(Protocol):
    name: str
    parallel: bool  # whether several files may be formatted at once (in threads)
    batches: bool  # whether ``format_files`` can do many files in one run

    def format(self, source: bytes, path: str | None) -> bytes:
        """The tool's output for ``source`` as the file ``path``; raises ``ToolError``."""

    def format_files(self, paths: list[str], *, check: bool) -> bool:
        """Format (``check``: check) files on disk in one run, if the tool can; True if
        it did, without an error (``check``: and nothing would change)."""


class Black:
    name = "black"
    parallel = False  # it runs in this process, on swapped standard streams
    batches = False  # no need: in this process a file costs only black's work on it

    def format_files(self, paths: list[str], *, check: bool) -> bool:
        return False

    def __init__(self) -> None:
        try:
            black = importlib.import_module("black")  # not a dependency: typed as Any
        except ImportError:
            raise ToolError("black is not installed where tagstr_runtime runs: pip install black") from None
        self._main: Callable[..., Any] = black.main.main

    def format(self, source: bytes, path: str | None) -> bytes:
        args = ["--quiet", *(["--stdin-filename", path] if path else []), "-"]
        stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        stderr = io.StringIO()
        saved = sys.stdin, sys.stdout, sys.stderr
        sys.stdin = io.TextIOWrapper(io.BytesIO(source), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        try:
            status = self._main(args=args, prog_name="black", standalone_mode=False)
        except SystemExit as exc:  # black's own exits bypass click in some versions
            status = exc.code
        except Exception as exc:  # click's usage errors (a bad [tool.black] value) are raised
            status = ERROR_STATUS
            format_message = getattr(exc, "format_message", None)
            stderr.write(f"error: {format_message() if callable(format_message) else exc}\n")
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved
        stdout.flush()
        if status:
            raise ToolError(_message(stderr.getvalue()) or f"black exited with status {status}")
        return stdout.buffer.getvalue()


def ruff_program() -> str:
    """The ruff executable: the one of the ``ruff`` package here, else the first on PATH."""
    found: str | None
    try:
        found = os.fsdecode(importlib.import_module("ruff.__main__").find_ruff_bin())
    except (ImportError, FileNotFoundError):
        import shutil

        found = shutil.which("ruff")
    if not found:
        raise ToolError("ruff is not installed where tagstr_runtime runs: pip install ruff")
    return found


def _run_ruff(program: str, args: list[str], source: bytes | None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run([program, *args], input=source, capture_output=True, check=False)
    except OSError as exc:
        raise ToolError(f"cannot run {program}: {exc}") from None


class RuffFormat:
    name = "ruff"
    parallel = True
    batches = True

    def __init__(self) -> None:
        self._program = ruff_program()

    def format(self, source: bytes, path: str | None) -> bytes:
        args = ["format", "--force-exclude", *(["--stdin-filename", _absolute(path)] if path else []), "-"]
        proc = _run_ruff(self._program, args, source)
        if proc.returncode:
            message = _message(proc.stderr.decode("utf-8", "replace"))
            raise ToolError(message or f"ruff exited with status {proc.returncode}")
        return proc.stdout

    def format_files(self, paths: list[str], *, check: bool) -> bool:
        args = ["format", "--force-exclude", *(["--check"] if check else []), "--", *paths]
        return _run_ruff(self._program, args, None).returncode == 0


def for_each(function: Callable[[_T], _R], items: list[_T], *, parallel: bool) -> list[_R]:
    """``function`` on each item, results in order; in threads if ``parallel``: the
    work per file is mostly waiting for a tool's process, and a process each per
    file costs little only when they overlap."""
    if not parallel or len(items) < 2:
        return [function(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(len(items), 2 * (os.cpu_count() or 1), 16)) as pool:
        return list(pool.map(function, items))


def formatter(name: str) -> Formatter:
    if name == "black":
        return Black()
    if name == "ruff":
        return RuffFormat()
    raise ToolError(f"unknown formatter {name!r}: choose black or ruff")


def ruff_check(
    program: str, options: list[str], paths: list[str], *, source: bytes | None = None, fix: bool = False
) -> list[dict[str, Any]]:
    """ruff's JSON diagnostics for ``paths``, or for ``source`` as the one file ``paths[0]``.

    With ``fix`` (files on disk only) ruff applies its fixes and reports what remains.
    """
    args = ["check", "--force-exclude", "--output-format", "json", "--fix" if fix else "--no-fix", *options]
    if source is not None:
        args += ["--stdin-filename", _absolute(paths[0]), "-"]
    else:
        args += ["--", *paths]
    proc = _run_ruff(program, args, source)
    if proc.returncode not in (0, 1):
        message = _message(proc.stderr.decode("utf-8", "replace"))
        raise ToolError(message or f"ruff exited with status {proc.returncode}")
    try:
        found = json.loads(proc.stdout or b"[]")
    except ValueError:
        found = None
    if not isinstance(found, list):
        raise ToolError("ruff printed something other than its JSON report")
    return found


def _absolute(path: str) -> str:
    """``path`` as ruff is told it for standard input: absolute.  ruff finds the
    configuration of a file it is given from the file's absolute path, but that of
    ``--stdin-filename`` from the path as written: a relative one misses the
    ``pyproject.toml`` of a parent folder."""
    return os.path.abspath(path)


def _message(text: str) -> str:
    """A tool's error output in one line: its first line, and its last if that says more."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    first = lines[0].removeprefix("error: ")
    return first if len(lines) == 1 else f"{first} ({lines[-1]})"
