"""Sites: each tag string as its tag receives it, and the way back to the source text.

The generator fills one ``Site`` per tag string it desugars, whatever the
emitter (``Desugaring.sites``): the tag's name node, the arguments in the
order the tag receives them (a ``Run`` per ``Decoded``, a ``Hole`` per
``Interpolation``), the tag string it is nested in, and the generated call's
position.  A consumer reads this instead of taking generated code apart.
The generator only records references (the model and each field's tree);
the arguments are built from them when a consumer first asks.

A ``Run`` maps each character of its text back to the source offset that
produced it (``source_offset``, ``raw_source_offset``), through the
runtime's own escape table (``syntax.escapes.cooked_origins``).  The tables are
built when a consumer asks: a run only records which parts it merges.
"""

from __future__ import annotations

import ast
from typing import Iterable, NamedTuple, Sequence, Union

from tagstr_runtime.syntax.escapes import cooked_origins
from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.syntax.source import Pos, SourceText

__all__ = ["Hole", "Run", "Site", "make_run", "site_args", "spec_args"]

#: ``(lineno, col_offset, end_lineno, end_col_offset)``, byte columns (``desugarer.emit.Position``)
Position = tuple[int, int, int, int]
#: a piece of a run: literal text, or a debug field (``{x=}``) whose text joins the literal before it
Piece = Union[Literal, Field]


