"""Hypothesis strategies for tag-string bodies, shared by the property tests.

A generated body knows what it should parse to, independently of the code
under test: the literal text between its top-level fields (``{{``/``}}``
collapsed) and the text of every field's expression (whitespace and comments
around it removed), in source order (a field, then the fields of its format
spec).  The bodies follow the lexical rules of a raw f-string as PEP 701
defines them (SPEC 2), so on Python 3.12+ CPython's own parse of
``rf"<body>"`` is a second, independent oracle.

Every generated body is meant to be valid; the generator avoids the joins that
would make it invalid (a lone quote ending a triple-quoted body, a backslash
escaping the closing quote, ...).  The few invalid ones that remain (an
expression such as ``-not x``, nesting CPython refuses) are filtered by the
tests with ``assume``: on CPython 3.12+'s verdict on the rf-string, on 3.11
on each expression compiled alone.

Shapes of known, still open core bugs (see ``test_regressions.py``) are left
out of the generated bodies, so that the properties keep guarding everything
else: ``KNOWN_BUGS`` names them, ``TAGSTR_KNOWN_BUGS`` (a comma-separated list,
empty for none) overrides it to check a fix.

Example budgets scale with the profile named by ``HYPOTHESIS_PROFILE``
(``dev`` by default, ``ci``, ``thorough``, ``quick``; see ``tests/conftest.py``).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Callable

from hypothesis import strategies as st

PY312 = sys.version_info >= (3, 12)

_SCALE = {"dev": 1, "default": 1, "ci": 3, "thorough": 25}


def examples(n: int) -> int:
    """``n`` examples for a normal run, more under the ``ci`` / ``thorough`` profiles, about a
    tenth under ``quick`` (``pytest --quick``; read at each call: the option sets it)."""
    profile = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    if profile == "quick":
        return max(3, n // 10)
    return max(1, n * _SCALE.get(profile, 1))


QUOTES = ("'", '"', "'''", '"""')

#: Shapes of open core bugs to leave out (test_regressions.py has each one).
#: None is open; the switch that remains, for a bug that reappears:
#: "multiline-nested-quote-reuse": a single-quoted f-string or tag string nested
#: in a field, reusing the enclosing quote, whose own field spans lines
#: (tg'{f'{x\n}'}').
KNOWN_BUGS = frozenset(filter(None, os.environ.get("TAGSTR_KNOWN_BUGS", "").split(",")))

# The comment that ``expressions`` may put inside brackets.
EXPR_COMMENT = "# c}'\""

# -- expressions ------------------------------------------------------------------

NAMES = ("x", "y", "name", "é", "日本", "_", "match", "case", "type", "value_2")
NUMBERS = ("1", "0", "42", "0x1f", "1.5e3", "1_000", "2j", ".5")
# Text of string literals inside an expression: braces, '#', '!', ':' and '='
# mean nothing there; escapes are allowed in fields since PEP 701.
STRING_TEXT = ("k", "", "{", "}", "#", "!r", ":", "=", "a b", "é", "\\n", "\\\\", "{x}", "}}")


@dataclass(frozen=True)
class Ctx:
    """Where an expression is generated."""

    quote: str  # quote of the enclosing tag-string body
    reuse_quote: bool  # nested strings may use the enclosing quote character (PEP 701, 3.12+)
    comments: bool  # comments and newlines may appear inside brackets

    def string_quotes(self) -> list[str]:
        qc = self.quote[0]
        other = "'" if qc == '"' else '"'
        return [other, qc] if self.reuse_quote else [other]


def string_literal(ctx: Ctx) -> st.SearchStrategy[str]:
    return st.builds(
        lambda prefix, q, text: prefix + q + text + q,
        st.sampled_from(["", "r", "b", "u", "R"]),
        st.sampled_from(ctx.string_quotes()),
        st.sampled_from(STRING_TEXT),
    ).filter(lambda s: s.isascii() or not s.startswith("b"))


