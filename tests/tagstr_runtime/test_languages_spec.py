"""The checks against the languages' specs and engines: correct code is left alone, and what the
spec or the engine rejects is reported at its token.

HTML cases follow today's WHATWG parsing spec (tests/tagstr_runtime/test_languages_parse5.py
asks parse5 the same questions), SQL cases SQLite itself (the standard library's ``sqlite3``)
and PostgreSQL's parser (pglast) where the dialect has one.  ``place`` is ``"s<part>:<offset>"``
in the strings or ``"h<index>"`` for a hole, as in test_languages.py.
"""

from __future__ import annotations

import importlib.util

import pytest

from tagstr_runtime.analysis.embedded import Finding, Options, Slot, check, requirements

HAVE = {name: importlib.util.find_spec(module) is not None for name, module in [
    ("html", "html5lib"), ("sql", "sqlglot"), ("css", "tinycss2"), ("postgres", "pglast")]}


DEFAULTS = Options()


def run(language: str, strings: list[str], exprs: list[str] | None = None, specs: list[str | None] | None = None,
        options: Options = DEFAULTS) -> list[tuple[str, str]]:
    if not HAVE.get(language, True):
        pytest.skip(f"the {language} parser is not installed")
    if options.sql_dialect == "postgres" and not HAVE["postgres"]:
        pytest.skip("pglast is not installed")
    holes = len(strings) - 1
    slots = [Slot((exprs or [f"h{i}" for i in range(holes)])[i], None, (specs or [None] * holes)[i])
             for i in range(holes)]
    return [(f.kind, place(f)) for f in check(language, strings, slots, options)]


def place(finding: Finding) -> str:
    return f"h{finding.hole}" if finding.hole is not None else f"s{finding.part}:{finding.offset}"


PG = Options(sql_dialect="postgres")
MYSQL = Options(sql_dialect="mysql")
ORACLE = Options(sql_dialect="oracle")
OPT_IN = Options(html_opt_in=True)

CORRECT = [
    # the ambiguous ampersand: "&" then a name that is no reference, without ";", is text
    pytest.param("html", ['<form action="/search?q=', '&page=', '&sort=name">x</form>'], id="query-ampersands"),
    pytest.param("html", ['<a href="/x?a=1&copy=1&reg=2&para=3">x</a>'], id="legacy-name-before-equals"),
    pytest.param("html", ["<p>AT&T, Q&A, R&D &amp; more</p>"], id="ampersand-in-text"),
    pytest.param("html", ["<p>&", " and &", "</p>"], id="ampersand-before-hole"),
    pytest.param("html", ["<p>a && b & c &= d</p>"], id="ampersand-operators"),
    # <template> contents in the insertion mode of their first element
    pytest.param("html", ["<template><tr><td>", "</td></tr></template>"], id="template-rows"),
    pytest.param("html", ["<table><tbody><template><tr><td>", "</td></tr></template></tbody></table>"],
                 id="template-in-table"),
    pytest.param("html", ["<template id=t><td>", "</td><td>x</td></template><template><li>a<li>b</template>"],
                 id="template-cells-and-items"),
    pytest.param("html", ["<template><template><col></template><tr><td>x</template>"], id="template-nested"),
    # head and body partials
    pytest.param("html", ['<head><meta charset="utf-8"><title>', '</title><link rel="stylesheet" href="/s.css">'
                          "</head>"], id="head-partial"),
    pytest.param("html", ['<body class="', '"><main>', "</main></body>"], id="body-partial"),
    pytest.param("html", ["<head><title>", "</title></head><body><p>", "</p></body>"], id="head-and-body"),
    # foreign content and namespaced attributes
    pytest.param("html", ['<svg viewBox="0 0 1 1"><use xlink:href="#', '"/><text xml:lang="',
                          '">x</text></svg>'], id="svg-namespaced-attributes"),
    pytest.param("html", ['<math><mi>', "</mi><annotation-xml encoding=\"text/html\"><p>x</p>"
                          "</annotation-xml></math>"], id="mathml"),
    # attributes that start with "on" without being event handlers; custom elements
    pytest.param("html", ['<x-status online-status="', '" only-mobile="', '" one="1"></x-status>'],
                 id="on-prefixed-attributes"),
    # attribute spreads right after a name or a quoted value; one tag-name expression, one element
    pytest.param("html", ['<a href="/u/', '"', ">x</a>"], id="spread-after-quoted-value"),
    pytest.param("html", ["<label", ">x</label>"], id="spread-after-name"),
    # e-mail tables, void elements, optional end tags
    pytest.param("html", ['<table width="100%" cellpadding=0><tr><td align=center bgcolor="', '"><img src="/l/',
                          '.png" width=1><br></table>'], id="email-table"),
    pytest.param("sql", ["SAVEPOINT sp1"], id="sqlite-savepoint"),
    pytest.param("sql", ["RELEASE SAVEPOINT sp1"], id="sqlite-release"),
    pytest.param("sql", ["REINDEX users"], id="sqlite-reindex"),
    pytest.param("sql", ["REPLACE INTO t (a, b) VALUES (", ", ", ")"], id="sqlite-replace"),
    pytest.param("sql", ["INSERT INTO t (a) VALUES (", ") ON CONFLICT (a) DO UPDATE SET b = excluded.b "
                         "RETURNING id"], id="sqlite-upsert-returning"),
    pytest.param("sql", ["CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE u SET n = n + 1 WHERE id = new.id;\n"
                         "  DELETE FROM v WHERE id = new.id;\nEND"], id="sqlite-trigger"),
    pytest.param("sql", ["EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = ", ""], id="sqlite-explain"),
    pytest.param("sql", ["WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ", ") "
                         "SELECT n, sum(n) OVER (ORDER BY n ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM c"],
                 id="sqlite-cte-window"),
]
CORRECT_IN = [
    pytest.param(["LISTEN jobs"], PG, id="pg-listen"),
    pytest.param(["UNLISTEN *"], PG, id="pg-unlisten"),
    pytest.param(["CALL process(", ", ", ")"], PG, id="pg-call"),
    pytest.param(["EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM t WHERE a = ", ""], PG, id="pg-explain"),
    pytest.param(["DECLARE c CURSOR FOR SELECT * FROM t WHERE a = ", ""], PG, id="pg-cursor"),
    pytest.param(["CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$"], PG, id="pg-function"),
    pytest.param(["INSERT INTO t (a) VALUES (", ") ON CONFLICT DO NOTHING RETURNING id"], PG, id="pg-upsert"),
    pytest.param(["CALL p(", ")"], MYSQL, id="mysql-call"),
    pytest.param(["EXECUTE stmt USING @a, @b"], MYSQL, id="mysql-execute"),
    pytest.param(["REPLACE INTO t (a) VALUES (", ")"], MYSQL, id="mysql-replace"),
    pytest.param(["BEGIN\n  UPDATE t SET a = 1 WHERE id = ", ";\n  COMMIT;\nEND;"], ORACLE, id="oracle-block"),
    pytest.param(["DECLARE\n  n NUMBER := ", ";\nBEGIN\n  INSERT INTO t VALUES (n);\nEND;"], ORACLE,
                 id="oracle-declare-block"),
]


