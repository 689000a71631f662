"""One desugaring of a source: parse, placeholder, CPython's parse, generation, for one emitter.

Source with tag strings -> ``ast`` tree of standard Python, every node at its
original position, in one CPython parse (no re-parsing of each expression):

1. ``syntax.parser.parse`` finds the tag strings (the project's only lexer);
2. ``desugarer.placeholder.placeholder_text`` overwrites each in place by a same-shape call;
3. CPython parses that text: interpolation expressions get exact positions
   (and their syntax errors land at the right place);
4. ``desugarer.generator.Generator`` replaces each placeholder call, writing the
   generated code through the consumer's emitter (``desugarer.emit``).

A source without tag strings takes CPython's path untouched (SPEC 1.8).
"""

from __future__ import annotations

import __future__
import ast
import builtins
import functools
import gc
import sys
import warnings
import zlib
from contextlib import contextmanager
from typing import Iterator

from tagstr_runtime.syntax import errors as E
from tagstr_runtime.desugarer.cpython import parse_text
from tagstr_runtime.desugarer.emit import Emitter, RuntimeEmitter
from tagstr_runtime.syntax.errors import ErrorKind, TagSyntaxError, error_at
from tagstr_runtime.desugarer.field_texts import restore_field_texts
from tagstr_runtime.desugarer.first_error import first_error
from tagstr_runtime.desugarer.fstring_twin import fstring_field_error
from tagstr_runtime.desugarer.generator import Generator
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.named_escapes import explain_named_escape
from tagstr_runtime.syntax.parser import Broken, ParseResult, scan
from tagstr_runtime.desugarer.placeholder import placeholder_text
from tagstr_runtime.desugarer.repeated_warnings import shown_once
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.desugarer.sites import Site

__all__ = ["Desugaring", "collector_paused"]

_builtin_compile = builtins.compile

# PyCF_OPTIMIZED_AST (3.13+) minus PyCF_ONLY_AST: the generator needs the unoptimised tree.
_OPTIMIZED_ONLY = getattr(ast, "PyCF_OPTIMIZED_AST", 0) & ~ast.PyCF_ONLY_AST


