"""One source file with tag strings, as the flake8 hooks and the TAG rules see it.

``analyse`` runs the runtime's desugarer (the project's only lexer) on the
lines flake8 was given, with ``LintEmitter`` writing the generated code, and
keeps:

- ``tree``: the *lint tree*: ``tag('Hi ', lambda: name)`` for ``tag"Hi {name!r}"``,
  each interpolation as the lambda that makes it lazy (paired with its format
  spec, ``(lambda: x, f'{w}')``, when the spec reads names), user expressions
  at their original positions, and nothing else generated (no run-time
  table, no helper names, not the ``'name', 'r'`` constants of the
  ``Interpolation``: four nodes per field, which no check looks at),
  so pyflakes, mccabe and AST plugins see what the code does;
- ``generated_positions``: the (line, byte column) of every node the
  desugaring made up (a field's lambda at its ``{``, a literal's
  constant, a format spec).  No user node starts there: user expressions start
  inside fields, and the tag's name starts where the tag string does (which is
  deliberately not in the set).  Reports of other plugins landing there are
  about code the user did not write and are dropped (``host.patch``);
- ``masked_lines``: the source with each tag string turned into a plain
  string literal of the same lines and character columns, for the tokenizer
  (pycodestyle, ``# noqa`` mapping);
- ``sites()``: each tag string with its call and the chain of its enclosing
  nodes: the desugarer's sites (``Desugaring.sites``), with the lint
  tree's lambda of each interpolation.
"""

from __future__ import annotations

import ast
import tokenize
from functools import cached_property
from typing import Callable, Iterator, NamedTuple

from tagstr_runtime.frontend import (
    Desugaring,
    Emitter,
    Field,
    Position,
    Site,
    SourceText,
    TagCall,
    TagString,
    TagSyntaxError,
    located,
    mask_text,
)

from tagstr_flake8.lint.collector import built_to_last

__all__ = [
    "Interp", "LintEmitter", "TagFile", "TagSite", "analyse", "mask_text", "physical_lines",
    "walk_interpolation",
]

_LOAD = ast.Load()
# the stock tokenizer: ``host.reparse`` answers tokenize.generate_tokens for other plugins
_generate_tokens = tokenize.generate_tokens


def physical_lines(text: str) -> list[str]:
    """``text`` cut after each ``\n``, as flake8 reads a file into ``lines``.

    Not ``str.splitlines``: that also cuts at a form feed, ``\x0b``,
    ``\x1c``-``\x1e``, ``\x85``, U+2028 and U+2029, which are no line ends
    to Python's tokenizer (nor to flake8, nor to ``SourceText``).
    """
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    if last:
        lines.append(last)
    return lines


def analyse(lines: list[str], filename: str, standard_error: SyntaxError) -> TagFile:
    """The ``TagFile`` of a source that ``ast.parse`` rejected with ``standard_error``.

    Raises a ``SyntaxError`` for flake8's E999: ``standard_error`` itself when
    the source has no tag string (CPython's own error, untouched), the SPEC 5
    error of a malformed tag string, or CPython's error elsewhere in a source
    with tag strings, moved onto the original text.
    """
    text = "".join(lines)
    emitter = LintEmitter()
    with built_to_last():
        try:
            desugaring = Desugaring(
                text, filename, emitter=emitter, emit_warnings=False, standard_error=standard_error
            )
        except TagSyntaxError as exc:
            raise for_flake8(exc) from None
        return TagFile(desugaring, emitter, lines)


def _flake8_column_shift() -> int:
    """What flake8 adds to ``SyntaxError.offset`` before its +1 for display (0 in flake8 7)."""
    from flake8.checker import FileChecker

    probe = SyntaxError("probe", ("<probe>", 1, 5, "12345678\n", 1, 6))
    column: int = FileChecker._extract_syntax_information(probe)[1]
    return column - 5


