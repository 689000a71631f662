"""Sites (``Desugaring.sites``): what each tag receives, and the source maps of its literal runs.

The property test builds a tag-string body from pieces whose contribution it
knows independently of the code under test (the text each one adds to the
run's ``raw`` and cooked value, and the source offset of each character it
adds), then checks every index of every run's two maps against that, the
runs against what the tag really receives when the code runs, and the
positions of the mapped offsets in both column units against a count done by
hand on the text.
"""

from __future__ import annotations

import ast
import sys
import warnings
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tagstr_runtime
from tagstr_runtime.frontend import Desugaring, Emitter, Hole, Run, Site, TagCall, located

try:
    from ..parser import strategies as S  # type: ignore[import-not-found]
except ImportError:
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[1] / "parser"))
    import strategies as S  # type: ignore[no-redef]


class Piece(NamedTuple):
    """A piece of a body: its source text, what it adds to the run (``raw``, cooked), and for each
    added character the offset, relative to the piece, of the source character that produced it."""

    source: str
    raw: str
    cooked: str
    raw_at: tuple[int, ...]
    cooked_at: tuple[int, ...]
    ends_run: bool = False  # a field: the run ends after this piece (a debug field adds its text first)


def text(chars: str) -> Piece:
    return Piece(chars, chars, chars, tuple(range(len(chars))), tuple(range(len(chars))))


def escape(source: str, value: str) -> Piece:
    """An escape: every character it produces comes from its backslash."""
    return Piece(source, source, value, tuple(range(len(source))), (0,) * len(value))


def verbatim(source: str) -> Piece:
    """An escape Python keeps as written (``\\d``): character by character."""
    return text(source)


def named(name: str, char: str) -> Piece:
    """``\\N{{NAME}}``: raw ``\\N{NAME}`` (doubled braces collapsed), one character."""
    source = "\\N{{" + name + "}}"
    raw = "\\N{" + name + "}"
    raw_at = (0, 1, 2, *range(4, 4 + len(name)), 4 + len(name))
    return Piece(source, raw, char, raw_at, (0,))


def brace(char: str) -> Piece:
    return Piece(char * 2, char, char, (0,), (0,))


def field(source: str) -> Piece:
    return Piece(source, "", "", (), (), ends_run=True)


def debug_field(source: str, debug: str, debug_at: tuple[int, ...]) -> Piece:
    """``{expr=...}``: its text up to the ``=`` and blanks joins the run (not cooked)."""
    return Piece(source, debug, debug, debug_at, debug_at, ends_run=True)


PLAIN = st.text(st.sampled_from("ab é日𝄞 #!:=.-"), min_size=1, max_size=4).map(text)
ESCAPES = st.sampled_from([
    escape("\\n", "\n"), escape("\\t", "\t"), escape("\\\\", "\\"), escape("\\'", "'"),
    escape('\\"', '"'), escape("\\x41", "A"), escape("\\u00e9", "é"), escape("\\U0001F600", "\U0001F600"),
    escape("\\101", "A"), escape("\\000", "\0"), escape("\\a", "\a"),
    escape("\\\n", ""),  # a line continuation: nothing
    verbatim("\\d"), verbatim("\\q"), verbatim("\\é"),
    named("BULLET", "\N{BULLET}"), named("LATIN SMALL LETTER E WITH ACUTE", "é"),
])
BRACES = st.sampled_from([brace("{"), brace("}")])
FIELDS = st.sampled_from([
    field("{x}"), field("{ y!r}"), field("{x:>3}"), field("{é}"),
    debug_field("{x=}", "x=", (1, 2)),
    debug_field("{ y = }", " y = ", (1, 2, 3, 4, 5)),
    debug_field("{x=!r:>4}", "x=", (1, 2)),
    debug_field("{é=}", "é=", (1, 2)),
    # SPEC 2: '\\N' then a field (not a named character): the run keeps '\\N' as written
    Piece("\\N{x}", "\\N", "\\N", (0, 1), (0, 1), ends_run=True),
])
# only in triple-quoted bodies: newlines, and comments a debug field's text leaves out
MULTILINE = st.sampled_from([
    text("\n"), text("é\n"),
    debug_field("{x # c\n=}", "x \n=", (1, 2, 6, 7)),
    debug_field("{x= # c\n}", "x= \n", (1, 2, 3, 7)),
])


