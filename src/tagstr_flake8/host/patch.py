"""The hooks into flake8 that make every check run on files with tag strings.

Stock flake8 parses a file once (``FileProcessor.build_ast``) and, on a
``SyntaxError``, reports E999 and runs nothing else.  ``install`` wraps three
methods (through ``wrap_once``: once, and a method a new flake8 moved is left
alone with one warning); the plugin calls it when flake8 activates it, not
when it is imported (see ``tagstr_flake8.lint.flake8_plugin`` for when):

- ``FileProcessor.build_ast``: the standard ``ast.parse`` first, untouched;
  only when it fails, the desugarer runs on the lines flake8 was given (so
  stdin works) and its lint tree is returned (see ``lint.tag_file``).  A
  malformed tag string raises the ``SyntaxError`` flake8 turns into E999.
- ``FileProcessor.generate_tokens`` and ``file_tokens``: for a file with tag
  strings, the tokens of the masked text (each tag string a plain string
  literal with the same columns) carrying the original physical lines, so
  pycodestyle and the ``# noqa`` mapping see the original text and nothing
  spurious.
- ``FileChecker.run_ast_checks``: on a file with tag strings each other AST
  plugin runs through ``host.plugin_run`` (its own parses of the file's text get
  the lint tree or the masked tokens, and its failure is one TAG900 instead of
  the end of the whole run); reports of other AST plugins that land on a node
  the desugaring generated (e.g. bugbear's B023 on an interpolation's lambda)
  are dropped; the TAG rules report the real hazards.

On a file that ``ast.parse`` accepts (SPEC 1.8: it has no tag string) each
hook costs one attribute look-up, and nothing of the desugarer, the analysis
or the other plugins' runner is imported: the hooks import them at the first
file with tag strings.
"""

from __future__ import annotations

import functools
import logging
import tokenize
from typing import TYPE_CHECKING, Any, Callable, Iterator

from flake8 import checker as _checker
from flake8 import processor as _processor

from tagstr_runtime.frontend import strict, wrap_once

if TYPE_CHECKING:
    from tagstr_flake8.lint.tag_file import TagFile

__all__ = ["CLOSURE_CODES", "TAGFILE_ATTRIBUTE", "install", "tagfile_of"]

LOG = logging.getLogger(__name__)
TAGFILE_ATTRIBUTE = "_tagstr_file"  # on the FileProcessor and on the tree it built
# Codes other plugins report at a *user* name because of the closure the
# desugaring generates for an interpolation: bugbear's "function definition
# does not bind loop variable".  Where the closure is an interpolation's, the
# TAG rule for that hazard (TAG006) reports it in tag-string terms instead.
CLOSURE_CODES = frozenset(["B023"])
# pyflakes' "undefined name" and "assigned to but never used" for the name of an
# ``except ... as`` read by an interpolation: our closure reads it after the
# handler deleted it, where the f-string twin reads it in place (TAG013 instead).
HANDLER_CODES = frozenset(["F821", "F841"])


def tagfile_of(obj: object) -> TagFile | None:
    found = getattr(obj, TAGFILE_ATTRIBUTE, None)
    if found is None:  # every file without tag strings: no import
        return None
    from tagstr_flake8.lint.tag_file import TagFile

    return found if isinstance(found, TagFile) else None


