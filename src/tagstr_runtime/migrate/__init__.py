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
import os
import sys
from collections import Counter
from typing import NamedTuple, Sequence

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.migrate.rewrite import NO_OPTIONS, Migration, Options, migrate_text
from tagstr_runtime.run.precompile import python_files
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.imports import ModuleFinder, module_name

__all__ = ["main", "migrate_source"]


class Unverified(Exception):
    """Neither Python 3.14 nor libcst is there to check the output."""


def verify(text: str, filename: str) -> None:
    """Raise ``SyntaxError`` unless ``text`` is valid on Python 3.14 (with tagstr for what is left)."""
    if sys.version_info >= (3, 14):
        import ast

        from tagstr_runtime.run.compile import compile as tag_compile

        tag_compile(text, filename, "exec", ast.PyCF_ONLY_AST)
        return
    try:
        import libcst
    except ImportError:
        raise Unverified from None
    from tagstr_runtime.syntax.parser import parse
    from tagstr_runtime.desugarer.placeholder import placeholder_text, splice

    left = parse(text, filename, template_strings=True).tag_strings
    # libcst (1.9) reads t"..." and rt"..." but not tr"...": spell it rt, same length and meaning
    swapped = sorted((t for top in parse(text, filename, template_strings=False).tag_strings for t in top.walk()
                      if t.tag.lower() == "tr"), key=lambda t: t.tag_span.start)
    text = splice(text, swapped, lambda t: t.tag_span, lambda t: t.tag[::-1])
    try:
        libcst.parse_module(placeholder_text(text, left))
    except libcst.ParserSyntaxError as exc:
        error = SyntaxError(f"the migrated text does not parse as Python 3.14: {exc.message}")
        error.filename, error.lineno, error.offset = filename, exc.raw_line, exc.raw_column + 1
        raise error from None


def migrate_source(
    source: bytes, filename: str, options: Options = NO_OPTIONS, *, module: str = "__main__",
    path: str | None = None, resolver: TagResolver | None = None,
) -> tuple[bytes, Migration, str]:
    """The migrated bytes of one file (same encoding, BOM and line endings), the
    migration, and the text it started from (offsets of flags and notes are in it).
    ``module``, ``path``, ``resolver``: as ``migrate_text`` takes them."""
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
    migration = migrate_text(normal, filename, options, module=module, path=path, resolver=resolver)
    if not migration.migrated:
        return source, migration, normal
    verify(migration.text, filename)
    out = migration.text.replace("\n", newline)
    return (("\ufeff" if bom else "") + out).encode(encoding), migration, normal


def _where(path: str, text: str, offset: int) -> str:
    pos = SourceText(text).pos(offset)
    return f"{path}:{pos.line}:{pos.col_char + 1}"


def _qualified_name(text: str) -> str:
    """An option's argument: a dotted name with its module (``pkg.tags.html``), never a bare name."""
    parts = text.split(".")
    if len(parts) < 2 or not all(part.isidentifier() for part in parts):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a qualified name: write the module that defines the tag too "
            f"(pkg.tags.html; a tag of a script main.py is main.html)"
        )
    return text


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime.migrate",
        description="Rewrite tag strings as Python 3.14 t-strings: html\"...\" -> html(t\"...\").",
        epilog="Each option names a tag by its qualified name (pkg.tags.html), and may be repeated.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="change nothing; exit 1 if a file would change or a tag string is kept")
    mode.add_argument("--diff", action="store_true",
                      help="print a unified diff instead of writing (the reasons go to stderr); exit as --check")
    for flag, help_text in OPTION_HELP.items():
        parser.add_argument(flag, action="append", default=[], metavar="MODULE.NAME", type=_qualified_name,
                            help=help_text)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders searched for .py files")
    return parser.parse_args(argv)