@pytest.mark.parametrize(("language", "strings"), CORRECT)
def test_correct_code_is_left_alone(language: str, strings: list[str]) -> None:
    assert run(language, strings) == []


@pytest.mark.parametrize(("strings", "options"), CORRECT_IN)
def test_correct_sql_of_a_dialect_is_left_alone(strings: list[str], options: Options) -> None:
    assert run("sql", strings, options=options) == []


def test_one_tag_name_expression_is_one_element() -> None:
    """``<h{level}>...</h{level}>`` opens and closes one element: its holes are reported, nothing else."""
    strings = ["<div><h", ">", "</h", "></div>"]
    assert run("html", strings, ["level", "title", "level"]) == [("html.hole-name", "h0"), ("html.hole-name", "h2")]


REPORTED = [
    # what the spec still calls errors
    pytest.param("html", ["<p>&copy 2024 &chips; &#xZZ;</p>"], None,
                 [("html.reference", "s0:3"), ("html.reference", "s0:14"), ("html.reference", "s0:22")],
                 id="references"),
    pytest.param("html", ["<template><div>", "</template>"], None, [("html.unclosed", "s0:10")],
                 id="template-unclosed-div"),
    pytest.param("html", ["<table><tr><td>x</td></tr></div></table>"], None, [("html.end-tag", "s0:26")],
                 id="stray-end-tag-in-table-once"),
    # a hole in a namespaced attribute no longer stops the other checks of the template
    pytest.param("html", ['<svg><use xlink:href="', '"/></svg><b onclick="f(', ')">x</b>'], None,
                 [("html.hole-event", "h1")], id="namespaced-then-onclick"),
    pytest.param("html", ['<svg><a xlink:href="javascript:', '">x</a></svg>'], None,
                 [("html.hole-script-url", "h0")], id="svg-script-url"),
    pytest.param("html", ["<svg><script>var a = ", ";</script></svg>"], None, [("html.hole-raw-text", "h0")],
                 id="svg-script"),
    # positions: the missing space is at the character that follows the quote
    pytest.param("html", ['<a href="x"class="y">z</a>'], None, [("html.syntax", "s0:11")],
                 id="missing-space-position"),
    pytest.param("sql", ["SELECT * FROM t ORDER BY ", " ", ""], None,
                 [("sql.hole-identifier", "h0"), ("sql.hole-keyword", "h1")], id="order-by-sort-direction"),
    pytest.param("sql", ["INSERT INTO events_", " (a) VALUES (1)"], None, [("sql.hole-identifier", "h0")],
                 id="table-name-part"),
    pytest.param("sql", ["SELECT a AS ", " FROM t"], None, [("sql.hole-identifier", "h0")], id="column-alias"),
    pytest.param("sql", ["SELECT a, b, FROM t"], None, [("sql.syntax", "s0:13")], id="trailing-comma"),
    pytest.param("sql", ["SELECT * FORM users"], None, [("sql.syntax", "s0:9")], id="misspelt-from"),
    pytest.param("sql", ["SELECT 1 -- ", "\n"], None, [("sql.hole-comment", "h0")], id="line-comment"),
    pytest.param("css", ["p { color: ", "; margin: 0"], None, [("css.syntax", "s0:2")], id="css-unclosed-block"),
    pytest.param("toml", ["[t]\na = {b = 1, b = 2}\n"], None, [("data.duplicate-key", "s0:16")],
                 id="toml-inline-duplicate"),
]


