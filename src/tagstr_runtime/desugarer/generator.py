"""Replaces each placeholder call in CPython's tree by the tag string's call, through an emitter.

CPython parsed the placeholder text (``desugarer.placeholder``), so every
interpolation expression already is a tree at its exact original position.
The generator finds each placeholder ``Call`` by its position, takes its
arguments apart into the fields' expressions (unpicking chained fields), and
asks the emitter (``desugarer.emit``) for each literal part, each interpolation and
the call itself, giving it the positions of the parts they stand for, so
3.11+ carets point at the original text.

A full ``NodeTransformer`` pass costs more than compiling the module; the
tag strings are sorted by position, so each subtree is entered only if a
bisection says some tag string starts inside it.  The nodes entered on the
way are the ``path`` emitters receive.

It is not split: the walk, the placement of each tag string and the building of its
arguments share one pass's state (the sorted positions, the path, the
emitter); split, that state would cross modules on the desugarer's hot path.
"""

from __future__ import annotations

import ast
import sys
from bisect import bisect_left
from typing import Iterable, cast

from tagstr_runtime.syntax import errors as E
from tagstr_runtime.desugarer.emit import Emitter, Position, TagCall, located
from tagstr_runtime.syntax.errors import error_at
from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.syntax.parser import _SPACE, _match_end
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.desugarer.sites import Site

__all__ = ["Generator"]

_CONVERSIONS = {None: -1, "s": ord("s"), "r": ord("r"), "a": ord("a")}
#: a ``TagCall`` from a tuple of its fields (the class's ``__new__`` is a Python function)
_new = tuple.__new__


#: The fields that hold an annotation (``AnnAssign``, ``arg``, a def's return).
_ANNOTATIONS = frozenset(["annotation", "returns"])
#: PEP 649/749: annotations are evaluated on demand, and ``annotationlib`` builds their text
#: (the STRING format) by evaluating them on globals that make up a stand-in for every name
_DEFERRED_ANNOTATIONS = sys.version_info >= (3, 14)
#: Nodes whose position starts after their decorators.
_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: A def's fields to visit when every tag string to find starts in its body:
#: its decorators, parameters, type parameters and return annotation come before.
_BODY_ONLY = ("body",)