def for_flake8(exc: TagSyntaxError) -> SyntaxError:
    """The ``SyntaxError`` that flake8 reports as E999 at the error's exact 1-based column.

    flake8 7 prints ``SyntaxError.offset`` (already 1-based) plus one, so its
    E999 for CPython's own errors lands one column right of the offending
    character.  Tag-string errors are ours: their offset is shifted so that
    the E999 column and the ``--show-source`` caret are exact (characters, as
    CPython counts them, so non-ASCII lines come out right).  The type is a
    plain ``SyntaxError``: flake8 prints its name ("E999 SyntaxError: ...").
    """
    filename, lineno, offset, text, end_lineno, end_offset = (
        exc.filename, exc.lineno, exc.offset, exc.text, exc.end_lineno, exc.end_offset
    )
    if offset is not None:
        offset = offset - 1 - _COLUMN_SHIFT
    return SyntaxError(exc.msg, (filename, lineno, offset, text, end_lineno, end_offset))


_COLUMN_SHIFT = _flake8_column_shift()


class Interp(NamedTuple):
    """One interpolation of a tag string: its field and the lambda standing for it."""

    field: Field
    func: ast.Lambda


class TagSite:
    """A tag string, the call the lint tree has for it, and its enclosing nodes (outermost first):
    the analysis layer's ``site``, with the lint tree's lambda of each interpolation."""

    def __init__(self, site: Site, lambdas: dict[int, ast.Lambda]) -> None:
        self.site = site
        self.tag = site.tag
        call = site.call
        assert isinstance(call, ast.Call)
        self.call = call
        self._lambdas = lambdas  # each field's lambda, by the field's offset
        self.parent: TagSite | None = None

    @property
    def chain(self) -> tuple[ast.AST, ...]:
        return self.site.chain

    def interpolations(self) -> list[Interp]:
        return [Interp(hole.field, self._lambdas[hole.field.span.start]) for hole in self.site.holes]


class LintEmitter(Emitter):
    """Writes the lint tree and records what the hooks and rules need."""

    def __init__(self) -> None:
        self.lambdas: list[ast.Lambda] = []
        self.by_field: dict[int, ast.Lambda] = {}  # a field's offset -> its lambda (not spec fields')

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return located(ast.Constant(cooked), at)

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        func = self.thunk(value, at)
        self.lambdas.append(func)
        self.by_field[field.span.start] = func
        if isinstance(spec, ast.Constant):
            return func
        return located(ast.Tuple([func, spec], _LOAD), at)

    def call(self, emitted: TagCall) -> ast.expr:
        return located(ast.Call(emitted.func, emitted.args, []), emitted.at)