def _tables(parts: tuple[Piece, ...], first: int, last: int, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The source offset of each character of a run's ``raw`` and of its cooked text, each
    followed by the run's end: built when a consumer asks (not kept: a run holds no cache,
    and a cache of runs would keep their sources alive)."""
    raw: list[int] = []
    cooked: list[int] = []
    end = 0
    for piece in parts[first:last]:
        if isinstance(piece, Literal):
            offsets = _literal_offsets(text, piece)
            value = piece.cooked
            # equal texts: no escape changed anything (each one that does shortens the text)
            origins: Sequence[int] = range(len(value)) if value == piece.raw else cooked_origins(piece.raw)
        else:
            offsets = _debug_offsets(text, piece)
            value = piece.debug or ""
            origins = range(len(value))  # a debug field's text is never cooked
        raw.extend(offsets[:-1])
        cooked.extend(offsets[origins[index]] for index in range(len(value)))
        end = offsets[-1]
    raw.append(end)
    cooked.append(end)
    return tuple(raw), tuple(cooked)


def _literal_offsets(text: str, literal: Literal) -> list[int]:
    """Each character of ``literal.raw`` to its source offset (a doubled brace is one character)."""
    out: list[int] = []
    pos = literal.span.start
    for _ in range(len(literal.raw)):
        out.append(pos)
        char = text[pos]
        pos += 2 if (char == "{" or char == "}") and text[pos + 1 : pos + 2] == char else 1
    out.append(pos)
    return out


def _debug_offsets(text: str, field: Field) -> list[int]:
    """Each character of a debug field's text to its source offset, then the text's end.

    The text runs from after the ``{`` to after the ``=`` and the blanks that
    follow it, without the comments (CPython's rule): where the source and the
    text part, the source holds a comment, which ends at a newline the text keeps.
    """
    debug = field.debug or ""
    start = field.span.start + 1
    if text.startswith(debug, start):
        return list(range(start, start + len(debug) + 1))
    out: list[int] = []
    pos = start
    for char in debug:
        if text[pos] != char:
            assert text[pos] == "#", "a debug field's text leaves out only comments"
            pos = text.index("\n", pos)
        out.append(pos)
        pos += 1
    out.append(pos)
    return out


class Run(NamedTuple):
    """One literal argument exactly as the tag receives it (one ``Decoded``): adjacent literal
    parts and a debug field's text merged, as the generator merges them."""

    cooked: str  # the str value the tag sees
    raw: str  # its .raw
    span: Span  # source offsets [start, end) of the text it stands for
    #: where it comes from: ``parts[first:last]`` of a tag string's body or of a format spec
    #: (literal parts, and a debug field whose text ends the run), in ``text``, the source
    #: (kept as references, not copied: a run costs the desugarer two small tuples)
    parts: tuple[Piece, ...]
    first: int
    last: int
    text: str

    def source_offset(self, index: int) -> int:
        """Source offset (into the normalised text) of the character that produced
        ``cooked[index]``; ``index == len(cooked)`` gives the end of the run.  An escape
        (``\\n``, ``\\x41``, ``\\N{...}``, ``{{``) maps every character it produced to its
        first character; text kept as written (``\\d``) maps character by character."""
        if not 0 <= index <= len(self.cooked):
            raise IndexError(f"index {index} out of a run of {len(self.cooked)} characters")
        return self.source_offsets()[index]

    def raw_source_offset(self, index: int) -> int:
        """The same for ``raw[index]``."""
        if not 0 <= index <= len(self.raw):
            raise IndexError(f"index {index} out of a raw text of {len(self.raw)} characters")
        return self.raw_source_offsets()[index]

    def source_offsets(self) -> tuple[int, ...]:
        """``source_offset`` of every index, ``len(cooked)`` included (one pass over the run:
        what to call when mapping many characters of it)."""
        return _tables(self.parts, self.first, self.last, self.text)[1]

    def raw_source_offsets(self) -> tuple[int, ...]:
        """``raw_source_offset`` of every index, ``len(raw)`` included."""
        return _tables(self.parts, self.first, self.last, self.text)[0]


def make_run(cooked: str, raw: str, parts: tuple[Piece, ...], first: int, last: int, text: str) -> Run:
    """The ``Run`` of ``parts[first:last]`` (their merged texts given): the generator's call per run."""
    head, tail = parts[first], parts[last - 1]
    start = head.span.start if isinstance(head, Literal) else head.span.start + 1
    if isinstance(tail, Literal):
        end = tail.span.end
    else:
        debug = tail.debug or ""
        end = tail.span.start + 1 + len(debug)
        if not text.startswith(debug, tail.span.start + 1):  # comments left out
            end = _debug_offsets(text, tail)[-1]
    return Run(cooked, raw, Span(start, end), parts, first, last, text)


class Hole(NamedTuple):
    """One interpolation (a field of the body, or of a format spec in ``spec``)."""

    field: Field  # the model: expr text, spans, conv, spec parts
    node: ast.expr  # the expression's tree, at its original position
    text: str  # the expression's source text, as messages quote it
    spec: tuple[Run | Hole, ...] | None  # the format spec's own runs and fields (None: no ':')


def site_args(parts: tuple[Piece, ...], values: dict[int, ast.expr], text: str) -> tuple[Run | Hole, ...]:
    """The runs and holes of ``parts`` (a tag string's body or a format spec), as the generator
    emits them: adjacent literal parts are one run, and a debug field's text ends the run before
    its hole.  ``values``: each field's tree by its offset."""
    out: list[Run | Hole] = []
    first = -1  # where the current run starts
    for index, part in enumerate(parts):
        if isinstance(part, Literal):
            if first < 0:
                first = index
            continue
        if part.debug is not None and first < 0:
            first = index
        if first >= 0:
            out.append(_run(parts, first, index + 1 if part.debug is not None else index, text))
            first = -1
        inner = None if part.spec is None else site_args(part.spec, values, text)
        out.append(Hole(part, values[part.span.start], part.expr, inner))
    if first >= 0:
        out.append(_run(parts, first, len(parts), text))
    return tuple(out)


def spec_args(field: Field, values: dict[int, ast.expr], text: str) -> tuple[Run | Hole, ...]:
    """The runs and holes of ``field``'s format spec (not None).  A spec's text is raw: its
    runs' cooked and raw texts are the same."""
    return site_args(field.spec or (), values, text)


def _run(parts: tuple[Piece, ...], first: int, last: int, text: str) -> Run:
    pieces = parts[first:last]
    cooked = "".join(p.cooked if isinstance(p, Literal) else p.debug or "" for p in pieces)
    raw = "".join(p.raw if isinstance(p, Literal) else p.debug or "" for p in pieces)
    return make_run(cooked, raw, parts, first, last, text)


class Site:
    """One tag string: what its tag receives, where it stands, and what it is nested in.

    The generator records references only (the model, the fields' trees by offset, the
    path); ``args`` are built from them when first asked (a consumer that never reads
    them, the mypy plugin, pays nothing for them)."""

    __slots__ = (
        "tag", "name", "parent", "at", "source", "path", "enclosing", "call",
        "_values", "_args", "_chain", "_holes",
    )

    def __init__(
        self,
        tag: TagString,
        name: ast.Name,
        values: tuple[ast.expr, ...],
        at: Position,
        source: SourceText,
        path: tuple[ast.AST, ...],
        enclosing: Field | None,
    ) -> None:
        self.tag = tag  # the model
        self.name = name  # the tag expression, at its position
        self.parent: Site | None = None  # the tag string this one is nested in
        #: each field's tree (nested tag strings desugared), in ``tag.fields()`` order (a tuple,
        #: not the generator's dict by offset: a large module has tens of thousands of sites)
        self._values = values
        self._args: tuple[Run | Hole, ...] | None = None
        self.at = at  # the generated call's position (line, col, end_line, end_col; byte columns)
        self.source = source
        #: the nodes the generator walked through to reach it (see ``TagCall.path``)
        self.path = path
        self.enclosing = enclosing  # the field of ``parent`` it is nested in
        #: what the emitter returned for it (None until the emitter has written it)
        self.call: ast.expr | None = None
        self._chain: tuple[ast.AST, ...] | None = None
        self._holes: tuple[Hole, ...] | None = None

    @property
    def args(self) -> tuple[Run | Hole, ...]:
        """What the tag receives, in order: a ``Run`` per ``Decoded``, a ``Hole`` per ``Interpolation``."""
        if self._args is None:
            by_offset = {field.span.start: tree for field, tree in zip(self.tag.fields(), self._values)}
            self._args = site_args(self.tag.parts, by_offset, self.source.text)
        return self._args

    def __repr__(self) -> str:
        return f"<Site {self.tag.tag}{self.tag.quote}...{self.tag.quote} at {self.at[0]}:{self.at[1]}>"

    def field_trees(self) -> Iterable[ast.expr]:
        """The tree of each field (those of its format specs too): each hole's ``node``, without
        building the holes (a consumer that only needs the trees, ``generated_lambdas``, pays
        nothing for the runs)."""
        return self._values

    @property
    def runs(self) -> tuple[Run, ...]:
        return tuple(arg for arg in self.args if isinstance(arg, Run))

    @property
    def holes(self) -> tuple[Hole, ...]:
        """The interpolations of the body (the rules ask for them again and again: kept)."""
        if self._holes is None:
            self._holes = tuple(arg for arg in self.args if isinstance(arg, Hole))
        return self._holes

    def pos(self, offset: int) -> Pos:
        """A source offset as ``Pos(line, col_char, col_byte)`` (``SourceText.pos``)."""
        return self.source.pos(offset)

    # the shape of a 3.14 Template ----------------------------------------------------

    def string_runs(self) -> tuple[Run | None, ...]:
        """The literal between each two holes (None where nothing is): ``len(holes) + 1`` items."""
        out: list[Run | None] = []
        current: Run | None = None
        for arg in self.args:
            if isinstance(arg, Run):
                current = arg
            else:
                out.append(current)
                current = None
        out.append(current)
        return tuple(out)

    @property
    def strings(self) -> tuple[str, ...]:
        """The literal strings as a 3.14 ``Template`` has them: ``len(holes) + 1``, empty ones too."""
        return tuple("" if run is None else run.cooked for run in self.string_runs())

    def string_offset(self, index: int, offset: int) -> int:
        """Source offset of character ``offset`` of ``strings[index]`` (an empty string:
        where it would stand, after the hole before it)."""
        run = self.string_runs()[index]
        if run is not None:
            return run.source_offset(offset)
        if index == 0:
            return self.tag.body_span.start
        return self.holes[index - 1].field.span.end

    # the nodes around it ----------------------------------------------------------------

    @property
    def chain(self) -> tuple[ast.AST, ...]:
        """The nodes of the desugared tree that enclose the tag string, outermost first
        (a nested one's chain runs through its parent's call and the nodes the emitter
        wrote around the field).  An emitter that moves what it wrote elsewhere (the
        runtime's hoisting) leaves those generated nodes out."""
        if self._chain is None:
            if self.parent is None:
                self._chain = self.path
            else:
                parent = self.parent
                assert parent.call is not None and self.call is not None
                inside = _path_between(parent.call, self.path[0] if self.path else self.call) or ()
                self._chain = (*parent.chain, parent.call, *inside, *self.path)
        return self._chain


def _path_between(root: ast.AST, target: ast.AST) -> tuple[ast.AST, ...] | None:
    """The nodes strictly between ``root`` and its descendant ``target`` (a few, generated);
    None if ``target`` is not under ``root``."""
    todo: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(root, ())]
    while todo:
        node, above = todo.pop()
        for child in ast.iter_child_nodes(node):
            if child is target:
                return above
            todo.append((child, (*above, child)))
    return None