@st.composite
def bodies(draw: Any) -> tuple[str, list[Piece]]:
    quote = draw(st.sampled_from(S.QUOTES))
    kinds = [PLAIN, ESCAPES, BRACES, FIELDS] + ([MULTILINE] if len(quote) == 3 else [])
    pieces = draw(st.lists(st.one_of(*kinds), max_size=12))
    return quote, pieces


class ExpectedRun(NamedTuple):
    cooked: str
    raw: str
    cooked_at: list[int]
    raw_at: list[int]
    end: int


def expected_runs(pieces: list[Piece], start: int) -> list[ExpectedRun]:
    runs: list[ExpectedRun] = []
    cooked, raw, cooked_at, raw_at = "", "", [], []
    pos = start
    end = start

    def flush() -> None:
        nonlocal cooked, raw, cooked_at, raw_at
        if raw:
            runs.append(ExpectedRun(cooked, raw, cooked_at, raw_at, end))
        cooked, raw, cooked_at, raw_at = "", "", [], []

    for piece in pieces:
        cooked += piece.cooked
        raw += piece.raw
        cooked_at += [pos + at for at in piece.cooked_at]
        raw_at += [pos + at for at in piece.raw_at]
        if piece.ends_run:
            if piece.raw:  # a debug field: its text ends after the '=' and its blanks
                end = pos + piece.raw_at[-1] + 1
            flush()
        end = pos = pos + len(piece.source)
    flush()
    return runs


def by_hand(source: str, offset: int) -> tuple[int, int, int]:
    """(line, column in characters, column in UTF-8 bytes) of ``offset``, counted on the text."""
    before = source[:offset]
    line_start = before.rfind("\n") + 1
    return before.count("\n") + 1, offset - line_start, len(before[line_start:].encode("utf-8"))


class Received(list[Any]):
    """A tag that records what it receives."""

    def __call__(self, *args: Any) -> None:
        self.append(args)


@settings(max_examples=S.examples(300))
@given(bodies())
def test_run_maps(body: tuple[str, list[Piece]]) -> None:
    quote, pieces = body
    lead = "é = 1; v = "  # non-ASCII before the tag string on its line: the two column units differ
    source = f"w = 2\n{lead}tag{quote}{''.join(p.source for p in pieces)}{quote}\n"
    body_start = len("w = 2\n") + len(lead) + 3 + len(quote)
    site, = Desugaring(source, emit_warnings=False).sites
    expected = expected_runs(pieces, body_start)
    runs = site.runs
    assert [(r.cooked, r.raw) for r in runs] == [(e.cooked, e.raw) for e in expected]
    for run, wanted in zip(runs, expected):
        assert [run.source_offset(i) for i in range(len(run.cooked))] == wanted.cooked_at
        assert [run.raw_source_offset(i) for i in range(len(run.raw))] == wanted.raw_at
        assert run.source_offset(len(run.cooked)) == run.raw_source_offset(len(run.raw)) == wanted.end
        assert run.span.end == wanted.end
        assert run.span.start == (wanted.raw_at[0] if wanted.raw_at else wanted.end)
        for offset in {*wanted.cooked_at, wanted.end}:
            assert tuple(site.pos(offset)) == by_hand(source, offset)
    # what the tag really receives, in order
    received = Received()
    with warnings.catch_warnings():  # SPEC 2's warning for '\\N{x}'
        warnings.simplefilter("ignore")
        code = tagstr_runtime.compile(source, "<sites>", "exec")
    exec(code, {"tag": received, "x": 1, "y": 2, "é": 3})
    args, = received
    assert len(args) == len(site.args)
    for arg, recorded in zip(args, site.args):
        if isinstance(recorded, Run):
            assert (str(arg), arg.raw) == (recorded.cooked, recorded.raw)
        else:
            assert arg.expr == recorded.text


def sites_of(source: str, emitter: Emitter | None = None) -> tuple[Site, ...]:
    return Desugaring(source, emitter=emitter, emit_warnings=False).sites


