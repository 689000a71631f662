"""The database engines' own grammars, where one can be asked: SQLite, PostgreSQL.

SQLite is the standard library's ``sqlite3``: a statement is prepared (as
``EXPLAIN``, on an empty in-memory database whose authorizer denies
everything, so nothing runs) and its error says whether the text is SQL:
``near "x": syntax error``, ``incomplete input`` and ``unrecognized token``
are syntax; ``no such table`` and ``not authorized`` come after the statement
parsed.  SQLite does not say where it stopped, so the first token at which a
prefix of the statement fails is found by bisection.  PostgreSQL is pglast
(libpg_query: PostgreSQL's parser itself), an optional extra, whose errors
carry their offset.  Other dialects have no engine here: sqlglot decides.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

if TYPE_CHECKING:
    import sqlite3

__all__ = ["Engine", "SyntaxFault", "engine_of", "sqlite_complete"]


class SyntaxFault(NamedTuple):
    """Where the engine stopped (an offset in the text it was given; ``len(text)``: it ended
    too soon) and what it said."""

    at: int
    detail: str


class Engine(NamedTuple):
    name: str
    # (text, its token spans when asked) -> the fault, or None
    fault: Callable[[str, Callable[[], Sequence[tuple[int, int]]]], SyntaxFault | None]
    parameter: Callable[[int], str]  # a bound parameter's text, for hole i


_SQLITE_SYNTAX = re.compile(r'near "(.*)": syntax error|incomplete input|unrecognized token: "(.*)"', re.S)
_connection: sqlite3.Connection | None = None


def _sqlite_module() -> Any:
    """The standard library's ``sqlite3``, or None where the build has none (Pyodide loads it
    as a package of its own)."""
    try:
        import sqlite3
    except ImportError:
        return None
    return sqlite3


def _sqlite() -> sqlite3.Connection:
    global _connection
    if _connection is None:
        sqlite3 = _sqlite_module()
        _connection = sqlite3.connect(":memory:", check_same_thread=False)
        _connection.set_authorizer(lambda *args: sqlite3.SQLITE_DENY)
    return _connection


def _sqlite_says(text: str) -> str | None:
    """SQLite's syntax error on ``text`` (one statement), or None when it parses."""
    statement = text if re.match(r"\s*explain\b", text, re.I) else "EXPLAIN " + text
    if "\x00" in statement:  # the module refuses it before SQLite sees it
        return 'unrecognized token: "\\x00"'
    sqlite3 = _sqlite_module()
    try:
        _sqlite().execute(statement)
    except sqlite3.Warning:  # more than one statement: each is checked on its own
        return None
    except sqlite3.Error as exc:
        message = str(exc)
        return message if _SQLITE_SYNTAX.match(message) else None
    return None


def _sqlite_fault(text: str, token_spans: Callable[[], Sequence[tuple[int, int]]]) -> SyntaxFault | None:
    said = _sqlite_says(text)
    if said is None:
        return None
    spans = token_spans()
    if said.startswith("incomplete input"):
        return SyntaxFault(len(text.rstrip().rstrip(";").rstrip()), "the statement ends too soon")
    # the first token at which a prefix fails (not merely "incomplete"): SQLite's parser
    # stops at the first token it cannot take, so failing prefixes are all longer than it
    low, high = 0, len(spans)
    while low < high:
        middle = (low + high) // 2
        prefix = _sqlite_says(text[: spans[middle][1]])
        if prefix is not None and not prefix.startswith("incomplete input"):
            high = middle
        else:
            low = middle + 1
    at = spans[low][0] if low < len(spans) else len(text)
    return SyntaxFault(at, said)


def sqlite_complete(text: str) -> bool:
    """Whether ``text`` ends a statement, as SQLite's tokenizer sees it (``CREATE TRIGGER
    ... BEGIN ...; END;`` is one statement)."""
    sqlite3 = _sqlite_module()
    return sqlite3 is None or bool(sqlite3.complete_statement(text.replace("\x00", " ")))


def _postgres_fault(text: str, token_spans: Callable[[], Sequence[tuple[int, int]]]) -> SyntaxFault | None:
    from pglast import parser

    if "\x00" in text:
        return SyntaxFault(text.index("\x00"), "a NUL character")
    try:
        parser.parse_sql(text)
    except parser.ParseError as exc:
        message = str(exc.args[0]) if exc.args else "syntax error"
        at = exc.args[1] if len(exc.args) > 1 and isinstance(exc.args[1], int) else len(text)
        if "at end of input" in message:
            at = len(text.rstrip().rstrip(";").rstrip())
        return SyntaxFault(max(0, min(at, len(text))), message)
    return None


def _sqlite_parameter(index: int) -> str:
    return f":tagstr_{index}"


def _postgres_parameter(index: int) -> str:
    return f"${index + 1}".ljust(len(_sqlite_parameter(index)))  # the same length: the same offsets


def engine_of(dialect: str) -> Engine | None:
    """The engine whose grammar decides for ``dialect`` (sqlglot's name), if it is here."""
    if dialect == "sqlite":
        return Engine("SQLite", _sqlite_fault, _sqlite_parameter) if _sqlite_module() is not None else None
    if dialect in ("postgres", "postgresql"):
        try:
            import pglast  # noqa: F401
        except ImportError:  # the optional extra: sqlglot decides
            return None
        return Engine("PostgreSQL", _postgres_fault, _postgres_parameter)
    return None
