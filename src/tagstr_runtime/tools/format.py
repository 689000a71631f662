"""``python -m tagstr_runtime --format``: black or ruff format on files with tag strings.

Each tag string is a literal to a formatter: it is left exactly as written
(prefix, quotes, contents) while everything around it is formatted as the
tool formats it (``tools.literal_swap``: the tool sees a string literal of the same
width in its place).  A file without tag strings is handed to the tool
untouched and gets exactly the tool's own result.  A file whose tag strings
cannot be proven to come back whole is not formatted: it is reported and
left alone.  Before a result is accepted it must still desugar, with the
same tag strings in the same order.

Modes and exit statuses are black's: write the files back (default),
``--check`` (1 if some file would change), ``--diff`` (print what would
change); 123 if some file could not be formatted.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import sys
from collections.abc import Sequence
from typing import NamedTuple

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.parser import ParseResult, parse
from tagstr_runtime.desugarer.placeholder import placeholder_text
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.tools.source_file import SourceFile, check_tag_strings, find_sources
from tagstr_runtime.tools.literal_swap import StandInError, restore, stand_in
from tagstr_runtime.tools.invoke import Formatter, ToolError, for_each, formatter

__all__ = ["format_source", "main"]

ERROR = 123  # black's status for "some file could not be formatted"


class FormatError(Exception):
    """A file this command will not format, and why (printed after ``cannot format PATH:``)."""


class _Outcome(NamedTuple):
    path: str  # as shown in messages
    file: SourceFile | None  # None: unreadable
    after: bytes | None  # None: an error
    error: str | None
    stdin: bool = False  # read from stdin: the result goes to stdout


def format_source(file: SourceFile, tool: Formatter, result: ParseResult | None = None) -> bytes:
    """The formatted bytes of ``file`` (``result``: its parse, if done); raises ``FormatError``."""
    path = None if file.path == "-" else file.path
    shown = file.path if path else "<stdin>"
    try:
        result = result or parse(file.text, shown)
        if result.tag_strings:
            check_tag_strings(file.text, shown)
    except TagSyntaxError as exc:
        raise FormatError(f"line {exc.lineno}, column {exc.offset}: {exc.msg}") from None
    try:
        if not result.tag_strings:
            return tool.format(file.raw, path)
        tags = result.tag_strings
        source = SourceText(file.text)
        stand = stand_in(file.text, tags, [source.line_of(t.span.start) for t in tags])
        sent = file.encode(stand.text)
        received = tool.format(sent, path)
        if received == sent:  # excluded by the tool's configuration, or already formatted
            return file.raw
        text = restore(file.decode(received), stand)
    except ToolError as exc:
        raise FormatError(str(exc)) from None
    except StandInError as exc:
        raise FormatError(f"line {exc.line}: {exc}; the file is left as it is") from None
    _verify(text, stand.originals, file, shown)
    return file.encode(text)


def _verify(text: str, originals: tuple[str, ...], file: SourceFile, shown: str) -> None:
    """The formatted text still desugars, to the same tag strings in the same order:
    the parser finds them again, and CPython parses the placeholder text (what the
    desugarer hands it; generating code from its tree cannot fail differently)."""
    try:
        result = parse(text, shown)
    except SyntaxError as exc:
        raise FormatError(f"the formatted text would not parse ({exc.lineno}:{exc.offset}: {exc.msg}); "
                          "the file is left as it is") from None
    if tuple(text[t.span.start : t.span.end] for t in result.tag_strings) != originals:
        raise FormatError("the formatted text would change a tag string; the file is left as it is")
    try:
        _compiles(placeholder_text(text, result.tag_strings), shown)
    except (SyntaxError, ValueError) as exc:
        try:  # a source this Python cannot compile anyway (newer syntax): the tool's call
            _compiles(placeholder_text(file.text, parse(file.text, shown).tag_strings), shown)
        except (SyntaxError, ValueError):
            return
        where = f"{exc.lineno}:{exc.offset}: {exc.msg}" if isinstance(exc, SyntaxError) else str(exc)
        raise FormatError(f"the formatted text would not compile ({where}); the file is left as it is") from None


def _compiles(text: str, filename: str) -> None:
    compile(text, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime --format" if argv is not None else "tagstr-format",
        description="Format files that use tag strings with black or ruff format, "
        "leaving every tag string exactly as written.",
    )
    parser.add_argument("--tool", choices=("black", "ruff"), default="black", help="the formatter (default: black)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if some file would change")
    parser.add_argument("--diff", action="store_true", help="change nothing; print a diff of each change")
    parser.add_argument("--stdin-filename", metavar="PATH", help="the path of the file read from stdin (-)")
    parser.add_argument("-q", "--quiet", action="store_true", help="report errors only")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files and folders; - reads stdin")
    return parser.parse_args(None if argv is None else list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """The command (``argv``: its options and paths; None: the ``tagstr-format`` console script's)."""
    options = _parse_args(argv)
    try:
        tool = formatter(options.tool)
    except ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return ERROR
    paths = list(find_sources(options.paths))
    done, read = ({}, {}) if options.diff else _format_plain_files(paths, tool, options.check)
    outcomes = for_each(
        lambda path: done.get(path) or _format_path(path, tool, options, *read.get(path, (None, None))),
        paths, parallel=tool.parallel,
    )
    for outcome in outcomes:  # in the order given, whatever order the files were done in
        _show(outcome, options)
    return _report(outcomes, options)


def _format_plain_files(
    paths: list[str], tool: Formatter, check: bool
) -> tuple[dict[str, _Outcome], dict[str, tuple[SourceFile, ParseResult]]]:
    """The files without tag strings, formatted by the tool in one run if it can,
    and every file read (as it was before) with its parse.

    One ruff process for all of them rather than one each; only when the run
    succeeds (``--check``: and finds nothing to change) are its results taken,
    else each file goes its own way and gets its own report.
    """
    read: dict[str, tuple[SourceFile, ParseResult]] = {}
    if not tool.batches:
        return {}, read
    for path in paths:
        if path == "-":
            continue
        try:
            file = SourceFile.read(path)
            read[path] = file, parse(file.text, path)
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue  # reported where the file is done on its own
    plain = [path for path, (_, result) in read.items() if not result.tag_strings]
    if len(plain) < 2 or not tool.format_files(plain, check=check):
        return {}, read
    done = {}
    for path in plain:
        file = read[path][0]
        try:
            after = file.raw if check else SourceFile.read(path).raw
        except OSError:
            continue
        done[path] = _Outcome(path, file, after, None)
    return done, read


def _format_path(
    path: str,
    tool: Formatter,
    options: argparse.Namespace,
    file: SourceFile | None = None,
    result: ParseResult | None = None,
) -> _Outcome:
    """Format one file (``file``, ``result``: as read and parsed before), writing it
    back unless ``--check``/``--diff``; nothing printed."""
    shown = (options.stdin_filename or "-") if path == "-" else path
    try:
        if path == "-":
            file = SourceFile.from_bytes(shown, sys.stdin.buffer.read())
        elif file is None:
            file = SourceFile.read(path)
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        return _Outcome(shown, None, None, str(exc), path == "-")
    try:
        after = format_source(file, tool, result)
    except FormatError as exc:
        return _Outcome(shown, file, None, str(exc), path == "-")
    if path != "-" and not (options.check or options.diff) and after != file.raw:
        with open(path, "wb") as out:
            out.write(after)
    return _Outcome(shown, file, after, None, path == "-")


def _show(outcome: _Outcome, options: argparse.Namespace) -> None:
    file, after = outcome.file, outcome.after
    if outcome.error is not None:
        print(f"error: cannot format {outcome.path}: {outcome.error}", file=sys.stderr)
    if file is None:
        return
    if options.diff:
        if after is not None and after != file.raw:
            sys.stdout.write(_diff(file, after, outcome.path))
    elif outcome.stdin:
        if not options.check:  # an editor piping through must not lose the text on an error
            sys.stdout.buffer.write(file.raw if after is None else after)


def _diff(file: SourceFile, after: bytes, shown: str) -> str:
    before_lines = file.text.splitlines(keepends=True)
    after_lines = file.decode(after).splitlines(keepends=True)
    return "".join(
        difflib.unified_diff(before_lines, after_lines, f"{shown}\t(original)", f"{shown}\t(formatted)")
    )


def _report(outcomes: list[_Outcome], options: argparse.Namespace) -> int:
    dry = options.check or options.diff
    changed = [o for o in outcomes if o.file is not None and o.after is not None and o.after != o.file.raw]
    failed = sum(o.after is None for o in outcomes)
    same = len(outcomes) - len(changed) - failed
    if not options.quiet:
        for outcome in changed:
            print(f"{'would reformat' if dry else 'reformatted'} {outcome.path}", file=sys.stderr)
        parts = []
        if changed:
            parts.append(f"{_files(len(changed))} {'would be ' if dry else ''}reformatted")
        if same:
            parts.append(f"{_files(same)} {'would be ' if dry else ''}left unchanged")
        if failed:
            parts.append(f"{_files(failed)} {'would fail' if dry else 'failed'} to reformat")
        print(", ".join(parts) + "." if parts else "No Python files are present to be formatted.", file=sys.stderr)
    if failed:
        return ERROR
    return 1 if options.check and changed else 0


def _files(count: int) -> str:
    return f"{count} file{'' if count == 1 else 's'}"
