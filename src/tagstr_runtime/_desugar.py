"""Source with tag strings -> ``ast`` tree of standard Python, every node at its original position.

How (one CPython parse, no re-parsing of each expression):

1. ``_parser.parse`` finds the tag strings.
2. Each outermost tag string is overwritten in place by a *placeholder* with
   the same lines and the same UTF-8 byte length per line::

       tag"Hi, {name!r:>{w}}{{!}}"   ->   tag(     name,,  w,       )
       tag"{a + 1}{b or c}"          ->   tag((a + 1)(b or c))

   The tag name stays, the quotes become the call's parentheses, every field
   becomes one argument with its expression text untouched, and all other
   text becomes spaces (or the commas between arguments).  Interpolation
   expressions therefore sit at their original line and column, so CPython's
   parse gives their nodes exact positions (and reports their syntax errors
   at the right place).  A field that is not a plain name is parenthesised;
   two such fields with no room for a comma between them parse as a
   one-argument call ``(a + 1)(b or c)``, which the generator unpicks (see
   ``_Placeholders``).
3. The generator finds each placeholder ``Call`` by its position, takes its
   arguments apart into the fields' expressions and builds the SPEC 3 call,
   placing generated nodes on the spans of the tag string's parts.

Generated code reaches the runtime only through the module globals
``__tagstr_0__`` (the ``Interpolation`` class), ``__tagstr_1__``... (each
``Decoded``), bound by a prologue after the docstring and the ``from
__future__`` imports (see ``_rt``).  Literal text becomes constants, never
code.
"""

from __future__ import annotations

import ast
import builtins
import gc
import keyword
import re
import sys
import warnings
from types import CodeType
from bisect import bisect_left
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, TypeVar, cast

from tagstr_runtime import _errors as E
from tagstr_runtime._errors import TagSyntaxError, error_at
from tagstr_runtime._model import Field, Literal, Span, TagString
from tagstr_runtime._parser import _match_end, parse
from tagstr_runtime._rt import TABLE_NAME, slot_name
from tagstr_runtime._source import SourceText, decode_source

__all__ = [
    "Desugaring", "compile_desugared", "compile_source", "desugar", "desugar_ast", "placeholder_text",
]

_builtin_compile = builtins.compile
_SKIP_TO_TERMINATOR = re.compile(r"(?:[ \t\f\n]+|\#[^\n]*|\\\n)*")
# PyCF_OPTIMIZED_AST (3.13+) minus PyCF_ONLY_AST: the transformer needs the unoptimised tree.
_OPTIMIZED_ONLY = getattr(ast, "PyCF_OPTIMIZED_AST", 0) & ~ast.PyCF_ONLY_AST
_N = TypeVar("_N", bound=ast.AST)
_LOAD = ast.Load()
# Shared: ``arguments`` carries no position, and compile() reads a shared node as often as it occurs.
_NO_ARGUMENTS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)
_DOTTED_NAME = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_CONSTANT_KEYWORDS = frozenset(["None", "True", "False"])
_CONVERSIONS = {None: -1, "s": ord("s"), "r": ord("r"), "a": ord("a")}


# -- step 2: placeholders ---------------------------------------------------------


def _blank(text: str) -> str:
    """Spaces of the same UTF-8 length as ``text``, newlines kept."""
    if text.isascii():
        if "\n" not in text:
            return " " * len(text)
        return "\n".join(" " * len(line) for line in text.split("\n"))
    return "".join("\n" if c == "\n" else " " * len(c.encode("utf-8")) for c in text)


def _terminator(text: str, field: Field) -> int:
    """Offset of the ``=``, ``!``, ``:`` or ``}`` that ends a field's expression."""
    return _match_end(_SKIP_TO_TERMINATOR, text, field.expr_span.end)


def _is_simple(field: Field) -> bool:
    """A (dotted) name: valid as a call argument without parentheses."""
    return _DOTTED_NAME.fullmatch(field.expr) is not None and (
        not keyword.iskeyword(field.expr.split(".", 1)[0]) or field.expr in _CONSTANT_KEYWORDS
    )