@pytest.mark.parametrize(("language", "strings", "exprs", "expected"), REPORTED)
def test_reported(language: str, strings: list[str], exprs: list[str] | None,
                  expected: list[tuple[str, str]]) -> None:
    assert run(language, strings, exprs) == expected


@pytest.mark.parametrize(
    ("strings", "options", "expected"),
    [
        pytest.param(["SELECT /*+ INDEX(t ", ") */ * FROM t"], MYSQL, [("sql.hole-comment", "h0")],
                     id="mysql-hint"),
        pytest.param(["SELECT * FROM t WHERE a = ", " AND AND 1"], PG, [("sql.syntax", "s1:5")], id="pg-syntax"),
        pytest.param(["SELECT * FROM ", " ORDER BY ", ""], PG,
                     [("sql.hole-identifier", "h0"), ("sql.hole-identifier", "h1")], id="pg-names"),
        pytest.param(["SELEC 1"], MYSQL, [("sql.syntax", "s0:0")], id="mysql-misspelt-statement"),
    ],
)
def test_reported_in_a_dialect(strings: list[str], options: Options, expected: list[tuple[str, str]]) -> None:
    assert run("sql", strings, options=options) == expected


def test_sqlite_tells_a_syntax_error_from_a_missing_table() -> None:
    """No table exists where SQLite prepares the statement: that is no fault; a syntax error is."""
    assert run("sql", ["SELECT name FROM no_such_table WHERE x = ", ""]) == []
    assert run("sql", ["SELECT name FROM no_such_table WHERE x = = ", ""]) == [("sql.syntax", "s0:41")]


def test_sqlite_runs_nothing(tmp_path: object) -> None:
    """Preparing is all: a statement that would write a file or change the database does nothing."""
    import os

    target = os.path.join(str(tmp_path), "out.db")
    assert run("sql", [f"VACUUM INTO '{target}'"]) == []
    assert run("sql", [f"ATTACH DATABASE '{target}' AS other"]) == []
    assert not os.path.exists(target)


def test_the_direction_hole_keeps_the_column_holes_demand() -> None:
    """mypy asks for an identifier at ``ORDER BY {sort}`` even with ``{direction}`` after it."""
    if not HAVE["sql"]:
        pytest.skip("the sql parser is not installed")
    slots = [Slot("sort"), Slot("direction")]
    assert requirements("sql", ["SELECT * FROM t ORDER BY ", " ", ""], slots) == {0: "identifier"}


@pytest.mark.parametrize(
    ("strings", "expected"),
    [
        pytest.param(['<button hx-on:click="go(', ')" @click="f(', ')" :class="', '" x-cloak>x</button>'],
                     [("html.hole-framework-script", "h0"), ("html.hole-framework-script", "h1"),
                      ("html.hole-framework-script", "h2")], id="htmx-alpine-vue"),
        pytest.param(['<div x-data="{open: ', '}" v-if="', '" hx-get="/i/', '"></div>'],
                     [("html.hole-framework-script", "h0"), ("html.hole-framework-script", "h1")], id="directives"),
        pytest.param(['<a href="', '">x</a><a href="/u/', '">y</a>'], [("html.hole-whole-url", "h0")],
                     id="whole-url"),
    ],
)
def test_opt_in_script_attributes_and_urls(strings: list[str], expected: list[tuple[str, str]]) -> None:
    assert run("html", strings, options=OPT_IN) == expected
    assert run("html", strings) == []  # off unless asked for
