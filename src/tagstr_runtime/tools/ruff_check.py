"""``python -m tagstr_runtime --ruff-check``: ruff check on files with tag strings.

Files without tag strings go to ruff as they are, all in one run (ruff reads,
fixes and reports them itself).  Each file with tag strings is checked as
its placeholder text on ruff's standard input (``editing.distinct_calls``, ``tools.ruff_map``:
same lines and columns, names read by interpolations are read, different tag
strings different), and the reports that are
about the user's code are printed at their place in the source.  With
``--fix``, ruff's fixes are applied here from its JSON edits, pass after pass
as ruff does, except those that would edit a tag string; they are left
unfixed and counted.  A pass whose fixes together would not compile (two
deletions emptying one block: ruff keeps such fixes for separate passes, and
its JSON does not say which) is applied one fix at a time instead.

Exit statuses are ruff's: 0 clean, 1 reports remain, 2 the check could not
run (ruff missing or failing, a file unreadable).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.parser import ParseResult, parse
from tagstr_runtime.tools.ruff_map import (
    SYNTAX_ERROR_CODES,
    Edit,
    apply_edits,
    fix_edits,
    TagIndex,
    is_reported,
)
from tagstr_runtime.editing.distinct_calls import distinct_calls_text
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.tools.source_file import SourceFile, check_tag_strings, find_sources
from tagstr_runtime.tools.invoke import ToolError, for_each, ruff_check, ruff_program

__all__ = ["main"]

MAX_PASSES = 100  # ruff's own limit on fix passes


class _Checked(NamedTuple):
    path: str  # as named on the command line
    diagnostics: list[dict[str, Any]]  # ruff's JSON records, as reported
    fixed: int  # fixes applied by this command (ruff does not count its own in JSON)
    skipped: int  # reports left unfixed because their fix would edit a tag string


class _Tagged(NamedTuple):
    """A source with tag strings, as ruff is shown it."""

    text: str
    source: SourceText
    result: ParseResult
    placeholder: str
    tags: TagIndex

    @classmethod
    def of(cls, text: str, path: str) -> _Tagged:
        result = parse(text, path)
        if result.tag_strings:
            check_tag_strings(text, path)
        placeholder = distinct_calls_text(text, result.tag_strings)
        return cls(text, SourceText(text), result, placeholder, TagIndex(result.tag_strings, placeholder))

    def compiles(self, path: str) -> bool:
        try:
            compile(self.placeholder, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
        return True


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime --ruff-check" if argv is not None else "tagstr-ruff-check",
        description="Run ruff check on files that use tag strings: reports at their place in the "
        "source, names read by interpolations count as used, fixes never edit a tag string.",
    )
    parser.add_argument("--fix", action="store_true", help="apply fixes (never inside a tag string)")
    parser.add_argument("--unsafe-fixes", action="store_true", help="apply unsafe fixes too")
    parser.add_argument("--output-format", choices=("concise", "json"), default="concise")
    for option in ("--select", "--extend-select", "--ignore", "--config"):
        parser.add_argument(option, action="append", default=[], help="passed to ruff")
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="check the source read from stdin as the file PATH (editors); with --fix the "
                        "fixed source is written to stdout and the reports to stderr, as ruff does")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files and folders ('-': stdin)")
    return parser.parse_args(None if argv is None else list(argv))


def _ruff_options(options: argparse.Namespace) -> list[str]:
    out: list[str] = []
    for name in ("select", "extend_select", "ignore", "config"):
        for value in getattr(options, name):
            out += [f"--{name.replace('_', '-')}", value]
    if options.unsafe_fixes:
        out.append("--unsafe-fixes")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """The command (``argv``: its options and paths; None: the ``tagstr-ruff-check`` console script's)."""
    options = _parse_args(argv)
    stdin = options.stdin_filename is not None or options.paths == ["-"]
    if not stdin and not options.paths:
        print("error: name the files to check, or read one from stdin ('-' or --stdin-filename PATH)",
              file=sys.stderr)
        return 2
    try:
        program = ruff_program()
    except ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    extra = _ruff_options(options)
    if stdin:
        return _check_stdin(options.stdin_filename or "-", program, extra, options)
    paths = list(find_sources(options.paths))
    done = for_each(lambda path: _check_path(path, program, extra, options), paths, parallel=True)
    status = 0
    for outcome in done:
        if isinstance(outcome, str):
            print(f"error: {outcome}", file=sys.stderr)
            status = 2
    plain = [path for path, outcome in zip(paths, done) if outcome is None]
    if plain:
        try:
            ruffs = dict(zip(plain, _check_plain(plain, program, extra, options.fix)))
        except ToolError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status, ruffs = 2, {}
        done = [ruffs.get(path) if outcome is None else outcome for path, outcome in zip(paths, done)]
    checked = [outcome for outcome in done if isinstance(outcome, _Checked)]
    _print(checked, options)
    if status:
        return status
    return 1 if any(c.diagnostics for c in checked) else 0


def _check_path(path: str, program: str, extra: list[str], options: argparse.Namespace) -> _Checked | str | None:
    """The outcome for one file: its reports, an error message, or None (no tag strings: ruff's)."""
    try:
        return _check_file(SourceFile.read(path), program, extra, options)
    except TagSyntaxError as exc:
        return _Checked(path, [_syntax_error(exc)], 0, 0)
    except (OSError, SyntaxError, UnicodeDecodeError, ToolError) as exc:
        return f"{path}: {exc}"


def _check_plain(paths: list[str], program: str, extra: list[str], fix: bool) -> list[_Checked]:
    """One ruff run over the files without tag strings: ruff's own behaviour exactly."""
    found = ruff_check(program, extra, paths, fix=fix)
    by_file: dict[str, list[dict[str, Any]]] = {}
    for diagnostic in found:
        by_file.setdefault(os.path.normcase(os.path.abspath(diagnostic["filename"])), []).append(diagnostic)
    return [_Checked(p, by_file.get(os.path.normcase(os.path.abspath(p)), []), 0, 0) for p in paths]


def _check_stdin(path: str, program: str, extra: list[str], options: argparse.Namespace) -> int:
    """The source on stdin, checked as the file ``path``: the reports (with ``--fix``: the fixed
    source on stdout, the reports on stderr, as ``ruff check --fix --stdin-filename`` does)."""
    raw = sys.stdin.buffer.read()
    file = SourceFile.from_bytes(path, raw)
    try:
        checked = _check_file(file, program, extra, options, stdin=True)
    except TagSyntaxError as exc:
        exc.filename = path
        checked = _Checked(path, [_syntax_error(exc)], 0, 0)
    except (SyntaxError, ToolError) as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        if options.fix:
            sys.stdout.buffer.write(raw)
        return 2
    assert checked is not None
    if options.fix:
        sys.stdout.buffer.write(raw if not checked.fixed else file.encode(_FIXED.pop(path)))
        sys.stdout.flush()
        with contextlib.redirect_stdout(sys.stderr):
            _print([checked], options)
    else:
        _print([checked], options)
    return 1 if checked.diagnostics else 0


_FIXED: dict[str, str] = {}  # the fixed text of the source read from stdin


def _check_file(file: SourceFile, program: str, extra: list[str], options: argparse.Namespace,
                stdin: bool = False) -> _Checked | None:
    """ruff on one file with tag strings (None: the file has none; ``stdin``: a source read
    from stdin, checked as the file it names whether it has tag strings or not, and not written)."""
    tagged = _Tagged.of(file.text, file.path)
    if not tagged.result.tag_strings and not stdin:
        return None
    fixed = passes = 0
    while True:
        found = ruff_check(program, extra, [file.path], source=tagged.placeholder.encode("utf-8"))
        passes += 1
        if not options.fix or passes > MAX_PASSES:
            break
        after = _apply(tagged, _choose_fixes(found, tagged, options.unsafe_fixes), file.path)
        if after is None:
            break
        tagged, count = after
        fixed += count
    if fixed and stdin:
        _FIXED[file.path] = tagged.text
    elif fixed:
        with open(file.path, "wb") as out:
            out.write(file.encode(tagged.text))
    reported = []
    skipped = 0
    for diagnostic in found:
        if not is_reported(diagnostic, tagged.source, tagged.tags):
            continue
        if diagnostic.get("fix") and tagged.tags.touched(fix_edits(diagnostic, tagged.source)):
            skipped += _applicable(diagnostic, options.unsafe_fixes)
            diagnostic = {**diagnostic, "fix": None}  # not offered: it would edit a tag string
        reported.append(diagnostic)
    return _Checked(file.path, reported, fixed, skipped)


def _applicable(diagnostic: dict[str, Any], unsafe: bool) -> bool:
    fix = diagnostic.get("fix") or {}
    return fix.get("applicability") in (("safe", "unsafe") if unsafe else ("safe",))


def _choose_fixes(found: list[dict[str, Any]], tagged: _Tagged, unsafe: bool) -> list[list[Edit]]:
    """The fixes of one pass: applicable, not touching a tag string, not overlapping, in order."""
    candidates = []
    for diagnostic in found:
        if _applicable(diagnostic, unsafe):
            edits = fix_edits(diagnostic, tagged.source)
            if edits and not tagged.tags.touched(edits):
                candidates.append(edits)
    chosen: list[list[Edit]] = []
    taken: list[Edit] = []
    for edits in sorted(candidates, key=lambda edits: min(e.start for e in edits)):
        if not any(_overlap(a, b) for a in edits for b in taken):
            chosen.append(edits)
            taken.extend(edits)
    return chosen


def _overlap(a: Edit, b: Edit) -> bool:
    return a.start == b.start or (a.start < b.end and b.start < a.end)


def _apply(tagged: _Tagged, fixes: list[list[Edit]], path: str) -> tuple[_Tagged, int] | None:
    """The source after ``fixes``: all at once, or else the first that keeps it compiling."""
    if not fixes:
        return None
    everything = _after(tagged, [e for edits in fixes for e in edits], path)
    if everything is not None:
        return everything, len(fixes)
    for edits in fixes:  # ruff's JSON does not say which fixes exclude each other
        after = _after(tagged, edits, path)
        if after is not None:
            return after, 1
    return None


def _after(tagged: _Tagged, edits: list[Edit], path: str) -> _Tagged | None:
    """The source after ``edits`` if it still compiles with the same tag strings."""
    text = apply_edits(tagged.text, edits)
    try:
        after = _Tagged.of(text, path)
    except SyntaxError:
        return None
    same = [tagged.text[t.span.start : t.span.end] for t in tagged.result.tag_strings]
    if [text[t.span.start : t.span.end] for t in after.result.tag_strings] != same:
        return None
    return after if after.compiles(path) else None


def _syntax_error(exc: SyntaxError) -> dict[str, Any]:
    location = {"row": exc.lineno or 1, "column": exc.offset or 1}
    return {"code": "invalid-syntax", "message": exc.msg, "location": location, "end_location": location,
            "fix": None, "filename": os.path.abspath(exc.filename or "")}


def _print(checked: list[_Checked], options: argparse.Namespace) -> None:
    if options.output_format == "json":
        json.dump([d for c in checked for d in c.diagnostics], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    total = fixable = 0
    for outcome in checked:
        for d in sorted(outcome.diagnostics, key=lambda d: (d["location"]["row"], d["location"]["column"])):
            where = f"{outcome.path}:{d['location']['row']}:{d['location']['column']}:"
            mark = "[*] " if _applicable(d, options.unsafe_fixes) else ""
            code = d.get("code")
            label = "" if code is None else f"{code}: " if code in SYNTAX_ERROR_CODES else f"{code} "
            print(f"{where} {label}{mark}{d['message']}")
            total += 1
            fixable += bool(mark)
    fixed = sum(c.fixed for c in checked)
    skipped = sum(c.skipped for c in checked)
    if total:
        counts = f" ({fixed} fixed, {total} remaining)" if fixed else ""
        print(f"Found {total + fixed if fixed else total} error{'s' if total + fixed != 1 else ''}{counts}.")
    elif fixed:
        print(f"Found {fixed} error{'s' if fixed != 1 else ''} ({fixed} fixed, 0 remaining).")
    else:
        print("All checks passed!")
    if fixable and not options.fix:
        print(f"[*] {fixable} fixable with the `--fix` option.")
    if skipped and options.fix:  # without --fix nothing was going to be applied
        print(f"{skipped} fix{'es' if skipped != 1 else ''} not applied: "
              f"{'they' if skipped != 1 else 'it'} would edit a tag string.")