def fstring_literal(ctx: Ctx, inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A nested standard f-string: ``f"a{expr!r:>{w}}"``."""

    def build(prefix: str, q: str, lead: str, expr: str, conv: str, spec: str) -> str:
        if expr.startswith("{"):
            expr = " " + expr
        if "multiline-nested-quote-reuse" in KNOWN_BUGS:
            expr = expr.replace(EXPR_COMMENT, "").replace("\n", " ")
        return f"{prefix}{q}{lead}{{{expr}{conv}{spec}}}{q}"

    return st.builds(
        build,
        st.sampled_from(["f", "rf", "F", "fR"]),
        st.sampled_from(ctx.string_quotes()),
        st.sampled_from(["", "a ", "{{", "}} "]),
        inner,
        st.sampled_from(["", "!r", "!s"]),
        st.sampled_from(["", ":>3", ":{y}", ""]),
    )


@functools.lru_cache(maxsize=None)
def expressions(ctx: Ctx, max_leaves: int = 6) -> st.SearchStrategy[str]:
    """Python expressions valid inside a replacement field, as source text.

    Never a bare lambda, walrus or starred expression (the f-string grammar
    rejects or re-reads them); those only appear parenthesised.
    """
    atoms = st.one_of(
        st.sampled_from(NAMES),
        st.sampled_from(NUMBERS),
        string_literal(ctx),
        st.sampled_from(["None", "True", "...", "[]", "()", "{}"]),
    )

    def extend(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(sub, sub)
        forms: list[st.SearchStrategy[str]] = [
            pair.map(lambda p: f"{p[0]} + {p[1]}"),
            pair.map(lambda p: f"{p[0]}*{p[1]}"),
            pair.map(lambda p: f"{p[0]} != {p[1]}"),
            pair.map(lambda p: f"{p[0]} == {p[1]}"),
            pair.map(lambda p: f"{p[0]} <= {p[1]}"),
            pair.map(lambda p: f"({p[0]}, {p[1]})"),
            pair.map(lambda p: f"[{p[0]}, {p[1]}]"),
            pair.map(lambda p: f"{{{p[0]}: {p[1]}}}"),
            pair.map(lambda p: f"{{{p[0]}, {p[1]}}}"),
            pair.map(lambda p: f"{p[0]}[{p[1]}]"),
            pair.map(lambda p: f"{p[0]}[{p[1]}:]"),
            pair.map(lambda p: f"f({p[0]}, k={p[1]})"),
            pair.map(lambda p: f"{p[0]} if {p[1]} else y"),
            pair.map(lambda p: f"(lambda v: {p[0]})({p[1]})"),
            pair.map(lambda p: f"(z := {p[0]})"),
            pair.map(lambda p: f"[v for v in {p[0]} if v]"),
            sub.map(lambda a: f"{a}.attr"),
            sub.map(lambda a: f"not {a}"),
            sub.map(lambda a: f"-({a})" if " " in a else f"-{a}"),
            sub.map(lambda a: f"({a})"),
            sub.map(lambda a: f"(lambda: {a})"),
            sub.map(lambda a: f"(*{a},)"),
            fstring_literal(ctx, sub),
        ]
        if ctx.comments:
            forms.append(pair.map(lambda p: f"({p[0]}  {EXPR_COMMENT}\n + {p[1]})"))
            forms.append(pair.map(lambda p: f"[\n  {p[0]},\n  {p[1]}\n]"))
        return st.one_of(forms)

    return st.recursive(atoms, extend, max_leaves=max_leaves)


# -- bodies -----------------------------------------------------------------------


@dataclass
class Body:
    """A generated body and what it must parse to."""

    quote: str
    text: str = ""
    segments: list[str] = field(default_factory=lambda: [""])  # top-level literal raws
    exprs: list[str] = field(default_factory=list)  # every field's expression, source order
    # every field's debug text ('{ x = }' -> ' x = '; comments dropped), None without '='
    debugs: list[str | None] = field(default_factory=list)
    convs: list[str | None] = field(default_factory=list)  # every field's conversion as written

    def add_literal(self, text: str, raw: str) -> None:
        self.text += text
        self.segments[-1] += raw


# Literal pieces are source text; the raw text the tag sees is the same with
# doubled braces collapsed.
_PLAIN = st.text(
    alphabet="abcXYZ019 .,;-_/#!:=()[]<>é日ß😀\t",
    min_size=1,
    max_size=6,
)
GOOD_ESCAPES = (
    "\\n", "\\t", "\\\\", "\\x41", "\\u00e9", "\\U0001F600", "\\N{{BULLET}}",
    "\\N{{latin small letter e with acute}}", "\\d", "\\101", "\\0", "\\'", '\\"',
    "\\a", "\\8", "\\{{", "\\}}", "\\ ", "\\é",
)
BAD_ESCAPES = ("\\x4g", "\\N{{NO SUCH NAME}}", "\\U00110000", "\\N{{}}", "\\u12", "\\x")


def _collapse(text: str) -> str:
    return text.replace("{{", "{").replace("}}", "}")


@functools.lru_cache(maxsize=None)
def literal_pieces(quote: str, bad_escapes: bool) -> st.SearchStrategy[str]:
    qc = quote[0]
    other = "'" if qc == '"' else '"'
    choices: list[st.SearchStrategy[str]] = [
        _PLAIN,
        _PLAIN,
        st.sampled_from(GOOD_ESCAPES),
        st.sampled_from(["{{", "}}", "{{}}", "}}{{"]),
        st.sampled_from([other, other * 3, "\\" + qc]),
    ]
    if len(quote) == 3:
        # an unescaped quote character (never three, never last: a letter follows)
        choices.append(st.sampled_from([qc + "a", qc * 2 + "b", "\n", "\\\n", "\n\n  "]))
    if bad_escapes:
        choices.append(st.sampled_from(BAD_ESCAPES))
    return st.one_of(choices)


@st.composite
def bodies(
    draw: Callable,
    quote: str | None = None,
    *,
    reuse_quote: bool = PY312,
    bad_escapes: bool = False,
    debug_in_spec: bool = True,
    max_parts: int = 6,
) -> Body:
    """A tag-string body for ``quote`` (drawn if None) with its expected parse.

    ``debug_in_spec``: generate ``{x:{y=}}``.  The CPython comparison leaves it
    out: CPython 3.12.1's ``ast`` cannot build that tree for a raw f-string, and
    3.13.0 gives ``rf"{x:{z}{y=}}"`` the debug text ``'z'``.
    """
    if quote is None:
        quote = draw(st.sampled_from(QUOTES))
    body = Body(quote)
    triple = len(quote) == 3
    ctx = Ctx(quote, reuse_quote, comments=True)
    pieces = literal_pieces(quote, bad_escapes)
    n = draw(st.integers(0, max_parts))
    for _ in range(n):
        if draw(st.integers(0, 2)) == 0:
            _field(draw, body, ctx, triple, depth=0, debug_in_spec=debug_in_spec)
        else:
            piece = draw(pieces)
            body.add_literal(piece, _collapse(piece))
    return body


def _uncomment(space: str) -> str:
    return re.sub(r"#[^\n]*", "", space)


_WS_LEAD = ("", "", " ", "  ", "\n", " \n  ")
_WS_TRAIL = ("", "", " ", "\n", " # comment {}!:='\"\n", "  # c\n  ")


def _field(draw: Callable, body: Body, ctx: Ctx, triple: bool, depth: int, debug_in_spec: bool) -> None:
    """Append one replacement field (``depth`` 0: top level, 1-2: inside format specs)."""
    top = depth == 0
    if top:
        # a backslash or a \N just before a field stays literal text (raw f-string rule)
        prefix = draw(st.sampled_from(["", "", "", "\\", "\\N", "\\\\\\N"]))
        if prefix:
            body.add_literal(prefix, prefix)
    debug = top or debug_in_spec
    debug = debug and draw(st.booleans()) and draw(st.booleans())
    expr = draw(expressions(ctx, max_leaves=5 if top else 3))
    lead = draw(st.sampled_from(_WS_LEAD))
    trail = draw(st.sampled_from(_WS_TRAIL))
    if expr.startswith("{") and not lead:
        lead = " "  # '{{' would be a literal brace
    conv = draw(st.sampled_from(["", "", "!r", "!s", "!a"]))
    text = "{" + lead + expr + trail
    debug_text = None
    if debug:
        after = draw(st.sampled_from(["", " ", "\n", "  ", " # c\n", "#{'\"\n "]))
        text += "=" + after
        # CPython's debug text drops the comments (PEP 701), keeps all else
        debug_text = lead + expr.replace(EXPR_COMMENT, "") + _uncomment(trail) + "=" + _uncomment(after)
    text += conv
    if conv:
        # whitespace (3.12+) and comments may follow the conversion
        text += draw(st.sampled_from(["", "", " ", "\n", " # c\n"]))
    body.text += text
    body.exprs.append(expr)
    body.debugs.append(debug_text)
    body.convs.append(conv[1:] or None)
    if top:
        body.segments.append("")
    if depth < 2 and draw(st.integers(0, 2)) == 0:
        body.text += ":"
        _spec(draw, body, ctx, triple, depth, debug_in_spec)
    body.text += "}"


_SPEC_TEXT = st.text(alphabet="<>^=+-#,._%!:0123456789abxXé '", min_size=1, max_size=5)


def _spec(draw: Callable, body: Body, ctx: Ctx, triple: bool, depth: int, debug_in_spec: bool) -> None:
    """A format spec's contents: raw text (never a backslash: see the known
    difference in test_properties) and nested fields."""
    qc = ctx.quote[0]
    n = draw(st.integers(0, 3))
    for _ in range(n):
        if draw(st.booleans()):
            text = draw(_SPEC_TEXT).replace(qc, "")
            if triple and draw(st.integers(0, 5)) == 0:
                text += "\n"
            body.text += text
        else:
            _field(draw, body, ctx, triple, depth + 1, debug_in_spec)


def tag_source(body: Body, tag: str = "tg", context: tuple[str, str] = ("", "")) -> str:
    """A module with one tag string whose body is ``body``."""
    before, after = context
    return f"{before}{tag}{body.quote}{body.text}{body.quote}{after}\n"


CONTEXTS = (
    ("", ""),
    ("é = ", ""),
    ("x = [\n    ", ",\n]"),
    ("def f():\n    return ", ""),
    ("if True:\n    v = (1, ", ")"),
)