class _Placeholders:
    """Builds the placeholder text (step 2).

    Each field becomes one argument of the placeholder call: a simple field
    ``{name}`` is `` name,`` (its braces become a space and a comma), any
    other ``{expr}`` is ``(expr)`` followed by a comma wherever the blanked
    text after it has room.  Only a parenthesised field immediately followed
    by another one has no room: it is *chained* to it, ``(a)(b)`` parsing as
    a one-argument call, which ``chained`` records for the generator.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[str] = []
        self.chained: set[int] = set()  # offsets of fields chained to the previous one

    def fill(self, start: int, end: int, tags: Iterable[TagString]) -> None:
        """``text[start:end]`` with each (non-overlapping, ordered) tag string replaced."""
        text, out = self.text, self.out
        pos = start
        for tag in tags:
            out.append(text[pos : tag.span.start])
            self.tag(tag)
            pos = tag.span.end
        out.append(text[pos:end])

    def tag(self, tag: TagString) -> None:
        text, out = self.text, self.out
        pad = " " * (len(tag.quote) - 1)
        out.append(tag.tag)
        out.append("(" + pad)
        pos = tag.body_span.start
        pending = False  # the last argument is a parenthesised field still needing a comma
        for field in tag.fields():  # pre-order: spec fields follow their field
            gap = _blank(text[pos : field.span.start])
            if pending:
                room = gap.find(" ")
                if room >= 0:
                    gap = gap[:room] + "," + gap[room + 1 :]
                    pending = False
            out.append(gap)
            term = _terminator(text, field)
            if _is_simple(field):
                out.append("," if pending else " ")
                out.append(text[field.span.start + 1 : term])
                out.append(",")
                pending = False
            else:
                if pending:
                    self.chained.add(field.span.start)
                out.append("(")
                self.fill(field.span.start + 1, term, field.nested)
                out.append(")")
                pending = True
            pos = term + 1
        out.append(_blank(text[pos : tag.body_span.end]))
        out.append(pad + ")")


def placeholder_text(text: str, tags: Iterable[TagString], chained: set[int] | None = None) -> str:
    """The source with every outermost tag string replaced by its placeholder.

    ``chained`` receives the offsets of the fields chained to their predecessor.
    """
    builder = _Placeholders(text)
    builder.fill(0, len(text), tags)
    if chained is not None:
        chained |= builder.chained
    return "".join(builder.out)


# -- step 3: generation ---------------------------------------------------------


class _Generator:
    """Replaces placeholder calls by generated calls, visiting only the paths to them.

    A full ``NodeTransformer`` pass costs more than compiling the module; the
    tag strings are sorted by position, so each subtree is entered only if a
    bisection says some tag string starts inside it.
    """

    def __init__(
        self, source: SourceText, filename: str, chained: set[int], by_name: bool = True
    ) -> None:
        self.source = source
        self.filename = filename
        self.chained = chained
        self.by_name = by_name  # slots as module globals; eval mode subscripts a tuple
        self.generated: dict[Span, ast.Call] = {}  # by tag-string span, for the text form
        self.entries: list[tuple[str, str]] = []
        self.entry_index: dict[tuple[str, str], int] = {}
        self.replaced = 0
        self._positions: dict[Span, tuple[int, int, int, int]] = {}

    # positions ---------------------------------------------------------------

    def position(self, span: Span) -> tuple[int, int, int, int]:
        """(lineno, col_offset, end_lineno, end_col_offset) of a span, as ``ast`` wants them."""
        found = self._positions.get(span)
        if found is None:
            at = self.source.line_col_byte
            found = self._positions[span] = at(span.start) + at(span.end)
        return found

    def place(self, node: _N, span: Span) -> _N:
        located = cast(Any, node)
        located.lineno, located.col_offset, located.end_lineno, located.end_col_offset = (
            self.position(span)
        )
        return node

    def table_ref(self, index: int, span: Span) -> ast.expr:
        """``__tagstr_<index>__`` (``__tagstr__[index]`` in eval mode).

        Attribute assignment is the cheapest way to place nodes.
        """
        lineno, col, end_lineno, end_col = self.position(span)
        if self.by_name:
            slot = ast.Name(slot_name(index), _LOAD)
            slot.lineno, slot.col_offset, slot.end_lineno, slot.end_col_offset = (
                lineno, col, end_lineno, end_col
            )
            return slot
        name = ast.Name(TABLE_NAME, _LOAD)
        name.lineno, name.col_offset, name.end_lineno, name.end_col_offset = lineno, col, end_lineno, end_col
        const = ast.Constant(index)
        const.lineno, const.col_offset, const.end_lineno, const.end_col_offset = lineno, col, end_lineno, end_col
        ref = ast.Subscript(name, const, _LOAD)
        ref.lineno, ref.col_offset, ref.end_lineno, ref.end_col_offset = lineno, col, end_lineno, end_col
        return ref

    # finding the placeholders ------------------------------------------------

    def replace_in(self, node: ast.AST, tags: tuple[TagString, ...]) -> ast.AST:
        """``node`` with the placeholders of ``tags`` (outermost, in order) replaced."""
        if not tags:
            return node
        keys = [self.position(tag.span)[:2] for tag in tags]
        if isinstance(node, ast.Call) and (node.lineno, node.col_offset) == keys[0]:
            if self.is_placeholder(node, tags[0]) and len(tags) == 1:
                return self.generate(node, tags[0])
        self._walk(node, tags, keys, 0, len(tags))
        return node

    def _walk(
        self, node: ast.AST, tags: tuple[TagString, ...], keys: list[tuple[int, int]], lo: int, hi: int
    ) -> None:
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for index, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        new = self._visit_child(child, tags, keys, lo, hi)
                        if new is not None:
                            value[index] = new
            elif isinstance(value, ast.AST):
                new = self._visit_child(value, tags, keys, lo, hi)
                if new is not None:
                    setattr(node, field, new)

    def _visit_child(
        self, child: ast.AST, tags: tuple[TagString, ...], keys: list[tuple[int, int]], lo: int, hi: int
    ) -> ast.AST | None:
        if "col_offset" not in child._attributes:
            # arguments, comprehension, withitem, match_case, operators, TypeIgnore...
            if child._fields and not isinstance(child, ast.type_ignore):
                self._walk(child, tags, keys, lo, hi)
            return None
        start = (child.lineno, child.col_offset)  # type: ignore[attr-defined]
        decorators = getattr(child, "decorator_list", None)
        if decorators:  # a def's or class's position starts after its decorators
            start = min(start, (decorators[0].lineno, decorators[0].col_offset))
        first = bisect_left(keys, start, lo, hi)
        last = bisect_left(keys, (child.end_lineno, child.end_col_offset), first, hi)  # type: ignore[attr-defined]
        if first == last:
            return None
        if (
            last - first == 1
            and keys[first] == start
            and isinstance(child, ast.Call)
            and self.is_placeholder(child, tags[first])
        ):
            return self.generate(child, tags[first])
        self._walk(child, tags, keys, first, last)
        return None

    def is_placeholder(self, node: ast.Call, tag: TagString) -> bool:
        _, _, end_line, end_col = self.position(tag.span)
        return (
            isinstance(node.func, ast.Name)
            and node.func.id == tag.tag
            and node.end_lineno == end_line
            and node.end_col_offset == end_col
        )

    # generation --------------------------------------------------------------

    def generate(self, node: ast.Call, tag: TagString) -> ast.Call:
        self.replaced += 1
        fields = tag.fields()
        exprs: list[ast.expr] = []
        arguments = iter(node.args)
        index = 0
        while index < len(fields):  # one argument per field, or per chain of fields
            end = index + 1
            while end < len(fields) and fields[end].span.start in self.chained:
                end += 1
            chain = next(arguments)
            group: list[ast.expr] = []
            for _ in range(end - index - 1):
                assert isinstance(chain, ast.Call)
                group.append(chain.args[0])
                chain = chain.func
            group.append(chain)
            exprs.extend(reversed(group))
            index = end
        # Keyed by the field's offset: hashing a Field would hash its whole subtree.
        values: dict[int, ast.expr] = {}
        for field, expr in zip(fields, exprs):
            self.check_expression(field, expr)
            values[field.span.start] = self.replace_in(expr, field.nested)  # type: ignore[assignment]
        args: list[ast.expr] = []
        raw: list[str] = []
        cooked: list[str] = []
        span_start = -1
        span_end = -1

        def flush() -> None:
            if raw:
                key = ("".join(cooked), "".join(raw))
                index = self.entry_index.get(key)
                if index is None:
                    self.entries.append(key)
                    index = self.entry_index[key] = len(self.entries)
                args.append(self.table_ref(index, Span(span_start, span_end)))
                raw.clear()
                cooked.clear()

        for part in tag.parts:
            if isinstance(part, Literal):
                if not raw:
                    span_start = part.span.start
                raw.append(part.raw)
                cooked.append(part.cooked)
                span_end = part.span.end
                continue
            if part.debug is not None:
                if not raw:
                    span_start = part.span.start
                raw.append(part.debug)
                cooked.append(part.debug)
                span_end = part.span.start + 1 + len(part.debug)
            flush()
            args.append(self.interpolation(part, values))
        flush()
        call = ast.Call(node.func, args, [])
        self.generated[tag.span] = call
        return self.place(call, tag.span)

    def interpolation(self, field: Field, values: dict[int, ast.expr]) -> ast.expr:
        span = field.span
        at = self.position(span)
        items: list[ast.expr] = [
            ast.Lambda(_NO_ARGUMENTS, values[field.span.start]),
            ast.Constant(field.expr),
            ast.Constant(field.effective_conv),
        ]
        tup = ast.Tuple(items, _LOAD)
        call = ast.Call(self.table_ref(0, span), [tup], [])
        for node in (*items, tup, call):
            node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at
        items.append(self.spec(field, values))
        return call

    def spec(self, field: Field, values: dict[int, ast.expr]) -> ast.expr:
        """The format spec, formatted eagerly like an f-string's (SPEC 3)."""
        if field.spec is None:
            return self.place(ast.Constant(None), field.span)
        assert field.spec_span is not None
        if all(isinstance(part, Literal) for part in field.spec):
            text = "".join(cast(Literal, part).raw for part in field.spec)
            return self.place(ast.Constant(text), field.spec_span)
        pieces: list[ast.expr] = []
        for part in field.spec:
            if isinstance(part, Literal):
                pieces.append(self.place(ast.Constant(part.raw), part.span))
                continue
            if part.debug is not None:
                pieces.append(self.place(ast.Constant(part.debug), part.span))
            inner_spec = None
            if part.spec is not None:
                inner = self.spec(part, values)
                if not isinstance(inner, ast.JoinedStr):
                    inner = self.place(ast.JoinedStr([inner]), part.spec_span or part.span)
                inner_spec = inner
            formatted = ast.FormattedValue(values[part.span.start], _CONVERSIONS[part.effective_conv], inner_spec)
            pieces.append(self.place(formatted, part.span))
        return self.place(ast.JoinedStr(pieces), field.spec_span)

    def check_expression(self, field: Field, expr: ast.expr) -> None:
        """What CPython's f-string grammar rejects but our parenthesised chain accepts."""
        if isinstance(expr, ast.GeneratorExp) and (expr.lineno, expr.col_offset) == self.position(
            field.span
        )[:2]:
            where = self.source.offset(expr.elt.end_lineno or 0, expr.elt.end_col_offset or 0)
            where = _match_end(_SKIP_TO_TERMINATOR, self.source.text, where)
            raise error_at(self.source, self.filename, E.EXPECTING_FIELD_END, where, where + 3)
        if "await" not in field.expr and "yield" not in field.expr:
            return
        for node in _walk_outside_lambdas(expr):
            if isinstance(node, ast.Await):
                self.fail_node(E.AWAIT, node)
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                word = "yield from" if isinstance(node, ast.YieldFrom) else "yield"
                self.fail_node(E.YIELD.format(word), node)

    def fail_node(self, message: str, node: ast.expr) -> None:
        start = self.source.offset(node.lineno, node.col_offset)
        end = self.source.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
        raise error_at(self.source, self.filename, message, start, end)