def _make_build_ast(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    @functools.wraps(original)
    def build_ast(self: Any) -> Any:
        try:
            return original(self)
        except SyntaxError as exc:
            standard = exc
        from tagstr_flake8.lint.tag_file import analyse  # the desugarer: at the first file that needs it

        try:
            tagfile = analyse(self.lines, self.filename, standard)
        except SyntaxError:
            raise
        except Exception:  # a bug of ours must not take flake8 down: report CPython's error
            if strict():
                raise
            LOG.exception("tagstr_flake8: desugaring %s failed", self.filename)
            raise standard from None
        setattr(self, TAGFILE_ATTRIBUTE, tagfile)
        setattr(tagfile.tree, TAGFILE_ATTRIBUTE, tagfile)
        return tagfile.tree

    return build_ast


def _masked(self: Any) -> tuple[TagFile, list[str]] | None:
    tagfile = self.__dict__.get(TAGFILE_ATTRIBUTE)
    if tagfile is None:
        return None
    masked = tagfile.masked_lines
    if masked is None:
        return None
    return tagfile, masked


def _make_generate_tokens(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    @functools.wraps(original)
    def generate_tokens(self: Any) -> Iterator[tokenize.TokenInfo]:
        found = _masked(self)
        if found is None:  # flake8's own generator, no per-token cost
            tokens: Iterator[tokenize.TokenInfo] = original(self)
            return tokens
        tagfile, masked = found
        computed = self.__dict__.get("file_tokens")
        if computed is not None and tagfile.token_reads is not None:
            return _replayed_tokens(self, computed, tagfile.token_reads)
        return _masked_tokens(self, tagfile, masked)

    return generate_tokens


def _masked_tokens(
    processor: Any, tagfile: TagFile, masked: list[str]
) -> Iterator[tokenize.TokenInfo]:
    """The tokens of the masked text, each carrying its original physical line."""

    def readline() -> str:
        if processor.next_line() == "":  # keeps line_number and indent_char up to date
            return ""
        line: str = masked[processor.line_number - 1]
        return line

    rows = tagfile.masked_rows
    total = processor.total_lines
    for token in tokenize.generate_tokens(readline):
        if token[2][0] > total:
            break
        if token[2][0] in rows or token[3][0] in rows:
            token = tagfile.restore_line(token)
        processor.tokens.append(token)  # a new list after each logical line
        yield token


def _replayed_tokens(
    processor: Any, tokens: list[tokenize.TokenInfo], reads: list[int]
) -> Iterator[tokenize.TokenInfo]:
    """``file_tokens`` again, with the processor reading its lines as the tokenizer did.

    flake8 tokenizes a file a second time for its ``# noqa`` table as soon as
    any check reports: replaying that list, with ``next_line`` called exactly
    as often as the tokenizer had called it before each token, keeps the
    processor's state (``line_number``, ``indent_char``) what streaming gives.
    """
    total = processor.total_lines
    for token, read in zip(tokens, reads):
        while processor.line_number < read and processor.next_line() != "":
            pass
        if token[2][0] > total:
            break
        processor.tokens.append(token)  # a new list after each logical line
        yield token


def _make_file_tokens(original: object) -> functools.cached_property[Any]:
    if not isinstance(original, functools.cached_property):
        raise TypeError(f"not a functools.cached_property: {original!r}")
    compute = original.func

    def file_tokens(self: Any) -> list[tokenize.TokenInfo]:
        found = _masked(self)
        if found is None:
            return compute(self)  # type: ignore[no-any-return]
        return found[0].tokenize_masked()

    file_tokens.__doc__ = compute.__doc__
    prop: functools.cached_property[Any] = functools.cached_property(file_tokens)
    prop.__set_name__(_processor.FileProcessor, "file_tokens")
    return prop


def _make_run_ast_checks(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    @functools.wraps(original)
    def run_ast_checks(self: Any) -> None:
        stock = type(self).run_check
        stock_report = self.report

        def run_check(plugin: Any, **arguments: Any) -> Any:
            tagfile = tagfile_of(self.processor)  # set by build_ast, before the first plugin
            if tagfile is None:
                return stock(self, plugin, **arguments)
            from tagstr_flake8.host.plugin_run import run_plugin

            return run_plugin(self, stock, tagfile, plugin, arguments)

        def report(error_code: str | None, line_number: int, column: int, text: str) -> str | None:
            # dropped before flake8 stores it: storing a report computes the file's
            # ``# noqa`` table, a second tokenization of the whole file that the
            # f-string twin of the file never pays for reports that are then dropped
            tagfile = tagfile_of(self.processor)
            if tagfile is not None:
                code = error_code or text.split(" ", 1)[0]
                if _on_generated_code(tagfile, code, line_number, column):
                    return None
            kept: str = stock_report(error_code=error_code, line_number=line_number, column=column, text=text)
            return kept

        # only for the AST plugins: the per-line checks that follow call the class's methods
        self.run_check = run_check
        self.report = report
        try:
            original(self)
        finally:
            del self.run_check
            del self.report
            tagfile = tagfile_of(self.processor)
            if tagfile is not None:
                # the AST checks are done with it: a plugin that keeps the tree (bugbear
                # caches its last 128 checkers, each holding one) does not keep the
                # model, the texts and the sites of every file as well
                tagfile.tree.__dict__.pop(TAGFILE_ATTRIBUTE, None)

    return run_ast_checks


def _on_generated_code(tagfile: TagFile, code: str, line: int, column: int) -> bool:
    """A report of another plugin about code the desugaring made, not the user."""
    if code.startswith("TAG"):
        return False
    if (line, column) in tagfile.generated_positions:
        return True
    if code not in CLOSURE_CODES and code not in HANDLER_CODES:
        return False
    from tagstr_flake8.host.closure_reports import closure_only_reads, handler_closure_reads, twin_reports_b023

    if code in CLOSURE_CODES:
        ours, users = closure_only_reads(tagfile)
        if (line, column) in users:  # a function of the user's reads it: as bugbear says of the twin
            return not twin_reports_b023(tagfile, line, column)
        return (line, column) in ours
    if code in HANDLER_CODES:
        reads, clauses = handler_closure_reads(tagfile)
        return (line, column) in (reads if code == "F821" else clauses)
    return False


_TOOL = "tagstr_flake8"


def install() -> None:
    """Wrap flake8's methods (idempotent; a method flake8 moved is left alone, with one warning)."""
    processor = _processor.FileProcessor
    wrap_once(processor, "build_ast", _make_build_ast, tool=_TOOL,
              feature="checking files with tag strings (they get E999, as without the plugin)")
    tokens = "the original text of files with tag strings for token checks and # noqa"
    wrap_once(processor, "generate_tokens", _make_generate_tokens, tool=_TOOL, feature=tokens)
    wrap_once(processor, "file_tokens", _make_file_tokens, tool=_TOOL, feature=tokens)
    wrap_once(_checker.FileChecker, "run_ast_checks", _make_run_ast_checks, tool=_TOOL,
              feature="other plugins on files with tag strings (re-reads, failures, generated code)")
