"""SQL: sqlglot's tokenizer and parser (in the configured dialect), every hole judged by its position.

A hole becomes a named bind parameter (``:tagstr_0``): the parser then says
where a parameter stands.  A parameter can only stand for a value, so one that
lands where a table or column name goes (``FROM {table}``, ``ORDER BY
{column}``) is reported unless the hole declares an identifier (psycopg's
``{name:i}``, which becomes an identifier); one the parser rejects stands where
a keyword or operator goes; one inside a string literal or a comment is no
parameter at all.  Statements are parsed one by one, so each gets its own
syntax error.  See ``docs/languages.md``.
"""

from __future__ import annotations

import difflib
import logging
import re
from functools import partial
from typing import Any, Iterator, Sequence

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError
import sqlglot.tokens

from tagstr_runtime.support.patching import strict
from tagstr_runtime.analysis.embedded import IDENTIFIER, Finding, Options, Slot
from tagstr_runtime.analysis.embedded.registry import CHECK_FAILED
from tagstr_runtime.analysis.embedded.joined import Joined
from tagstr_runtime.analysis.embedded.sql_engines import Engine, engine_of
from tagstr_runtime.analysis.embedded.sql_statements import statements as _statements

__all__ = ["check", "requirements"]

TokenType: Any = sqlglot.tokens.TokenType  # type: ignore[attr-defined]  # re-exported, not declared so
LOG = logging.getLogger(__name__)
logging.getLogger("sqlglot").setLevel(logging.ERROR)  # "falling back to parsing as a Command"

_PREFIX = "tagstr_"
_STRINGS = frozenset([
    TokenType.STRING, TokenType.NATIONAL_STRING, TokenType.RAW_STRING, TokenType.BIT_STRING,
    TokenType.HEX_STRING, TokenType.BYTE_STRING, TokenType.HEREDOC_STRING, TokenType.UNICODE_STRING,
])
_LIKE = frozenset([TokenType.LIKE, TokenType.ILIKE])
_WORD_END = re.compile(r"[A-Za-z0-9_$]$")
_WORD_START = re.compile(r"[A-Za-z0-9_$]")
_PARAMETER = re.compile(r":tagstr_(\d+)")
# a bind parameter directly under one of these stands for a name, not a value
_NAME_PARENTS = (exp.Table, exp.TableAlias, exp.Schema, exp.Column, exp.Ordered, exp.Group, exp.ColumnDef,
                 exp.Dot, exp.Identifier)


def _is_identifier(slot: Slot) -> bool:
    return slot.spec is not None and slot.spec.strip() == "i"


def _is_snippet(slot: Slot) -> bool:
    return slot.spec is not None and slot.spec.strip() == "q"


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    glued = {index for index, slot in enumerate(slots) if not _is_snippet(slot)
             and (_WORD_END.search(strings[index]) or _WORD_START.match(strings[index + 1]))}

    def placeholder(index: int) -> str:
        if _is_identifier(slots[index]) or index in glued:  # a name, or a part of one
            return f"{_PREFIX}{index}"
        return f":{_PREFIX}{index}"

    joined = Joined(strings, placeholder)
    name = options.sql_dialect  # "": sqlglot's own (generic) dialect
    dialect = sqlglot.Dialect.get_or_raise(name or None)
    findings: list[Finding] = []
    tokenizer = dialect.tokenizer()
    try:
        tokens = tokenizer.tokenize(joined.text)
    except TokenError as exc:
        return [_token_error(joined, exc)]
    inside: set[int] = set()
    for finding in _hole_tokens(joined, slots, tokens):
        findings.append(finding)
        if finding.hole is not None:
            inside.add(finding.hole)
    findings.extend(joined.at_hole("sql.hole-identifier", hole, what="a part of a name")
                    for hole in sorted(glued - inside) if not _is_identifier(slots[hole]))
    adjacent = {i + 1 for i, s in enumerate(strings[1:-1]) if s == ""}
    findings.extend(joined.at_hole("sql.adjacent", i) for i in sorted(adjacent))
    statements = _statements(joined.text, tokens, name)
    if len(statements) > 1:
        second = statements[1][0][0]
        findings.append(joined.finding("sql.statements", second.start, count=str(len(statements)), start=second.text))
    if not any(_is_snippet(slot) for slot in slots):  # SQL text in a hole: the rest cannot be parsed alone
        engine = engine_of(name)
        done = adjacent | inside | glued
        for statement, block in statements:
            if not block:  # procedural code (PL/SQL...): no grammar here
                findings.extend(_judge(joined, dialect, engine, statement, done))
    return sorted(findings, key=lambda f: (_order(joined, f), f.kind))