def _walk_outside_lambdas(node: ast.AST) -> Iterable[ast.AST]:
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if not isinstance(current, ast.Lambda):
            todo.extend(ast.iter_child_nodes(current))


# -- prologue ---------------------------------------------------------------------


def _prologue(entries: list[tuple[str, str]]) -> list[ast.stmt]:
    """``from tagstr_runtime._rt import table as __tagstr__``, then
    ``__tagstr_0__, __tagstr_1__, ... = __tagstr__(ENTRIES)``."""
    load = ast.ImportFrom("tagstr_runtime._rt", [ast.alias("table", TABLE_NAME)], 0)
    slots = [ast.Name(slot_name(index), ast.Store()) for index in range(len(entries) + 1)]
    build = ast.Assign(
        [ast.Tuple(cast(Any, slots), ast.Store())],
        ast.Call(ast.Name(TABLE_NAME, ast.Load()), [ast.Constant(cast(Any, tuple(entries)))], []),
    )
    stmts: list[ast.stmt] = [load, build]
    for stmt in stmts:
        for node in ast.walk(stmt):
            if "lineno" in node._attributes:
                node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
                node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
    return stmts


def _prologue_index(body: list[ast.stmt]) -> int:
    index = 0
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        index = 1
    while (
        index < len(body)
        and isinstance(body[index], ast.ImportFrom)
        and body[index].module == "__future__"  # type: ignore[attr-defined]
    ):
        index += 1
    return index


