"""One source file with tag strings, as the flake8 hooks and the TAG rules see it.

``analyse`` runs the shared desugarer (``tagstr_runtime._desugar``, the only
lexer of the project) on the lines flake8 was given and turns its result into:

- ``tree``: the *lint tree*, the desugared module reshaped for linters.  The
  runtime's tree reaches its helpers through dunder globals bound by a
  prologue (``__tagstr__``, ``__tagstr_0__``...); linters must never see
  those, so the prologue is dropped, each ``Decoded`` reference becomes the
  string constant it stands for and each ``Interpolation((...))`` call its
  4-tuple.  What is left is ``tag('Hi ', (lambda: name, 'name', 'r', None))``:
  user expressions at their original positions, inside the lambda that makes
  them lazy, so pyflakes, mccabe and AST plugins see what the code does.
- ``generated_positions``: the (line, byte column) of every node the
  desugaring made up (a field's lambda and tuple at its ``{``, a literal's
  constant, a format spec).  No user node starts there: user expressions start
  inside fields, and the tag's name starts where the tag string does (which is
  deliberately not in the set).  Reports of other plugins landing there are
  about code the user did not write and are dropped (``_patch``).
- ``masked_lines``: the source with each tag string turned into a plain
  string literal of the same lines and character columns, for the tokenizer
  (pycodestyle, ``# noqa`` mapping); see ``mask_text``.
- ``sites()``: each tag string with its generated call and the chain of its
  enclosing nodes, for the rules.
"""

from __future__ import annotations

import ast
import re
import tokenize
from bisect import bisect_left
from functools import cached_property
from typing import Iterator, NamedTuple

from tagstr_runtime._desugar import Desugaring
from tagstr_runtime._errors import TagSyntaxError
from tagstr_runtime._model import Field, Span, TagString
from tagstr_runtime._rt import TABLE_NAME, slot_name
from tagstr_runtime._source import SourceText

__all__ = ["Interp", "TagFile", "TagSite", "analyse", "mask_text", "walk_interpolation"]

_SLOT = re.compile(r"__tagstr_(\d+)__\Z")
_INTERPOLATION = slot_name(0)
_NOT_NEWLINE = re.compile(r"[^\n]")


def analyse(lines: list[str], filename: str, standard_error: SyntaxError) -> TagFile:
    """The ``TagFile`` of a source that ``ast.parse`` rejected with ``standard_error``.

    Raises a ``SyntaxError`` for flake8's E999: ``standard_error`` itself when
    the source has no tag string (CPython's own error, untouched), the SPEC 5
    error of a malformed tag string, or CPython's error elsewhere in a source
    with tag strings, moved onto the original text.
    """
    text = "".join(lines)
    try:
        desugaring = Desugaring(text, filename, emit_warnings=False, standard_error=standard_error)
    except TagSyntaxError as exc:
        raise for_flake8(exc) from None
    return TagFile(desugaring, lines)


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


class TagSite(NamedTuple):
    """A tag string, the call the lint tree has for it, and its enclosing nodes (outermost first)."""

    tag: TagString
    call: ast.Call
    chain: tuple[ast.AST, ...]

    def interpolations(self) -> list[Interp]:
        fields = [part for part in self.tag.parts if isinstance(part, Field)]
        lambdas = [arg.elts[0] for arg in self.call.args if isinstance(arg, ast.Tuple)]
        return [Interp(f, func) for f, func in zip(fields, lambdas) if isinstance(func, ast.Lambda)]


