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

import logging
import re
from typing import Any, Iterator, Sequence

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError
import sqlglot.tokens

from tagstr_runtime.integrations.patching import strict
from tagstr_runtime.analysis.embedded import IDENTIFIER, Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined

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
# a bind parameter directly under one of these stands for a name, not a value
_NAME_PARENTS = (exp.Table, exp.TableAlias, exp.Schema, exp.Column, exp.Ordered, exp.Group, exp.ColumnDef,
                 exp.Dot, exp.Identifier)


def _is_identifier(slot: Slot) -> bool:
    return slot.spec is not None and slot.spec.strip() == "i"


def _is_snippet(slot: Slot) -> bool:
    return slot.spec is not None and slot.spec.strip() == "q"


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    def placeholder(index: int) -> str:
        if _is_identifier(slots[index]):
            return f"{_PREFIX}{index}"
        return f":{_PREFIX}{index}"

    joined = Joined(strings, placeholder)
    dialect = sqlglot.Dialect.get_or_raise(options.sql_dialect or None)
    findings: list[Finding] = []
    tokenizer = dialect.tokenizer()
    try:
        tokens = tokenizer.tokenize(joined.text)
    except TokenError as exc:
        return [_token_error(joined, exc)]
    findings.extend(_hole_tokens(joined, slots, tokens))
    adjacent = {i + 1 for i, s in enumerate(strings[1:-1]) if s == ""}
    findings.extend(joined.at_hole("sql.adjacent", i) for i in sorted(adjacent))
    statements = _statements(tokens)
    if len(statements) > 1:
        second = statements[1][0]
        findings.append(joined.finding("sql.statements", second.start, count=str(len(statements)), start=second.text))
    if not any(_is_snippet(slot) for slot in slots):  # SQL text in a hole: the rest cannot be parsed alone
        for statement in statements:
            findings.extend(_parse(joined, dialect, statement, adjacent))
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


def _statements(tokens: list[Any]) -> list[list[Any]]:
    statements: list[list[Any]] = [[]]
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            statements.append([])
        else:
            statements[-1].append(token)
    return [s for s in statements if s]


def _hole_tokens(joined: Joined, slots: Sequence[Slot], tokens: list[Any]) -> Iterator[Finding]:
    """Holes inside a string literal, a quoted name or a comment (no token of their own)."""
    spans = [(t.start, t.end + 1, t) for t in tokens]
    previous = None
    index = 0
    for hole, (start, _) in enumerate(joined.holes):
        while index < len(spans) and spans[index][1] <= start:
            previous = spans[index][2]
            index += 1
        if index < len(spans) and spans[index][0] <= start:
            token = spans[index][2]
            if token.token_type in _STRINGS:
                like = previous is not None and previous.token_type in _LIKE
                yield joined.at_hole("sql.hole-literal", hole, what="a LIKE pattern" if like else "a string literal")
            elif token.token_type == TokenType.IDENTIFIER and not _is_identifier(slots[hole]):
                yield joined.at_hole("sql.hole-identifier", hole, what="a quoted name")
        else:
            yield joined.at_hole("sql.hole-comment", hole)


def _parse(joined: Joined, dialect: Any, tokens: list[Any], adjacent: set[int]) -> Iterator[Finding]:
    parser = dialect.parser(error_level=ErrorLevel.RAISE, error_message_context=len(joined.text) + 1)
    try:
        parsed = parser.parse(tokens, joined.text)
    except ParseError as exc:
        yield from _syntax(joined, tokens, exc, adjacent)
        return
    except Exception:  # sqlglot's own bug on odd text (seen: "{= x"): no verdict on this statement
        if strict():
            raise
        LOG.debug("sqlglot failed on %r", joined.text, exc_info=True)
        return
    first = tokens[0]
    for tree in parsed:
        if tree is None:
            continue
        if first.token_type == TokenType.VAR and not isinstance(tree, exp.Command):
            yield _unknown_statement(joined, first)
            return
        for node in tree.find_all(exp.Placeholder):
            yield from _parameter(joined, node)


def _syntax(joined: Joined, tokens: list[Any], exc: ParseError, adjacent: set[int]) -> Iterator[Finding]:
    first = tokens[0]
    if first.token_type == TokenType.VAR:
        yield _unknown_statement(joined, first)
        return
    errors = exc.errors or [{"start_context": "", "description": str(exc)}]
    error = errors[0]
    at = len(error.get("start_context") or "")
    description = str(error.get("description") or "syntax error")
    last = tokens[-1]
    if at >= last.start and description.startswith("Expecting "):  # the statement ended too soon
        wanted = description.removeprefix("Expecting ")
        yield joined.finding("sql.syntax", last.end + 1, detail=f"{wanted!r} expected at the end of the statement",
                             fix="complete the statement")
        return
    hole = joined.hole_at(at)
    if hole is not None:
        if hole not in adjacent:  # already reported
            yield joined.at_hole("sql.hole-keyword", hole)
        return
    word = joined.text[at:].split(None, 1)[0] if joined.text[at:].strip() else ""
    if description.startswith("Expecting "):
        detail = f"{description.removeprefix('Expecting ')!r} expected before {word!r}"
    else:
        detail = f"unexpected {word!r}"
    yield joined.finding("sql.syntax", at, detail=detail)


def _unknown_statement(joined: Joined, first: Any) -> Finding:
    return joined.finding(
        "sql.syntax", first.start,
        detail=f"{first.text!r} does not start a statement", fix="a misspelt keyword? write SELECT, INSERT...",
    )


def _parameter(joined: Joined, node: exp.Placeholder) -> Iterator[Finding]:
    hole = _hole_of(node.name)
    if hole is None:
        return
    parent = node.parent
    if isinstance(parent, _NAME_PARENTS) or (
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