def test_nesting_and_order() -> None:
    source = 'a = outer"x{inner"y{deep"z"}"} {f"{other"w"}"}"\nb = last""\n'
    sites = sites_of(source)
    assert [s.tag.tag for s in sites] == ["outer", "inner", "deep", "other", "last"]
    outer, inner, deep, other, last = sites
    assert (outer.parent, inner.parent, deep.parent, other.parent, last.parent) == (None, outer, inner, outer, None)
    assert inner.enclosing is not None and inner.enclosing.expr == 'inner"y{deep"z"}"'
    assert last.args == ()
    first_line = source.split("\n")[0]
    spans = [
        (first_line.index('outer"'), len(first_line)), (first_line.index('inner"'), first_line.index("} {")),
        (first_line.index('deep"'), first_line.index('}"}')), (first_line.index('other"'), first_line.index('}"}"')),
    ]
    assert [s.at for s in sites] == [(1, start, 1, end) for start, end in spans] + [(2, 4, 2, 10)]
    names = [(s.name.id, s.name.lineno, s.name.col_offset) for s in sites]
    assert names[:2] == [("outer", 1, 4), ("inner", 1, 12)]


def test_holes() -> None:
    source = 'v = tag"a{x!r:>{w}.{p=}}b{y + 1 # c\n}"\n'.replace('"', '"""', 1).replace('"\n', '"""\n')
    site, = sites_of(source)
    first, hole, second, last = site.args
    assert isinstance(first, Run) and isinstance(second, Run) and isinstance(hole, Hole) and isinstance(last, Hole)
    assert (hole.text, hole.field.conv, ast.unparse(hole.node)) == ("x", "r", "x")
    assert hole.spec is not None
    spec_run, width, dot, precision = hole.spec
    assert isinstance(spec_run, Run) and isinstance(dot, Run)
    assert isinstance(width, Hole) and isinstance(precision, Hole)
    assert (spec_run.cooked, width.text, dot.cooked, precision.text, precision.spec) == (">", "w", ".p=", "p", None)
    assert dot.source_offset(1) == source.index("p=")
    assert (last.text, ast.unparse(last.node), last.spec) == ("y + 1", "y + 1", None)
    node = last.node
    assert (node.lineno, node.col_offset) == (1, source.index("y + 1"))  # type: ignore[attr-defined]
    assert site.strings == ("a", "b", "")
    assert site.string_offset(2, 0) == source.index('}"""') + 1 == last.field.span.end
    assert site.string_offset(1, 0) == source.index("b{y")


def test_template_shape_of_adjacent_holes() -> None:
    site, = sites_of('v = tag"{a}{b}"\n')
    assert site.strings == ("", "", "")
    assert site.string_runs() == (None, None, None)
    assert site.string_offset(0, 0) == 8


def test_out_of_range() -> None:
    site, = sites_of('v = tag"ab"\n')
    run, = site.runs
    assert run.source_offset(2) == 10
    for bad in (-1, 3):
        with pytest.raises(IndexError):
            run.source_offset(bad)
        with pytest.raises(IndexError):
            run.raw_source_offset(bad)


class _Recording(Emitter):
    """The simplest emitter: ``tag(*parts)``, each interpolation a lambda."""

    def decoded(self, cooked: str, raw: str, at: Any) -> ast.expr:
        return located(ast.Constant(cooked), at)

    def interpolation(self, field: Any, value: ast.expr, spec: ast.expr, at: Any) -> ast.expr:
        return self.thunk(value, at)

    def call(self, site: TagCall) -> ast.expr:
        return located(ast.Call(site.func, site.args, []), site.at)


def test_the_same_sites_whatever_the_emitter() -> None:
    source = 'def f(x):\n    return tag"a{x}b{inner"{x=}"}"\n'

    def shape(sites: tuple[Site, ...]) -> list[Any]:
        return [
            (s.tag.span, s.at, s.parent and s.parent.tag.span,
             [(a.cooked, a.raw, a.span) if isinstance(a, Run)
              else (a.text, a.field.nested or ast.dump(a.node))  # nested: what the emitter wrote
              for a in s.args])
            for s in sites
        ]

    assert shape(sites_of(source)) == shape(sites_of(source, _Recording()))


def test_chain() -> None:
    source = 'def f(x):\n    return tag"a{x}b{inner"{x=}"}"\n'
    emitter = _Recording()
    outer, inner = sites_of(source, emitter)
    assert [type(n).__name__ for n in outer.chain] == ["Module", "FunctionDef", "Return"]
    assert outer.call is not None and isinstance(outer.call, ast.Call)
    assert [type(n).__name__ for n in inner.chain] == ["Module", "FunctionDef", "Return", "Call", "Lambda"]


def test_no_tag_string() -> None:
    assert sites_of("x = f'{1}'\n") == ()