class Generator:
    def __init__(
        self, source: SourceText, filename: str, chained: set[int], emitter: Emitter,
        *, future_annotations: bool = False,
    ) -> None:
        self.source = source
        self.filename = filename
        self.chained = chained
        self.emitter = emitter
        self.replaced = 0
        self._positions: dict[Span, Position] = {}
        #: while ``generate`` places the parts of a tag string on one line of ASCII text: that
        #: line, and the offset where it starts (-1 otherwise; see ``position``)
        self._line = 0
        self._line_start = -1
        #: uncached, for the runs of literal text: each is asked for once
        self._between = source.span_col_byte
        self._ascii = source.ascii
        self._non_ascii = source.non_ascii_lines
        self._path: list[ast.AST] = []
        #: set by ``_visit_child``: the first tag string (index) that starts after the child
        self._after = 0
        self._enclosing: Field | None = None
        #: annotations are stored as text (PEP 563) and the emitter wants them so
        self._text_annotations = emitter.annotations_as_text and (future_annotations or _DEFERRED_ANNOTATIONS)
        self._stored_as_text = future_annotations
        self._in_annotation = False
        #: every tag string desugared, nested ones before the one that holds them
        self.sites: list[Site] = []

    def position(self, span: Span) -> Position:
        """Cached: a format spec asks for its parts' positions more than once.  In a tag string
        on one line of ASCII text, offsets from the line's start (its line number shared)."""
        line_start = self._line_start
        if line_start >= 0:
            line = self._line
            return (line, span.start - line_start, line, span.end - line_start)
        found = self._positions.get(span)
        if found is None:
            found = self._positions[span] = self._between(span.start, span.end)
        return found

    # finding the placeholders ------------------------------------------------

    def replace_in(self, node: ast.AST, tags: tuple[TagString, ...]) -> ast.AST:
        """``node`` with the placeholders of ``tags`` (outermost, in order) replaced."""
        if not tags:
            return node
        # each tag string's position (the generator asks for it three times): sorted, so
        # bisected with a (line, column) pair as a list of those pairs would be
        between = self._between
        keys = [between(start, end) for start, end in [tag.span for tag in tags]]
        first = keys[0]
        if isinstance(node, ast.Call) and node.lineno == first[0] and node.col_offset == first[1]:
            if len(tags) == 1 and self.is_placeholder(node, tags[0], first):
                return self.replacement(node, tags[0], first)
        self._walk(node, tags, keys, 0, len(tags))
        return node

    def _walk(
        self, node: ast.AST, tags: tuple[TagString, ...], keys: list[Position], lo: int, hi: int
    ) -> None:
        """Visit the children of ``node``, on the ``path``."""
        self._path.append(node)
        fields = node._fields
        if isinstance(node, _FUNCTIONS):
            body = node.body[0]
            if keys[lo] >= (body.lineno, body.col_offset):
                fields = _BODY_ONLY  # a signature costs a visit of each parameter
        for field in fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                # Statements come in source order: the tag strings left for those after
                # one start after its end (``cur``).  An item that ends before the next
                # tag string left holds none: skipped without a call (most statements of
                # a module, most arguments).
                cur = lo
                for index, child in enumerate(value):
                    if cur == hi:
                        break
                    end_line = getattr(child, "end_lineno", None)
                    if end_line is not None:
                        key = keys[cur]
                        if end_line < key[0] or (end_line == key[0] and child.end_col_offset <= key[1]):
                            continue
                    if isinstance(child, ast.AST):
                        new = self._visit_child(child, tags, keys, cur, hi)
                        if new is not None:
                            value[index] = new
                        if isinstance(child, ast.stmt):
                            cur = self._after
            elif isinstance(value, ast.AST):
                if self._text_annotations and field in _ANNOTATIONS and not self._in_annotation:
                    self._in_annotation = True
                    try:
                        new = self._visit_child(value, tags, keys, lo, hi)
                    finally:
                        self._in_annotation = False
                else:
                    new = self._visit_child(value, tags, keys, lo, hi)
                if new is not None:
                    setattr(node, field, new)
        self._path.pop()

    def _visit_child(
        self, child: ast.AST, tags: tuple[TagString, ...], keys: list[Position], lo: int, hi: int
    ) -> ast.AST | None:
        if "col_offset" not in child._attributes:
            # arguments, comprehension, withitem, match_case, operators, TypeIgnore...
            if child._fields and not isinstance(child, ast.type_ignore):
                self._walk(child, tags, keys, lo, hi)
            return None
        start = (child.lineno, child.col_offset)  # type: ignore[attr-defined]
        if isinstance(child, _DECORATED) and child.decorator_list:
            decorator = child.decorator_list[0]  # the position starts after the decorators
            start = min(start, (decorator.lineno, decorator.col_offset))
        # the tag strings in [first, last) start inside the child; nearly always the
        # first one left, and at most one: tried before bisecting
        first = lo if keys[lo] >= start else bisect_left(keys, start, lo + 1, hi)
        end = (child.end_lineno, child.end_col_offset)  # type: ignore[attr-defined]
        if first == hi or keys[first] >= end:
            self._after = first
            return None
        last = first + 1 if first + 1 == hi or keys[first + 1] >= end else bisect_left(keys, end, first + 2, hi)
        new: ast.AST | None = None
        if (
            last - first == 1
            and keys[first][:2] == start
            and isinstance(child, ast.Call)
            and self.is_placeholder(child, tags[first], keys[first])
        ):
            new = self.replacement(child, tags[first], keys[first])
        else:
            self._walk(child, tags, keys, first, last)
        self._after = last  # (after the walk: the visits inside set it too)
        return new

    def is_placeholder(self, node: ast.Call, tag: TagString, at: Position) -> bool:
        """``node`` is ``tag``'s placeholder call (``at``: the tag string's position)."""
        _, _, end_line, end_col = at
        return (
            isinstance(node.func, ast.Name)
            and node.func.id == tag.name  # CPython's tree holds the NFKC form
            and node.end_lineno == end_line
            and node.end_col_offset == end_col
        )

    # generation --------------------------------------------------------------

    def replacement(self, node: ast.Call, tag: TagString, at: Position) -> ast.expr:
        if not self._in_annotation or self._enclosing is not None:  # nested: its outermost decides
            return self.generate(node, tag, at)
        return self.as_text(tag) if self._stored_as_text else self.deferred(node, tag, at)

    def as_text(self, tag: TagString) -> ast.expr:
        """A tag string in an annotation that is only ever stored as text (PEP 563).

        The compiler stores such an annotation as the unparsed tree, and
        unparses a ``Name`` as its identifier, verbatim: a ``Name`` whose
        "identifier" is the tag string's source text gives
        ``__annotations__`` the text the user wrote, where the desugared call
        would give generated code.  The name is never looked up (the
        annotation is never evaluated), and nested tag strings go with it.
        """
        self.replaced += len(tag.walk())
        text = self.source.text[tag.span.start : tag.span.end]
        return located(ast.Name(text, ast.Load()), self.position(tag.span))

    def deferred(self, node: ast.Call, tag: TagString, at: Position) -> ast.expr:
        """A tag string in an annotation evaluated on demand (3.14+): its call for its value,
        its source text when ``annotationlib`` asks for the STRING format.

        ``tag is tag and __name__ is __name__`` holds wherever names have
        values, and nowhere else: ``annotationlib`` evaluates STRING (and,
        for names it cannot find, FORWARDREF) on globals that make a new
        stand-in at each lookup (a closure variable's stays one: hence
        ``__name__``, a global everywhere).  There the ``Name`` whose
        identifier is the source text (see ``as_text``) is looked up, and its
        stand-in's text is the tag string as written.  VALUE evaluates the
        call, as without the test (the tag's name looked up first, at the
        same place: an unbound tag is the same ``NameError``).
        """
        name_at = self.position(tag.tag_span)

        def same(name: str, where: Position) -> ast.expr:
            return located(ast.Compare(located(ast.Name(name, ast.Load()), where), [ast.Is()],
                                       [located(ast.Name(name, ast.Load()), where)]), where)

        test = located(ast.BoolOp(ast.And(), [same(tag.name, name_at), same("__name__", at)]), at)
        value = self.generate(node, tag, at)
        text = located(ast.Name(self.source.text[tag.span.start : tag.span.end], ast.Load()), at)
        return located(ast.IfExp(test, value, text), at)

    def generate(self, node: ast.Call, tag: TagString, at: Position) -> ast.expr:
        """The tag string's call, through the emitter (``at``: the tag string's position)."""
        self.replaced += 1
        path, enclosing = tuple(self._path), self._enclosing
        sites = self.sites
        mark = len(sites)
        values = self.field_values(node, tag)
        emitter = self.emitter
        between = self._between
        line = at[0]
        # a tag string on one line of ASCII text: its parts' columns are offsets from
        # the line's start, no lookup needed (the common case)
        line_start = (
            tag.span.start - at[1] if at[2] == line and (self._ascii or line not in self._non_ascii()) else -1
        )
        self._line, self._line_start = line, line_start  # (the format specs' positions)
        args: list[ast.expr] = []
        # a run of literal text: one Decoded (a debug field's text joins the literal before it);
        # the site builds its own Run from the same parts when a consumer asks (desugarer.sites)
        raw: list[str] = []
        cooked: list[str] = []
        run_start = run_end = -1
        texts = emitter.decoded_texts  # (without them: only the holes)
        for part in tag.parts:
            if isinstance(part, Literal):
                if texts:
                    if not raw:
                        run_start = part.span.start
                    raw.append(part.raw)
                    cooked.append(part.cooked)
                    run_end = part.span.end
                continue
            if part.debug is not None and texts:
                if not raw:
                    run_start = part.span.start
                raw.append(part.debug)
                cooked.append(part.debug)
                run_end = part.span.start + 1 + len(part.debug)
            if raw:
                where = (
                    (line, run_start - line_start, line, run_end - line_start) if line_start >= 0
                    else between(run_start, run_end)
                )
                args.append(emitter.decoded("".join(cooked), "".join(raw), where))
                raw.clear()
                cooked.clear()
            start, end = part.span
            where = (line, start - line_start, line, end - line_start) if line_start >= 0 else between(start, end)
            spec = located(ast.Constant(None), where) if part.spec is None else self.spec(part, values)
            args.append(emitter.interpolation(part, values[start], spec, where))
        if raw:
            where = (
                (line, run_start - line_start, line, run_end - line_start) if line_start >= 0
                else between(run_start, run_end)
            )
            args.append(emitter.decoded("".join(cooked), "".join(raw), where))
        self._line_start = -1
        func = node.func
        assert isinstance(func, ast.Name)
        site = Site(tag, func, tuple(values.values()), at, self.source, path, enclosing)
        if len(sites) > mark:
            for inner in sites[mark:]:  # the tag strings nested in its fields (and deeper)
                if inner.parent is None:
                    inner.parent = site
        sites.append(site)
        site.call = call = emitter.call(_new(TagCall, (tag, func, args, at, path, enclosing)))
        return call

    def field_values(self, node: ast.Call, tag: TagString) -> dict[int, ast.expr]:
        """Each field's expression (nested tag strings replaced), by the field's offset.

        Keyed by offset: hashing a ``Field`` would hash its whole subtree.
        """
        fields = tag.fields()
        chained = self.chained
        values: dict[int, ast.expr] = {}
        if not chained or not any(field.span.start in chained for field in fields):
            # one argument per field (nearly always)
            pairs = zip(fields, node.args)
        else:
            exprs: list[ast.expr] = []
            arguments = iter(node.args)
            index = 0
            while index < len(fields):  # one argument per field, or per chain of fields
                end = index + 1
                while end < len(fields) and fields[end].span.start in chained:
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
            pairs = zip(fields, exprs)
        for field, expr in pairs:
            text = field.expr
            if (
                isinstance(expr, ast.GeneratorExp)
                or "await" in text or "yield" in text or "async" in text
            ):
                self.check_expression(tag, field, expr)
            if field.nested:
                saved_path, saved_enclosing = self._path, self._enclosing
                self._path, self._enclosing = [], field
                try:
                    expr = cast(ast.expr, self.replace_in(expr, field.nested))
                finally:
                    self._path, self._enclosing = saved_path, saved_enclosing
            values[field.span.start] = expr
        return values

    def spec(self, field: Field, values: dict[int, ast.expr]) -> ast.expr:
        """The format spec, formatted eagerly like an f-string's (SPEC 3)."""
        if field.spec is None:
            return located(ast.Constant(None), self.position(field.span))
        assert field.spec_span is not None
        if all(isinstance(part, Literal) for part in field.spec):
            text = "".join(cast(Literal, part).raw for part in field.spec)
            return located(ast.Constant(text), self.position(field.spec_span))
        pieces: list[ast.expr] = []
        for part in field.spec:
            if isinstance(part, Literal):
                pieces.append(located(ast.Constant(part.raw), self.position(part.span)))
                continue
            if part.debug is not None:
                pieces.append(located(ast.Constant(part.debug), self.position(part.span)))
            inner_spec = None
            if part.spec is not None:
                inner = self.spec(part, values)
                if not isinstance(inner, ast.JoinedStr):
                    inner = located(ast.JoinedStr([inner]), self.position(part.spec_span or part.span))
                inner_spec = inner
            formatted = ast.FormattedValue(values[part.span.start], _CONVERSIONS[part.effective_conv], inner_spec)
            pieces.append(located(formatted, self.position(part.span)))
        return located(ast.JoinedStr(pieces), self.position(field.spec_span))

    # what CPython's f-string grammar rejects but our placeholder accepts ---------

    def check_expression(self, tag: TagString, field: Field, expr: ast.expr) -> None:
        if isinstance(expr, ast.GeneratorExp) and (expr.lineno, expr.col_offset) == self.position(
            field.span
        )[:2]:
            where = self.source.offset(expr.elt.end_lineno or 0, expr.elt.end_col_offset or 0)
            where = _match_end(_SPACE, self.source.text, where)
            raise error_at(self.source, self.filename, E.EXPECTING_FIELD_END, where, where + 3)
        text = field.expr
        if "await" not in text and "yield" not in text and "async" not in text:
            return
        if not any(part is field for part in tag.parts):
            return  # a spec's field: evaluated with the spec, in the enclosing scope (SPEC 3, 4)
        for node in _walk_outside_lambdas(expr):
            if isinstance(node, ast.Await):
                self.fail_node(E.AWAIT, node)
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                word = "yield from" if isinstance(node, ast.YieldFrom) else "yield"
                self.fail_node(E.YIELD.format(word), node)
        refused: list[ast.expr] = []
        _async_scope(expr, False, refused)
        if refused:
            self.fail_node(E.ASYNC_COMPREHENSION, refused[0])

    def fail_node(self, message: str, node: ast.expr) -> None:
        start = self.source.offset(node.lineno, node.col_offset)
        end = self.source.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
        raise error_at(self.source, self.filename, message, start, end)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _async_scope(node: ast.AST, in_comprehension: bool, refused: list[ast.expr]) -> bool:
    """Whether ``node`` makes the scope it is evaluated in asynchronous, as CPython's
    symtable decides; ``refused`` gets each list, set or dict comprehension that is
    asynchronous where neither an ``async def`` nor a comprehension encloses it (in an
    interpolation's lambda: "asynchronous comprehension outside of an asynchronous
    function").  A generator expression may be asynchronous anywhere; a lambda the
    user wrote gets CPython's own error, as in the f-string twin."""
    if isinstance(node, ast.Lambda):
        return False
    if not isinstance(node, _COMPREHENSIONS):
        found = False
        for child in ast.iter_child_nodes(node):
            found = _async_scope(child, in_comprehension, refused) or found
        return found
    first, *rest = node.generators
    outside = _async_scope(first.iter, in_comprehension, refused)  # evaluated in the enclosing scope
    inside = any(g.is_async for g in node.generators)
    parts: list[ast.AST] = [first.target, *first.ifs]
    for generator in rest:
        parts += [generator.target, generator.iter, *generator.ifs]
    parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for part in parts:
        inside = _async_scope(part, True, refused) or inside
    is_async = inside and not isinstance(node, ast.GeneratorExp)
    if is_async and not in_comprehension:
        refused.append(node)
    return outside or is_async


def _walk_outside_lambdas(node: ast.AST) -> Iterable[ast.AST]:
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if not isinstance(current, ast.Lambda):
            todo.extend(ast.iter_child_nodes(current))