@contextmanager
def collector_paused() -> Iterator[None]:
    """Everything a desugaring builds (model, trees) is acyclic and dies or lives as a
    whole: the cyclic collector running in between is pure cost (a third of the
    time on a large module)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Desugaring:
    """The desugared tree of one source for one consumer, and what led to it.

    ``emitter``: how generated code is written (default: code that runs, for
    ``mode``).  ``standard_error``: CPython's error for the source, if the
    caller already has it; a source without tag strings raises it (CPython's
    error is the best one).  ``original``: the source as given, before
    decoding and newline normalisation; a source without tag strings is parsed
    from it, untouched.  Malformed tag strings raise ``TagSyntaxError`` (SPEC 5),
    unless the source breaks before the first of them: then CPython's error
    there (``desugarer.first_error``), as without the tag strings.
    """

    source: SourceText
    result: ParseResult
    #: the text CPython parsed: each tag string overwritten in place by a call
    #: with the same per-line length (None without tag strings)
    placeholder: str | None
    #: the offsets of the fields the placeholder chains to the field before them
    #: (``(a + 1)(b or c)``: see ``placeholder_text``)
    chained: frozenset[int]
    emitter: Emitter
    tree: ast.AST
    _sites: list[Site]  # as the generator made them: nested ones first
    _sorted_sites: tuple[Site, ...] | None

    def __init__(
        self,
        text: str,
        filename: str = "<unknown>",
        mode: str = "exec",
        *,
        emitter: Emitter | None = None,
        flags: int = 0,
        standard_error: SyntaxError | MemoryError | None = None,
        template_strings: bool | None = None,
        feature_version: tuple[int, int] | None = None,
        emit_warnings: bool = True,
        original: str | bytes | None = None,
    ) -> None:
        if emitter is None:
            emitter = RuntimeEmitter(by_name=mode != "eval", salt=_salt(text))
        self.emitter = emitter
        with collector_paused():
            self._build(text, filename, mode, flags, standard_error, template_strings,
                        feature_version, emit_warnings, original)

    @property
    def tag_strings(self) -> tuple[TagString, ...]:
        """The outermost tag strings (nested ones hang off their fields)."""
        return self.result.tag_strings

    @property
    def sites(self) -> tuple[Site, ...]:
        """Every tag string desugared (nested ones too), in source order: what its tag
        receives and where (``desugarer.sites``).  A tag string in an annotation stored
        as text (PEP 563, runtime emitter) is not desugared and has none."""
        if self._sorted_sites is None:
            self._sorted_sites = tuple(sorted(self._sites, key=_site_start))
        return self._sorted_sites

    def _build(
        self,
        text: str,
        filename: str,
        mode: str,
        flags: int,
        standard_error: SyntaxError | MemoryError | None,
        template_strings: bool | None,
        feature_version: tuple[int, int] | None,
        emit_warnings: bool,
        original: str | bytes | None,
    ) -> None:
        if "\0" in text:  # CPython rejects any source with a NUL byte, tag strings or not
            raise standard_error or SyntaxError("source code string cannot contain null bytes")
        self.source = src = SourceText(text)
        flags = (flags | ast.PyCF_ONLY_AST) & ~_OPTIMIZED_ONLY
        scanned = scan(text, filename, template_strings=template_strings, source=src)
        if isinstance(scanned, Broken):
            raise first_error(scanned, src, filename, mode, flags, feature_version) from None
        self.result = result = scanned
        self.placeholder = None
        self.chained = frozenset()
        self._sites = []
        self._sorted_sites = None
        if not result.tag_strings:
            if standard_error is not None:
                raise standard_error
            plain = text if original is None else original
            self.tree = parse_text(plain, filename, mode, flags, feature_version, src, ())
            return
        chained: set[int] = set()
        self.placeholder = placeholder = placeholder_text(text, result.tag_strings, chained)
        self.chained = frozenset(chained)
        # the caller's parse (it had an error) showed CPython's warnings already
        standard_parse = (
            functools.partial(_builtin_compile, text, filename, mode, flags, dont_inherit=True)
            if standard_error is not None else None
        )
        try:
            with shown_once(standard_parse):
                tree = parse_text(placeholder, filename, mode, flags, feature_version, src, result.tag_strings)
            generator = Generator(src, filename, chained, self.emitter,
                                  future_annotations=_future_annotations(tree, flags))
            tree = generator.replace_in(tree, result.tag_strings)
            self._sites = generator.sites
            restore_field_texts(self._sites, src, placeholder)
        except RecursionError:
            first = result.tag_strings[0]
            raise error_at(src, filename, E.TOO_DEEP, first.span.start, first.tag_span.end) from None
        except TagSyntaxError as exc:
            if result.warnings:
                escapes = {w.span.end - 1: w.span.start for w in result.warnings}
                explained = explain_named_escape(exc, src, filename, result.tag_strings, escapes)
                if explained is not exc:
                    raise explained from None
            raise fstring_field_error(exc, src, result.tag_strings, filename, mode, flags, feature_version) from None
        if generator.replaced != sum(len(t.walk()) for t in result.tag_strings):
            _reject_patterns(tree, src, filename, result.tag_strings)
            # Python 3.11 computes f-string field positions by text search and can
            # misplace two identical placeholders inside one f-string.
            first = result.tag_strings[0]
            raise error_at(
                src, filename,
                E.CANNOT_LOCATE.format(
                    "identical tag strings inside one f-string are not supported on Python 3.11"
                    if sys.version_info < (3, 12) else "please report this as a bug"
                ),
                first.span.start, first.span.end,
            )
        self.tree = self.emitter.finish(tree)
        if emit_warnings:
            for warning in result.warnings:
                pos = src.pos(warning.span.start)
                try:
                    warnings.warn_explicit(warning.message, SyntaxWarning, filename, pos.line)
                except SyntaxWarning:
                    # "-W error": a SyntaxError at the spot, as CPython turns its own
                    # SyntaxWarnings (not the raw warning from inside the desugarer)
                    span = warning.span
                    raise error_at(src, filename, warning.message, span.start, span.end,
                                   kind=ErrorKind.ESCAPE) from None


def _site_start(site: Site) -> int:
    return site.tag.span.start


def _future_annotations(tree: ast.AST, flags: int) -> bool:
    """PEP 563 is on: inherited through ``flags`` or imported by the source."""
    if flags & __future__.annotations.compiler_flag:
        return True
    if not isinstance(tree, (ast.Module, ast.Interactive)):
        return False  # eval mode: an expression has no annotations
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            if any(alias.name == "annotations" for alias in stmt.names):
                return True
        elif not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            break  # future imports come first (after a docstring)
    return False


def _salt(text: str) -> str:
    """Eight hex digits of the source: deterministic (cached bytecode stays
    reproducible), different for different sources run in one namespace."""
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def _reject_patterns(
    tree: ast.AST, src: SourceText, filename: str, tags: tuple[TagString, ...]
) -> None:
    """``case tag"x":`` reads a placeholder call as a class pattern: say so."""
    starts = {src.line_col_byte(tag.span.start): tag for tag in tags}
    for node in ast.walk(tree):
        if isinstance(node, ast.pattern):
            tag = starts.get((node.lineno, node.col_offset))
            if tag is not None:
                raise error_at(src, filename, E.PATTERN, tag.span.start, tag.span.end)