#: the options that say what a tag is, by qualified name, and what each asserts
OPTION_HELP = {
    "--lazy-tag": "the tag may read its values after it returns: keep its tag strings",
    "--eager-tag": "the tag reads every value before it returns, whatever its definition looks like",
    "--template-tag": "the tag takes a template (as @accepts_template and template_tag tags do)",
    "--raw-tag": "the tag reads .raw: its text is kept as written (rt\"...\")",
}


class FileResult(NamedTuple):
    path: str
    source: bytes
    new: bytes
    before: str  # the text the offsets of the migration are in
    migration: Migration


class Summary:
    """What one run did, for its last line."""

    def __init__(self) -> None:
        self.migrated = self.changed = self.kept = self.kept_files = self.errors = 0
        self.reasons: Counter[str] = Counter()

    def add(self, result: FileResult) -> None:
        migration = result.migration
        self.migrated += migration.migrated
        self.changed += result.new != result.source
        self.kept += migration.kept
        self.kept_files += bool(migration.kept)
        self.reasons.update(flag.code for flag in migration.flags)

    def line(self, dry_run: bool) -> str:
        verb = "would migrate" if dry_run else "migrated"
        text = f"{verb} {_count(self.migrated, 'tag string')} in {_count(self.changed, 'file')}"
        if self.kept:
            reasons = ", ".join(f"{code} x{n}" for code, n in sorted(self.reasons.items()))
            text += f"; kept {_count(self.kept, 'tag string')} in {_count(self.kept_files, 'file')} ({reasons})"
        else:
            text += "; kept none"
        if self.errors:
            text += f"; {_count(self.errors, 'file')} could not be migrated (errors above)"
        return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    options = Options(*(frozenset(getattr(args, flag[2:].replace("-", "_"))) for flag in OPTION_HELP))
    dry_run = args.check or args.diff
    # one stream for every reason, note, error and the summary (stderr when stdout holds the diff)
    out = sys.stderr if args.diff else sys.stdout
    summary = Summary()
    results: list[FileResult] = []
    unverified = False
    # every module of the tree is read before any is written: the resolver follows imports into them
    roots = [path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)) for path in args.paths]
    resolver = TagResolver(ModuleFinder(roots), every_binding=True)
    for path in python_files(args.paths):
        try:
            with open(path, "rb") as file:
                source = file.read()
            new, migration, before = migrate_source(
                source, path, options, module=module_name(path), path=path, resolver=resolver
            )
        except Unverified:
            unverified = True
            continue
        except (TagSyntaxError, SyntaxError) as exc:
            print(f"{path}:{exc.lineno}:{exc.offset}: error: {exc.msg}", file=out)
            summary.errors += 1
            continue
        except (OSError, ValueError) as exc:  # ValueError: undecodable text too
            print(f"{path}: error: {exc}", file=out)
            summary.errors += 1
            continue
        result = FileResult(path, source, new, before, migration)
        results.append(result)
        summary.add(result)
        said = [(flag.offset, flag.message) for flag in migration.flags]
        said += [(note.offset, f"note: {note.message}") for note in migration.notes]
        for offset, text in sorted(said, key=lambda item: item[0]):
            print(f"{_where(path, before, offset)}: {text}", file=out)
    if unverified:
        print("error: cannot verify the output: install libcst (the migrate extra) or run on Python 3.14", file=out)
        return 2
    used = frozenset(name for result in results for name in result.migration.answered)
    for flag, names in zip(OPTION_HELP, options):
        for name in sorted(names - used):
            print(f"note: {flag} {name}: no tag string in these files calls this tag", file=out)
    for result in results:
        if result.new == result.source:
            continue
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                result.before.splitlines(keepends=True), result.migration.text.splitlines(keepends=True),
                f"a/{result.path}", f"b/{result.path}",
            ))
        elif not args.check:
            with open(result.path, "wb") as file:
                file.write(result.new)
    print(summary.line(dry_run), file=out)
    if summary.errors:
        return 2
    return 1 if dry_run and (summary.changed or summary.kept) else 0
