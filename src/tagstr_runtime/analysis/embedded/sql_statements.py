"""Where one SQL statement of a tag string ends: as the engine splits them, else at each ``;``
outside a block of procedural code.

SQLite says itself whether a text ends a statement (``sqlite3.complete_statement``: a
trigger's ``BEGIN ...; END`` is one); PostgreSQL's splitter is libpg_query's (pglast,
``$$`` bodies and all).  For the other dialects a ``BEGIN ... END`` block of procedural code
(PL/SQL's ``DECLARE ... BEGIN ... END;``, a procedure's body) is one statement, which no
grammar here reads.
"""

from __future__ import annotations

from typing import Any, Callable

import sqlglot.tokens

from tagstr_runtime.analysis.embedded.sql_engines import sqlite_complete

__all__ = ["Statement", "statements"]

TokenType: Any = sqlglot.tokens.TokenType  # type: ignore[attr-defined]  # re-exported, not declared so


Statement = tuple[list[Any], bool]  # its tokens, and whether it is a procedural block (not parsed)


def statements(text: str, tokens: list[Any], dialect: str) -> list[Statement]:
    """The statements, as the engine splits them where there is one (SQLite: a trigger's
    ``BEGIN ...; END``; PostgreSQL: libpg_query's splitter), else at each ``;`` outside a
    ``BEGIN ... END`` block of procedural code."""
    pieces: list[list[Any]] = [[]]
    for token in tokens:
        pieces[-1].append(token)
        if token.token_type == TokenType.SEMICOLON:
            pieces.append([])
    if dialect == "sqlite":
        merged = _merged(pieces, lambda piece: sqlite_complete(text[piece[0].start : piece[-1].end + 1]))
        return [(_bare(piece), False) for piece in merged if _bare(piece)]
    ends = _postgres_ends(text) if dialect in ("postgres", "postgresql") else None
    if ends is not None:
        def complete(piece: list[Any]) -> bool:
            return bool(piece[-1].end + 1 >= min((e for e in ends if e > piece[0].start), default=len(text)))

        merged = _merged(pieces, complete)
        return [(_bare(piece), False) for piece in merged if _bare(piece)]
    statements: list[Statement] = []
    open_block = False
    for index, piece in enumerate(pieces):
        if open_block:
            statements[-1][0].extend(piece)
        elif _bare(piece):
            later = any(t.text.upper() == "BEGIN" for p in pieces[index:] for t in p)
            block = _opens_block(piece) or (_first_word(piece) == "DECLARE" and later)
            statements.append((list(piece), block))
        if statements and statements[-1][1]:
            words = [t.text.upper() for t in statements[-1][0]]
            open_block = "BEGIN" not in words or _depth(statements[-1][0]) > 0
        else:
            open_block = False
    return [(_bare(tokens_), block) for tokens_, block in statements if _bare(tokens_)]


def _first_word(piece: list[Any]) -> str:
    return str(piece[0].text).upper() if piece else ""


def _bare(piece: list[Any]) -> list[Any]:
    return [t for t in piece if t.token_type != TokenType.SEMICOLON]


def _merged(pieces: list[list[Any]], complete: Callable[[list[Any]], bool]) -> list[list[Any]]:
    merged: list[list[Any]] = []
    pending: list[Any] = []
    for piece in pieces:
        pending = pending + piece
        if pending and (not _bare(pending) or complete(pending)):
            merged.append(pending)
            pending = []
    if pending:
        merged.append(pending)
    return merged


def _postgres_ends(text: str) -> list[int] | None:
    try:
        from pglast import parser
    except ImportError:
        return None
    try:
        slices = parser.split(text, with_parser=False, only_slices=True)
    except Exception:  # the scanner's own error: the parse reports it
        return None
    return [int(piece.stop) for piece in slices]


_BLOCK_WORDS = frozenset(["PROCEDURE", "FUNCTION", "TRIGGER", "PACKAGE", "TYPE"])
_TRANSACTION = frozenset(["TRANSACTION", "WORK", "DEFERRED", "IMMEDIATE", "EXCLUSIVE", "TRAN", "ISOLATION", "READ"])


def _opens_block(piece: list[Any]) -> bool:
    """``BEGIN`` before a statement (not a transaction's), ``DECLARE ... BEGIN``, ``CREATE
    PROCEDURE ... BEGIN``: procedural code, whose ``;`` do not end it."""
    words = [t.text.upper() for t in piece if t.token_type != TokenType.SEMICOLON]
    if not words:
        return False
    if words[0] == "BEGIN":
        return len(words) > 1 and words[1] not in _TRANSACTION
    if words[0] == "DECLARE" and "BEGIN" in words:
        return True
    return words[0] == "CREATE" and "BEGIN" in words and bool(_BLOCK_WORDS & set(words[:6]))


def _depth(tokens: list[Any]) -> int:
    """How many ``BEGIN`` (and ``CASE``) are not yet closed by an ``END``."""
    depth = 0
    words = [t.text.upper() for t in tokens]
    for index, word in enumerate(words):
        if word in ("BEGIN", "CASE"):
            depth += 1
        elif word == "END":
            after = words[index + 1] if index + 1 < len(words) else ""
            if after not in ("IF", "LOOP", "WHILE", "REPEAT", "FOR"):
                depth -= 1
    return depth