def _eval_table(entries: list[tuple[str, str]], body: ast.expr) -> ast.expr:
    """Eval mode has no statements: ``(__tagstr__ := __import__(...).table(E), body)[1]``."""
    importer = ast.Call(
        ast.Name("__import__", ast.Load()),
        [ast.Constant("tagstr_runtime._rt"), ast.Constant(None), ast.Constant(None),
         ast.Constant(cast(Any, ("table",)))],
        [],
    )
    build = ast.Call(ast.Attribute(importer, "table", ast.Load()), [ast.Constant(cast(Any, tuple(entries)))], [])
    bind = ast.NamedExpr(ast.Name(TABLE_NAME, ast.Store()), build)
    pair = ast.Tuple([bind, body], ast.Load())
    result = ast.Subscript(pair, ast.Constant(1), ast.Load())
    ast.copy_location(result, body)
    for node in ast.walk(result):
        if node is not body and "lineno" in node._attributes and not hasattr(node, "lineno"):
            ast.copy_location(node, body)
    return ast.fix_missing_locations(result)


# -- entry points -----------------------------------------------------------------


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def desugar_ast(
    source: str | bytes,
    filename: str = "<unknown>",
    mode: str = "exec",
    *,
    flags: int = 0,
    standard_error: SyntaxError | MemoryError | None = None,
    template_strings: bool | None = None,
    feature_version: tuple[int, int] | None = None,
    emit_warnings: bool = True,
) -> ast.AST:
    """The standard-Python tree of ``source``, every node at its original position.

    A source without tag strings gets exactly ``ast.parse``'s tree (or, if
    given, ``standard_error``: CPython's error for it is the best one).
    Malformed tag strings raise ``TagSyntaxError`` (SPEC 5).
    """
    return Desugaring(
        decode_source(source), filename, mode, flags=flags, standard_error=standard_error,
        template_strings=template_strings, feature_version=feature_version,
        emit_warnings=emit_warnings, original=source,
    ).tree


