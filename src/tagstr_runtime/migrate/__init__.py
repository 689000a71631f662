"""``python -m tagstr_runtime.migrate``: rewrite tag strings as Python 3.14 t-strings.

    python -m tagstr_runtime.migrate [--check | --diff] [--lazy-tag NAME] [--eager-tag NAME]
                                     [--raw-tag NAME] PATH...

``html"<p>{x}</p>"`` becomes ``html(t"<p>{x}</p>")`` when every definition
of ``html`` that can reach it is proven to behave the same given the eager
template: it takes one (``@accepts_template``, ``template_tag``) and reads
each value exactly once, in order, with nothing observable in between
(``analysis.tag_reading``).  Any other tag string is left as it is and
reported with the reason that names its shape (``path:line:col: MIGnnn
...``); what the command assumed about tags defined in other modules is
reported as a note.  Without ``--check``/``--diff`` the
files are rewritten in place.  Exit status: 0 done or nothing to do, 1 with
``--check``/``--diff`` when a file would change or a tag string is kept, 2
when a file could not be read, parsed or verified (it is then left untouched)
or the output's reader went away.

The output is verified before anything is written: compiled on 3.14+,
parsed with libcst (which reads 3.14 syntax on any Python) before; with
neither, the command says the output is unverified.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.migrate.output import FileResult, Summary, say, write_diff
from tagstr_runtime.migrate.rewrite import NO_OPTIONS, Migration, Options, migrate_text
from tagstr_runtime.migrate.verify import Unverified, verify
from tagstr_runtime.run.precompile import EXCLUDED_FOLDERS, python_files
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.imports import ModuleFinder, module_name

__all__ = ["main", "migrate_source"]


def migrate_source(
    source: bytes, filename: str, options: Options = NO_OPTIONS, *, module: str = "__main__",
    path: str | None = None, resolver: TagResolver | None = None,
) -> tuple[bytes, Migration, str]:
    """The migrated bytes of one file (same encoding, BOM and line endings), the
    migration, and the text it started from (offsets of flags and notes are in it).
    ``module``, ``path``, ``resolver``: as ``migrate_text`` takes them."""
    new, migration, text, _ = _migrate_bytes(source, filename, options, module, path, resolver)
    return new, migration, text


def _migrate_bytes(
    source: bytes, filename: str, options: Options, module: str, path: str | None, resolver: TagResolver | None,
) -> tuple[bytes, Migration, str, str]:
    """``migrate_source``, and the file's encoding."""
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
        return source, migration, normal, encoding
    verify(migration.text, filename)
    out = migration.text.replace("\n", newline)
    return (("\ufeff" if bom else "") + out).encode(encoding), migration, normal, encoding


def _where(path: str, text: SourceText, offset: int) -> str:
    pos = text.pos(offset)
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
    "--eager-tag": "you vouch that the tag reads each value exactly once, in order, before it returns, with "
                   "nothing observable in between (what the command cannot prove from its definition: "
                   "MIG001, MIG011, MIG013, MIG014); what it can see is unsafe is kept all the same",
    "--template-tag": "the tag takes a template (as @accepts_template and template_tag tags do)",
    "--raw-tag": "the tag reads .raw: its text is kept as written (rt\"...\")",
}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (``| head``): stop there, quietly (the files are written after
        # every reason is printed), with the status of a file that could not be migrated; what
        # is left to flush goes nowhere (Python's own flush at exit would fail again)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # a stdout without a file: nothing to flush
            pass
        return 2


def _main(argv: Sequence[str] | None) -> int:
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
    finder = ModuleFinder(roots)
    resolver = TagResolver(finder, every_binding=True)
    for path in python_files(args.paths, exclude=EXCLUDED_FOLDERS, environments=False):
        finder.forget(path)  # read for another module's import: this file's own reading replaces it
        try:
            with open(path, "rb") as file:
                source = file.read()
            new, migration, before, encoding = _migrate_bytes(
                source, path, options, module_name(path, finder.roots), path, resolver
            )
        except Unverified:
            unverified = True
            continue
        except (TagSyntaxError, SyntaxError) as exc:
            say(f"{path}:{exc.lineno}:{exc.offset}: error: {exc.msg}", out)
            summary.errors += 1
            continue
        except (OSError, ValueError) as exc:  # ValueError: undecodable text too
            say(f"{path}: error: {exc}", out)
            summary.errors += 1
            continue
        # what is written at the end: the new bytes of a changed file (not its texts)
        changed = new != source
        result = FileResult(path, source if changed else b"", new if changed else b"", "",
                            migration._replace(text=""), encoding)
        summary.add(result)
        results.append(result)
        said = [(flag.offset, flag.message) for flag in migration.flags]
        said += [(note.offset, f"note: {note.message}") for note in migration.notes]
        if said:
            lines = SourceText(before)  # one line index for all the reasons
            for offset, text in sorted(said, key=lambda item: item[0]):
                say(f"{_where(path, lines, offset)}: {text}", out)
    if unverified:
        say("error: cannot verify the output: install libcst (the migrate extra) or run on Python 3.14", out)
        return 2
    used = frozenset(name for result in results for name in result.migration.answered)
    for flag, names in zip(OPTION_HELP, options):
        for name in sorted(names - used):
            say(f"note: {flag} {name}: no tag string in these files calls this tag", out)
    for result in results:
        if result.new == result.source:
            continue
        if args.diff:
            write_diff(result, result.new, sys.stdout)
        elif not args.check:
            with open(result.path, "wb") as file:
                file.write(result.new)
    say(summary.line(dry_run), out)
    if summary.errors:
        return 2
    return 1 if dry_run and (summary.changed or summary.kept or summary.reasons) else 0