class TagFile:
    """A source with tag strings: lint tree, generated positions, masked lines, sites."""

    def __init__(self, desugaring: Desugaring, emitter: LintEmitter, lines: list[str]) -> None:
        self.desugaring = desugaring
        self.lines = lines
        self.source: SourceText = desugaring.source
        self.outermost: tuple[TagString, ...] = desugaring.tag_strings
        self.tags: tuple[TagString, ...] = tuple(t for top in self.outermost for t in top.walk())
        self.tree: ast.Module = desugaring.tree  # type: ignore[assignment]
        #: every tag string (nested ones too), in source order
        self._sites = _tag_sites(desugaring.sites, emitter.by_field)
        self._generated_lambdas = frozenset(map(id, emitter.lambdas))
        self._lambdas = emitter.lambdas
        self.generated_positions: frozenset[tuple[int, int]] = self._generated_positions()
        #: set by ``tokenize_masked``: lines read by the tokenizer before each token
        self.token_reads: list[int] | None = None

    def _generated_positions(self) -> frozenset[tuple[int, int]]:
        at = self.source.line_col_byte
        offsets: set[int] = set()

        def spec_parts(field: Field) -> None:
            if field.spec_span is not None:
                offsets.add(field.spec_span.start)
            for part in field.spec or ():
                offsets.add(part.span.start)
                if isinstance(part, Field):
                    spec_parts(part)

        for tag in self.tags:
            for part in tag.parts:
                offsets.add(part.span.start)
                if isinstance(part, Field):
                    spec_parts(part)
        offsets.difference_update(tag.span.start for tag in self.tags)
        return frozenset(at(offset) for offset in offsets)

    # positions --------------------------------------------------------------------

    def position(self, offset: int) -> tuple[int, int]:
        """(line, byte column) of a character offset: the unit of ``ast`` and of AST plugins."""
        return self.source.line_col_byte(offset)

    # tokens -----------------------------------------------------------------------

    @cached_property
    def masked_lines(self) -> list[str] | None:
        """The lines to tokenize, or None when they cannot stand for ``lines``."""
        if "".join(self.lines) != self.source.text:  # e.g. a stray "\r": offsets would not match
            return None
        masked = physical_lines(mask_text(self.source.text, self.outermost))
        if len(masked) != len(self.lines):
            return None
        return masked

    @cached_property
    def masked_rows(self) -> frozenset[int]:
        """The lines a tag string touches: only their tokens carry a masked line."""
        rows: set[int] = set()
        for tag in self.outermost:
            rows.update(range(self.source.line_of(tag.span.start), self.source.line_of(tag.span.end) + 1))
        return frozenset(rows)

    def masked_tokens(self) -> Iterator[tokenize.TokenInfo]:
        """The tokens of ``masked_lines`` (not None), each carrying its original physical line."""
        masked = self.masked_lines
        assert masked is not None
        lines = iter(masked)
        return (self.restore_line(t) for t in _generate_tokens(lambda: next(lines, "")))

    def restore_line(self, token: tokenize.TokenInfo) -> tokenize.TokenInfo:
        """``token`` with its ``line`` taken from the original text (physical-line checks)."""
        first, last = token.start[0], token.end[0]
        rows = self.masked_rows
        if first not in rows and last not in rows:
            return token
        masked = self.masked_lines
        assert masked is not None
        line = token.line
        if line == masked[first - 1]:
            line = self.lines[first - 1]
        elif line == "".join(masked[first - 1 : last]):
            line = "".join(self.lines[first - 1 : last])
        elif line == masked[last - 1]:
            line = self.lines[last - 1]
        else:
            return token
        return tokenize.TokenInfo(token.type, token.string, token.start, token.end, line)

    def tokenize_masked(self) -> list[tokenize.TokenInfo]:
        """The tokens of ``masked_lines`` with their original lines (``file_tokens``).

        Records in ``token_reads`` how many lines the tokenizer had read when
        it produced each token, so that flake8's second pass over the tokens
        can replay them (``host.patch``) instead of tokenizing again.
        """
        masked = self.masked_lines
        assert masked is not None
        lines = iter(masked)
        read = 0

        def readline() -> str:
            nonlocal read
            line = next(lines, "")
            read += bool(line)
            return line

        tokens: list[tokenize.TokenInfo] = []
        reads: list[int] = []
        rows = self.masked_rows
        for token in _generate_tokens(readline):
            if token[2][0] in rows or token[3][0] in rows:
                token = self.restore_line(token)
            tokens.append(token)
            reads.append(read)
        self.token_reads = reads
        return tokens

    # sites ------------------------------------------------------------------------

    def sites(self) -> list[TagSite]:
        """Every tag string (nested ones too) with its enclosing nodes, in source order."""
        return self._sites

    def is_generated(self, node: ast.AST) -> bool:
        """A lambda made for an interpolation (not one the user wrote)."""
        return isinstance(node, ast.Lambda) and id(node) in self._generated_lambdas


def _tag_sites(sites: tuple[Site, ...], lambdas: dict[int, ast.Lambda]) -> list[TagSite]:
    found: dict[int, TagSite] = {}  # by the site's identity
    for site in sites:
        tag_site = found[id(site)] = TagSite(site, lambdas)
        if site.parent is not None:
            tag_site.parent = found[id(site.parent)]  # in source order: the parent came first
    return list(found.values())


def walk_interpolation(
    tagfile: TagFile, func: ast.Lambda, into: Callable[[ast.AST], bool] = lambda node: True
) -> Iterator[ast.AST]:
    """The nodes of an interpolation's expression, not entering nested tag strings' lambdas
    (nor the nodes for which ``into`` is false)."""
    from tagstr_runtime.frontend import expression_nodes

    return expression_nodes(func.body, tagfile.is_generated, into)