def requirements(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> dict[int, str]:
    """The holes that stand for a name (an identifier): declared ``{name:i}``, or where the
    parser puts a table or column name (what ``check`` reports as ``sql.hole-identifier``)."""
    found = {index: IDENTIFIER for index, slot in enumerate(slots) if _is_identifier(slot)}
    if len(found) < len(slots):
        for finding in check(strings, slots, options):
            if finding.kind == "sql.hole-identifier" and finding.hole is not None:
                found[finding.hole] = IDENTIFIER
    return dict(sorted(found.items()))


def _token_error(joined: Joined, exc: TokenError) -> Finding:
    """An unterminated string or quoted name (at its quote), or comment (at the end)."""
    found = re.search(r"Missing (.+) from \d+:(\d+)", str(exc.__cause__ or exc.__context__ or ""))
    if found:
        quote = found.group(1)
        return joined.finding("sql.syntax", int(found.group(2)), detail=f"unterminated {quote}...{quote}",
                              fix="close it")
    return joined.finding("sql.syntax", len(joined.text), detail="unexpected end of the text",
                          fix="close the comment left open")


def _order(joined: Joined, finding: Finding) -> int:
    if finding.hole is not None:
        return joined.holes[finding.hole][0]
    return joined.starts[finding.part] + finding.offset


def _hole_tokens(joined: Joined, slots: Sequence[Slot], tokens: list[Any]) -> Iterator[Finding]:
    """Holes inside a string literal, a quoted name, a comment or an optimizer hint.  A hole
    outside every token is in a comment only if the tokenizer kept it in one; else it is in
    text the tokenizer took whole (``CALL p(...)`` as a command): no verdict from here."""
    spans = [(t.start, t.end + 1, t) for t in tokens if t.end >= t.start and not _opaque(t)]
    comments = "\n".join(c for t in tokens for c in (t.comments or ()))
    previous = None
    index = 0
    for hole, (start, end) in enumerate(joined.holes):
        while index < len(spans) and spans[index][1] <= start:
            previous = spans[index][2]
            index += 1
        if index < len(spans) and spans[index][0] <= start:
            token = spans[index][2]
            if token.token_type in _STRINGS:
                like = previous is not None and previous.token_type in _LIKE
                yield joined.at_hole("sql.hole-literal", hole, what="a LIKE pattern" if like else "a string literal")
            elif token.token_type == TokenType.HINT:
                yield joined.at_hole("sql.hole-comment", hole)
            elif token.token_type == TokenType.IDENTIFIER and not _is_identifier(slots[hole]):
                yield joined.at_hole("sql.hole-identifier", hole, what="a quoted name")
        elif joined.text[start:end] in comments:
            yield joined.at_hole("sql.hole-comment", hole)


def _opaque(token: Any) -> bool:
    """The rest of a statement sqlglot keeps as one string (after ``CALL``...): not where it says."""
    return bool(token.token_type == TokenType.STRING and token.start == token.end and len(token.text) > 1)


def _judge(joined: Joined, dialect: Any, engine: Engine | None, tokens: list[Any], done: set[int]) -> Iterator[Finding]:
    """One statement: its syntax error (the engine's where there is one, else sqlglot's), the
    holes where a keyword goes (each put aside in turn, so the rest is judged too), and the
    holes that stand for names."""
    begin, stop = tokens[0].start, tokens[-1].end + 1
    text = joined.text[begin:stop]
    holes = [(i, s - begin, e - begin) for i, (s, e) in enumerate(joined.holes) if begin <= s < stop]
    # the first parse reads the tokens of the whole text (offsets from its start), later ones
    # the statement with holes put aside
    source, read, base = joined.text, tokens, begin
    aside: int | None = None  # where the last hole put aside ended
    for _ in range(len(holes) + 1):
        try:
            tree, error = _sqlglot(dialect, source, read)
        except _SqlglotFailed:  # no verdict from sqlglot, and that is said (TAG901)
            yield joined.finding(CHECK_FAILED, begin, language="SQL", detail="sqlglot failed on this statement")
            return
        if engine is not None:
            fault = engine.fault(_for_engine(engine, text), partial(_spans, dialect, text))
            if fault is None:
                if tree is not None:
                    yield from _names(joined, tree)
                return
            at, detail = fault.at, fault.detail
        elif error is None:
            if tree is not None:
                yield from _names(joined, tree)
            return
        else:
            found = _sqlglot_fault(dialect, error, read)
            if found is None:
                return
            at, detail = found[0] - base, found[1]
        hole = next((h for h, s, e in holes if s <= at < e), None)
        if hole is None:
            if aside is None or text[aside:at].strip():  # not what putting a hole aside left
                yield _syntax(joined, dialect, text, begin, at, detail, engine)
            return
        name = _accepts_name(engine, dialect, text, holes, hole)
        if hole not in done:
            done.add(hole)
            if name:
                yield joined.at_hole("sql.hole-identifier", hole, what="a name")
            else:
                yield joined.at_hole("sql.hole-keyword", hole)
        _, s, e = next(h for h in holes if h[0] == hole)
        # put aside (a name as a name, anything else left out): is the rest right?
        text = text[:s] + (" " + text[s + 1 : e] if name else " " * (e - s)) + text[e:]
        aside = e
        source, read, base = text, _tokens(dialect, text), 0
        if not read:
            return


class _SqlglotFailed(Exception):
    """sqlglot raised something other than its ParseError."""


def _tokens(dialect: Any, text: str) -> list[Any]:
    try:
        return list(dialect.tokenizer().tokenize(text))
    except TokenError:
        return []


def _sqlglot(dialect: Any, text: str, tokens: list[Any]) -> tuple[Any, ParseError | None]:
    """sqlglot's tree of one statement (``tokens``, read from ``text``), or its error."""
    parser = dialect.parser(error_level=ErrorLevel.RAISE, error_message_context=len(text) + 1)
    try:
        parsed = parser.parse(tokens, text)
    except ParseError as exc:
        return None, exc
    except Exception:  # sqlglot's own bug on odd text (seen: "{= x"): said as such by _judge
        if strict():
            raise
        LOG.debug("sqlglot failed on %r", text, exc_info=True)
        raise _SqlglotFailed(text) from None
    tree = next((t for t in parsed if t is not None), None)
    first = tokens[0]
    if tree is not None and first.token_type == TokenType.VAR and not isinstance(tree, exp.Command):
        return None, ParseError("Invalid expression / Unexpected token", [{"start_context": "", "description":
                                                                          "unknown statement"}])
    return tree, None


def _sqlglot_fault(dialect: Any, exc: ParseError, tokens: list[Any]) -> tuple[int, str] | None:
    """Where sqlglot stopped (an offset of the text ``tokens`` were read from), and what it
    said; None: no verdict (a statement sqlglot does not know, whose first word is no
    misspelt keyword)."""
    first = tokens[0]
    if first.token_type == TokenType.VAR:
        if _keyword_like(first.text, _statement_words(dialect)) is None:
            return None
        return first.start, "unknown statement"
    errors = exc.errors or [{"start_context": "", "description": str(exc)}]
    error = errors[0]
    at = len(error.get("start_context") or "")
    description = str(error.get("description") or "syntax error")
    last = tokens[-1]
    if at >= last.start and description.startswith("Expecting "):  # the statement ended too soon
        return last.end + 1, description
    return at, description


def _syntax(joined: Joined, dialect: Any, text: str, begin: int, at: int, detail: str,
            engine: Engine | None) -> Finding:
    """The syntax error at ``at`` of the statement ``text`` (at ``begin`` in the joined text)."""
    tokens = dialect.tokenizer().tokenize(text)
    if at >= len(text.rstrip()):
        wanted = detail.removeprefix("Expecting ") if detail.startswith("Expecting ") else "more"
        return joined.finding("sql.syntax", begin + len(text.rstrip()),
                              detail=f"{wanted!r} expected at the end of the statement" if wanted != "more"
                              else "the statement ends too soon", fix="complete the statement")
    tokens = [t for t in tokens if not _opaque(t)]
    index = next((i for i, t in enumerate(tokens) if t.start <= at <= t.end), None)
    if index is None:  # in text sqlglot took whole: the word there
        word = text[at:].split(None, 1)[0]
        return joined.finding("sql.syntax", begin + at, detail=f"unexpected {word!r}"
                              + (f" ({engine.name}: {detail})" if engine is not None else ""))
    token = tokens[index]
    if index == 0 and token.token_type == TokenType.VAR:
        return _unknown_statement(joined, begin, token, dialect)
    keywords = _clause_words(dialect)
    for candidate in (tokens[index - 1] if index else None, token):  # a misspelt keyword: at it
        if candidate is not None and candidate.token_type == TokenType.VAR:
            meant = _keyword_like(candidate.text, keywords)
            if meant is not None:
                return joined.finding("sql.syntax", begin + candidate.start,
                                      detail=f"{candidate.text!r} is no keyword", fix=f"did you mean {meant}?")
    word = token.text
    said = f"{detail.removeprefix('Expecting ')!r} expected before {word!r}" if detail.startswith("Expecting ") \
        else f"unexpected {word!r}"
    if engine is not None:
        said = f"unexpected {word!r} ({engine.name}: {detail})"
    return joined.finding("sql.syntax", begin + token.start, detail=said)


def _unknown_statement(joined: Joined, begin: int, first: Any, dialect: Any) -> Finding:
    meant = _keyword_like(first.text, _statement_words(dialect))
    return joined.finding(
        "sql.syntax", begin + first.start, detail=f"{first.text!r} does not start a statement",
        fix=f"a misspelt keyword? write {meant}" if meant else "a misspelt keyword? write SELECT, INSERT...",
    )


def _keyword_like(word: str, keywords: Sequence[str]) -> str | None:
    """The keyword ``word`` is a misspelling of, if it is one."""
    upper = word.upper()
    if len(upper) < 3 or upper in keywords:
        return None
    found = difflib.get_close_matches(upper, keywords, n=1, cutoff=0.75)
    return found[0] if found else None


def _statement_words(dialect: Any) -> list[str]:
    words = {t.name for t in dialect.parser_class.STATEMENT_PARSERS} | {"SELECT", "WITH", "VALUES"}
    return sorted(w for w in words if w.isalpha())


_CLAUSES = ("SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "INNER",
            "OUTER", "LEFT", "RIGHT", "UNION", "VALUES", "INTO", "RETURNING", "UPDATE", "DELETE", "INSERT",
            "BETWEEN", "DISTINCT", "WINDOW", "PARTITION")


def _clause_words(dialect: Any) -> list[str]:
    keywords = dialect.tokenizer_class.KEYWORDS
    return [word for word in _CLAUSES if word in keywords or word in ("SELECT",)]


def _spans(dialect: Any, text: str) -> list[tuple[int, int]]:
    try:
        return [(t.start, t.end + 1) for t in dialect.tokenizer().tokenize(text)]
    except TokenError:
        return [(0, len(text))]


def _for_engine(engine: Engine, text: str) -> str:
    """The statement with each bound parameter as the engine writes it (as long: same offsets)."""
    return _PARAMETER.sub(lambda m: engine.parameter(int(m.group(1))), text)


def _accepts_name(engine: Engine | None, dialect: Any, text: str, holes: Sequence[tuple[int, int, int]],
                  hole: int) -> bool:
    """Whether the statement gets past the hole once the hole is a name, not a parameter."""
    _, start, end = next(h for h in holes if h[0] == hole)
    if not text[start:end].startswith(":"):
        return False
    named = text[:start] + " " + text[start + 1 : end] + text[end:]
    if engine is not None:
        fault = engine.fault(_for_engine(engine, named), partial(_spans, dialect, named))
        return fault is None or fault.at >= end
    tokens = _tokens(dialect, named)
    if not tokens:
        return False
    try:
        _, error = _sqlglot(dialect, named, tokens)
    except _SqlglotFailed:
        return False
    if error is None:
        return True
    found = _sqlglot_fault(dialect, error, tokens)
    return found is not None and found[0] >= end


def _names(joined: Joined, tree: Any) -> Iterator[Finding]:
    for node in tree.find_all(exp.Placeholder):
        yield from _parameter(joined, node)


def _parameter(joined: Joined, node: exp.Placeholder) -> Iterator[Finding]:
    hole = _hole_of(node.name)
    if hole is None:
        return
    parent = node.parent
    if isinstance(parent, exp.Alias) and node.arg_key == "alias":
        yield joined.at_hole("sql.hole-identifier", hole, what="a column alias")
    elif isinstance(parent, _NAME_PARENTS) or (
        isinstance(parent, exp.EQ) and isinstance(parent.parent, exp.Update) and parent.this is node
    ):
        yield joined.at_hole("sql.hole-identifier", hole, what=_name_kind(parent))


def _hole_of(name: str) -> int | None:
    if name.startswith(_PREFIX) and name[len(_PREFIX):].isdigit():
        return int(name[len(_PREFIX):])
    return None


def _name_kind(parent: exp.Expression) -> str:
    if isinstance(parent, (exp.Table, exp.TableAlias)):
        return "a table name"
    if isinstance(parent, (exp.Ordered, exp.Group)):
        return "an ORDER BY or GROUP BY term (a parameter there is a constant)"
    return "a column name"