class Desugaring:
    """One desugaring: the tree, plus what the text form and the plugins need to see."""

    def __init__(
        self,
        text: str,
        filename: str = "<unknown>",
        mode: str = "exec",
        *,
        flags: int = 0,
        standard_error: SyntaxError | MemoryError | None = None,
        template_strings: bool | None = None,
        feature_version: tuple[int, int] | None = None,
        emit_warnings: bool = True,
        original: str | bytes | None = None,
    ) -> None:
        """``original``: the source as given, before decoding and newline
        normalisation; a source without tag strings is parsed from it, untouched."""
        # Everything built here (model, trees) is acyclic and dies or lives as a
        # whole: the cyclic collector running in between is pure cost (a third
        # of the time on a large module).
        with _collector_paused():
            self._build(text, filename, mode, flags, standard_error, template_strings,
                        feature_version, emit_warnings, original)

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
        self.source = src = SourceText(text)
        self.result = result = parse(text, filename, template_strings=template_strings, source=src)
        flags = (flags | ast.PyCF_ONLY_AST) & ~_OPTIMIZED_ONLY
        chained: set[int] = set()
        self.generator = generator = _Generator(src, filename, chained, by_name=mode != "eval")
        #: the text CPython parsed: each tag string overwritten in place by a call
        #: with the same per-line length (None without tag strings)
        self.placeholder: str | None = None
        if not result.tag_strings:
            if standard_error is not None:
                raise standard_error
            plain = text if original is None else original
            self.tree = _parse(plain, filename, mode, flags, feature_version, src, ())
            return
        self.placeholder = placeholder = placeholder_text(text, result.tag_strings, chained)
        try:
            tree = _parse(placeholder, filename, mode, flags, feature_version, src, result.tag_strings)
            tree = generator.replace_in(tree, result.tag_strings)
        except RecursionError:
            first = result.tag_strings[0]
            raise error_at(src, filename, E.TOO_DEEP, first.span.start, first.tag_span.end) from None
        if generator.replaced != sum(len(t.walk()) for t in result.tag_strings):
            _reject_patterns(tree, src, filename, result.tag_strings)
            # Python 3.11 computes f-string field positions by text search and can
            # misplace two identical placeholders inside one f-string.
            first = result.tag_strings[0]
            raise error_at(
                src, filename,
                "tag string: cannot locate this tag string in the parsed tree"
                + (" (identical tag strings inside one f-string are not supported on Python 3.11)"
                   if sys.version_info < (3, 12) else " (please report this as a bug)"),
                first.span.start, first.span.end,
            )
        if isinstance(tree, (ast.Module, ast.Interactive)):
            at = _prologue_index(tree.body) if isinstance(tree, ast.Module) else 0
            tree.body[at:at] = _prologue(generator.entries)
        elif isinstance(tree, ast.Expression):
            tree.body = _eval_table(generator.entries, tree.body)
        if emit_warnings:
            for warning in result.warnings:
                pos = src.pos(warning.span.start)
                warnings.warn_explicit(warning.message, SyntaxWarning, filename, pos.line)
        self.tree = tree


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


