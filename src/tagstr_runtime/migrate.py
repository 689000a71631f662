"""``python -m tagstr_runtime.migrate``: rewrite tag strings as Python 3.14 t-strings.

    python -m tagstr_runtime.migrate [--check | --diff] [--lazy-tag NAME] [--eager-tag NAME]
                                     [--raw-tag NAME] PATH...

``html"<p>{x}</p>"`` becomes ``html(t"<p>{x}</p>")`` for a tag that takes a
template (``@accepts_template``, ``template_tag``).  A tag string that would
not behave the same is left as it is and reported with its reason
(``path:line:col: MIGnnn ...``); what the command assumed about tags defined
in other modules is reported as a note.  Without ``--check``/``--diff`` the
files are rewritten in place.  Exit status: 0 done or nothing to do, 1 with
``--check``/``--diff`` when a file would change, 2 when a file could not be
read, parsed or verified (it is then left untouched).

The output is verified before anything is written: compiled on 3.14+,
parsed with libcst (which reads 3.14 syntax on any Python) before; with
neither, the command says the output is unverified.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import NamedTuple, Sequence

from tagstr_runtime._errors import TagSyntaxError
from tagstr_runtime._migrate_sites import NO_OPTIONS, Migration, Options, migrate_text
from tagstr_runtime._precompile import python_files
from tagstr_runtime._source import SourceText

__all__ = ["main", "migrate_source"]


class Unverified(Exception):
    """Neither Python 3.14 nor libcst is there to check the output."""


def verify(text: str, filename: str) -> None:
    """Raise ``SyntaxError`` unless ``text`` is valid on Python 3.14 (with tagstr for what is left)."""
    if sys.version_info >= (3, 14):
        import ast

        from tagstr_runtime._compile import compile as tag_compile

        tag_compile(text, filename, "exec", ast.PyCF_ONLY_AST)
        return
    try:
        import libcst
    except ImportError:
        raise Unverified from None
    from tagstr_runtime._parser import parse
    from tagstr_runtime._placeholder import placeholder_text

    left = parse(text, filename, template_strings=True).tag_strings
    try:
        libcst.parse_module(placeholder_text(text, left))
    except libcst.ParserSyntaxError as exc:
        error = SyntaxError(f"the migrated text does not parse as Python 3.14: {exc.message}")
        error.filename, error.lineno, error.offset = filename, exc.raw_line, exc.raw_column + 1
        raise error from None


class FileResult(NamedTuple):
    path: str
    before: str
    migration: Migration


def migrate_source(source: bytes, filename: str, options: Options = NO_OPTIONS) -> tuple[bytes, Migration, str]:
    """The migrated bytes of one file (same encoding, BOM and line endings), the
    migration, and the text it started from (offsets of flags and notes are in it)."""
    from tokenize import detect_encoding
    import io

    encoding, _ = detect_encoding(io.BytesIO(source).readline)
    text = source.decode(encoding)
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    newline = "\r\n" if "\r\n" in text else "\n"
    normal = text.replace("\r\n", "\n")
    if "\r" in normal or (newline == "\r\n" and "\n" in text.replace("\r\n", "")):
        raise ValueError("mixed or old Mac line endings: normalise them first")
    migration = migrate_text(normal, filename, options)
    if not migration.migrated:
        return source, migration, normal
    verify(migration.text, filename)
    out = migration.text.replace("\n", newline)
    return (("\ufeff" if bom else "") + out).encode(encoding), migration, normal


def _where(path: str, text: str, offset: int) -> str:
    pos = SourceText(text).pos(offset)
    return f"{path}:{pos.line}:{pos.col_char + 1}"


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime.migrate",
        description="Rewrite tag strings as Python 3.14 t-strings: html\"...\" -> html(t\"...\").",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    mode.add_argument("--diff", action="store_true", help="print a unified diff instead of writing; exit 1 if any")
    parser.add_argument("--lazy-tag", action="append", default=[], metavar="NAME",
                        help="a tag that reads its values after it returns: keep its tag strings")
    parser.add_argument("--eager-tag", action="append", default=[], metavar="NAME",
                        help="a tag that reads every value at once, whatever its definition looks like")
    parser.add_argument("--raw-tag", action="append", default=[], metavar="NAME",
                        help="a tag that reads .raw: its text is kept as written (rt\"...\")")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders searched for .py files")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    options = Options(frozenset(args.lazy_tag), frozenset(args.eager_tag), frozenset(args.raw_tag))
    status = 0
    changed = migrated = kept = 0
    unverified = False
    for path in python_files(args.paths):
        try:
            with open(path, "rb") as file:
                source = file.read()
            new, migration, before = migrate_source(source, path, options)
        except Unverified:
            unverified = True
            continue
        except (TagSyntaxError, SyntaxError) as exc:
            print(f"{path}:{exc.lineno}:{exc.offset}: error: {exc.msg}", file=sys.stderr)
            status = 2
            continue
        except (OSError, ValueError) as exc:  # ValueError: undecodable text too
            print(f"{path}: error: {exc}", file=sys.stderr)
            status = 2
            continue
        for note in migration.notes:
            print(f"{_where(path, before, note.offset)}: note: {note.message}", file=sys.stderr)
        for flag in migration.flags:
            print(f"{_where(path, before, flag.offset)}: {flag.message}")
        migrated += migration.migrated
        kept += len(migration.flags)
        if new == source:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                before.splitlines(keepends=True), migration.text.splitlines(keepends=True), f"a/{path}", f"b/{path}"
            ))
        elif not args.check:
            with open(path, "wb") as file:
                file.write(new)
    if unverified:
        print("error: cannot verify the output: install libcst (the migrate extra) or run on Python 3.14",
              file=sys.stderr)
        return 2
    verb = "would migrate" if args.check or args.diff else "migrated"
    print(f"{verb} {migrated} tag string(s) in {changed} file(s); {kept} reason(s) to keep tag strings reported",
          file=sys.stderr)
    if status:
        return status
    return 1 if changed and (args.check or args.diff) else 0


if __name__ == "__main__":
    sys.exit(main())