class TagFile:
    """A source with tag strings: lint tree, generated positions, masked lines, sites."""

    def __init__(self, desugaring: Desugaring, lines: list[str]) -> None:
        self.desugaring = desugaring
        self.lines = lines
        self.source: SourceText = desugaring.source
        self.outermost: tuple[TagString, ...] = desugaring.result.tag_strings
        self.tags: tuple[TagString, ...] = tuple(t for top in self.outermost for t in top.walk())
        generated = desugaring.generator.generated
        self.calls: dict[Span, ast.Call] = {tag.span: generated[tag.span] for tag in self.tags}
        self.tree: ast.Module = desugaring.tree  # type: ignore[assignment]
        self._reshape()
        self.generated_positions: frozenset[tuple[int, int]] = self._generated_positions()

    # the lint tree ----------------------------------------------------------------

    def _reshape(self) -> None:
        entries = self.desugaring.generator.entries
        for call in self.calls.values():
            args = call.args
            for index, arg in enumerate(args):
                if isinstance(arg, ast.Name):
                    match = _SLOT.match(arg.id)
                    if match is not None and match.group(1) != "0":
                        args[index] = ast.copy_location(
                            ast.Constant(entries[int(match.group(1)) - 1][0]), arg
                        )
                elif (
                    isinstance(arg, ast.Call)
                    and isinstance(arg.func, ast.Name)
                    and arg.func.id == _INTERPOLATION
                ):
                    args[index] = arg.args[0]
        self.tree.body[:] = [stmt for stmt in self.tree.body if not _is_prologue(stmt)]

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
        masked = mask_text(self.source.text, self.outermost).splitlines(keepends=True)
        if len(masked) != len(self.lines):
            return None
        return masked

    @cached_property
    def _masked_rows(self) -> frozenset[int]:
        rows: set[int] = set()
        for tag in self.outermost:
            rows.update(range(self.source.line_of(tag.span.start), self.source.line_of(tag.span.end) + 1))
        return frozenset(rows)

    def restore_line(self, token: tokenize.TokenInfo) -> tokenize.TokenInfo:
        """``token`` with its ``line`` taken from the original text (physical-line checks)."""
        first, last = token.start[0], token.end[0]
        rows = self._masked_rows
        if first not in rows and last not in rows:
            return token
        masked = self.masked_lines
        assert masked is not None
        line = token.line
        if line == masked[first - 1]:
            return token._replace(line=self.lines[first - 1])
        if line == "".join(masked[first - 1 : last]):
            return token._replace(line="".join(self.lines[first - 1 : last]))
        if line == masked[last - 1]:
            return token._replace(line=self.lines[last - 1])
        return token

    # sites ------------------------------------------------------------------------

    def sites(self) -> list[TagSite]:
        """Every tag string (nested ones too) with its enclosing nodes, in tree order."""
        return self._sites

    @cached_property
    def _sites(self) -> list[TagSite]:
        by_call = {id(self.calls[tag.span]): tag for tag in self.tags}
        keys = sorted((call.lineno, call.col_offset) for call in self.calls.values())
        found: list[TagSite] = []

        def visit(node: ast.AST, chain: tuple[ast.AST, ...]) -> None:
            for child in ast.iter_child_nodes(node):
                tag = by_call.get(id(child))
                if tag is not None:
                    assert isinstance(child, ast.Call)
                    found.append(TagSite(tag, child, chain))
                    visit(child, (*chain, child))
                    continue
                lineno = getattr(child, "lineno", None)
                if lineno is not None:
                    start = (lineno, child.col_offset)  # type: ignore[attr-defined]
                    decorators = getattr(child, "decorator_list", None)
                    if decorators:
                        start = min(start, (decorators[0].lineno, decorators[0].col_offset))
                    end = (child.end_lineno, child.end_col_offset)  # type: ignore[attr-defined]
                    first = bisect_left(keys, start)
                    if first == len(keys) or keys[first] > end:
                        continue
                visit(child, (*chain, child))

        visit(self.tree, (self.tree,))
        return found

    def is_generated(self, node: ast.AST) -> bool:
        """A lambda made for an interpolation (not one the user wrote)."""
        return isinstance(node, ast.Lambda) and id(node) in self._generated_lambdas

    @cached_property
    def _generated_lambdas(self) -> frozenset[int]:
        return frozenset(
            id(arg.elts[0])
            for call in self.calls.values()
            for arg in call.args
            if isinstance(arg, ast.Tuple) and arg.elts and isinstance(arg.elts[0], ast.Lambda)
        )

    @cached_property
    def lambda_reads(self) -> frozenset[tuple[int, int]]:
        """(line, byte column) of every name an interpolation's lambda reads."""
        return frozenset(
            (node.lineno, node.col_offset)
            for call in self.calls.values()
            for arg in call.args
            if isinstance(arg, ast.Tuple) and isinstance(arg.elts[0], ast.Lambda)
            for node in walk_interpolation(self, arg.elts[0])
            if isinstance(node, ast.Name)
        )


def _is_prologue(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.ImportFrom):
        return stmt.module == "tagstr_runtime._rt" and any(a.asname == TABLE_NAME for a in stmt.names)
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == TABLE_NAME
    )


def mask_text(text: str, tags: tuple[TagString, ...]) -> str:
    """``text`` with each (outermost) tag string masked as a plain string literal.

    Every line keeps its length in characters (the unit of ``tokenize``
    columns), so the tokens of everything outside tag strings are exactly the
    original ones, and each tag string is one ``NAME STRING`` pair whose
    contents pycodestyle ignores, as it ignores the inside of any string:
    ``html"<b>{d["k"]}</b>"`` becomes ``html"xxxxxxxxxxxxxx"``.  A
    single-quoted tag string whose fields span lines keeps its lines through
    backslash continuations (``"xx\\``); if a field holds an empty line, which
    no single-quoted literal can, it becomes a triple-quoted literal without
    the name (three double quotes, x characters, three double quotes).
    """
    out: list[str] = []
    pos = 0
    for tag in tags:
        out.append(text[pos : tag.span.start])
        out.append(_mask(text, tag))
        pos = tag.span.end
    out.append(text[pos:])
    return "".join(out)


def _mask(text: str, tag: TagString) -> str:
    body = text[tag.body_span.start : tag.body_span.end]
    quote = tag.quote
    if len(quote) == 3 or "\n" not in body:
        return tag.tag + quote + _NOT_NEWLINE.sub("x", body) + quote
    segments = body.split("\n")
    if all(segments[:-1]):
        continued = ["x" * (len(s) - 1) + "\\" for s in segments[:-1]]
        return tag.tag + quote + "\n".join([*continued, "x" * len(segments[-1])]) + quote
    lines = text[tag.span.start : tag.span.end].split("\n")
    if len(lines[0]) < 3 or len(lines[-1]) < 3:  # no room for the triple quotes
        return text[tag.span.start : tag.span.end]
    lines = ['"""' + "x" * (len(lines[0]) - 3)] + ["x" * len(line) for line in lines[1:-1]] + [
        "x" * (len(lines[-1]) - 3) + '"""'
    ]
    return "\n".join(lines)


def walk_interpolation(tagfile: TagFile, func: ast.Lambda) -> Iterator[ast.AST]:
    """The nodes of an interpolation's expression, not entering nested tag strings' lambdas."""
    todo: list[ast.AST] = [func.body]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not tagfile.is_generated(child):
                todo.append(child)