def _parse(
    text: str | bytes,
    filename: str,
    mode: str,
    flags: int,
    feature_version: tuple[int, int] | None,
    original: SourceText,
    tags: tuple[TagString, ...],
) -> ast.AST:
    try:
        # compile() rather than ast.parse(): the mypy plugin wraps ast.parse for
        # mypy's own parser and must not see its own calls come back
        minor = -1 if feature_version is None else feature_version[1]
        tree: ast.AST = _builtin_compile(
            text, filename, mode, flags, dont_inherit=True, _feature_version=minor
        )
        return tree
    except SyntaxError as exc:
        if not tags:  # the source as given: CPython's own error, untouched
            raise
        assert isinstance(text, str)
        raise _restore(exc, text, original, tags) from None


def _restore(
    exc: SyntaxError, placeholder: str, original: SourceText, tags: tuple[TagString, ...]
) -> SyntaxError:
    """CPython's error on the placeholder text, moved back onto the original text.

    Inside a tag string it becomes a ``TagSyntaxError`` worded like CPython's
    f-string errors (``tag string: invalid syntax``).
    """
    if exc.lineno is None or exc.text is None or original.text == placeholder:
        return exc
    shown = SourceText(placeholder)

    def char_col(line: int | None, offset: int | None) -> int | None:
        if line is None or offset is None or line > original.line_count:
            return offset
        # CPython turned its byte column into characters with the line it had
        # at hand: the file's own line when the file exists on disk (exc.text),
        # the parsed placeholder's otherwise
        if line == exc.lineno and exc.text is not None:
            used = exc.text
        else:
            used = shown.line_text(line)
        byte_col = len(used[: max(offset - 1, 0)].encode("utf-8"))
        return original.offset(line, byte_col) - original.line_start(line) + 1

    offset = char_col(exc.lineno, exc.offset)
    end_offset = char_col(exc.end_lineno, exc.end_offset)
    text = original.line_text(exc.lineno) if exc.lineno <= original.line_count else exc.text
    details = (exc.filename, exc.lineno, offset, text, exc.end_lineno, end_offset)
    if offset is not None and type(exc) is SyntaxError:
        where = original.line_start(exc.lineno) + offset - 1
        if any(tag.span.start <= where < tag.span.end for tag in tags):
            return TagSyntaxError(f"tag string: {exc.msg}", details)
    return type(exc)(exc.msg, details)


def compile_desugared(
    tree: ast.AST,
    filename: str,
    mode: str = "exec",
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    source: str | bytes | None = None,
) -> CodeType:
    """Compile a desugared tree; errors get the original line as their text."""
    try:
        with _collector_paused():
            code: CodeType = _builtin_compile(
                cast(Any, tree), filename, mode, flags & ~ast.PyCF_ONLY_AST, dont_inherit, optimize
            )
        return code
    except SyntaxError as exc:
        if source is not None and exc.lineno is not None:
            src = SourceText(decode_source(source))
            if exc.lineno <= src.line_count:
                exc.text = src.line_text(exc.lineno)
        raise


def compile_source(
    source: str | bytes,
    filename: str,
    mode: str = "exec",
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    standard_error: SyntaxError | MemoryError | None = None,
) -> CodeType:
    """Desugar and compile in one go, the cyclic collector paused throughout.

    The tree is dropped before the collector resumes, so it never scans the
    tens of thousands of nodes a large module makes (a collection at that
    point cost a quarter of the whole compile).
    """
    with _collector_paused():
        tree = desugar_ast(source, filename, mode, flags=flags, standard_error=standard_error)
        code = compile_desugared(tree, filename, mode, flags, dont_inherit, optimize, source)
        del tree
    return code


def desugar(source: str | bytes, *, template_strings: bool | None = None) -> str:
    """A readable plain-Python text of ``source`` (``python -m tagstr_runtime --desugar``)."""
    from tagstr_runtime._render import render

    return render(decode_source(source), template_strings=template_strings)
