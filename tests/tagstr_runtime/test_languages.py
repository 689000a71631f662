"""The embedded-language checks as pure functions: a template's strings and holes in, findings out.

Each language has a "left alone" table (correct text, holes where they are
fine) and a "reported" table: ``(strings, slots)`` and the findings as
``(kind, place)``, ``place`` being ``"s<part>:<offset>"`` in the strings or
``"h<index>"`` for a hole.  The flake8 rules map these to the source
(tests/tagstr_flake8); here the checks are pinned where they are decided.
"""

from __future__ import annotations

import ast
import importlib.util
import os
from contextlib import contextmanager
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tagstr_runtime.analysis import embedded as languages
from tagstr_runtime.analysis.embedded import (
    EXTRAS, Finding, MissingParser, Options, Slot, canonical, check, requirements,
)
from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.embedded.declared import LanguageResolver
from tagstr_runtime.analysis.embedded.registry import reports
from tagstr_runtime.analysis.module import ModuleAnalysis


def have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


PARSERS = {"html": "html5lib", "sql": "sqlglot", "css": "tinycss2", "javascript": "tree_sitter_javascript",
           "yaml": "yaml", "json": "json", "toml": "tomllib"}


DEFAULTS = Options()


def run(language: str, strings: list[str], specs: list[str | None] | None = None,
        options: Options = DEFAULTS) -> list[tuple[str, str]]:
    if not have(PARSERS[language]):
        pytest.skip(f"{PARSERS[language]} is not installed")
    slots = [Slot(f"h{i}", None, spec) for i, spec in enumerate(specs or [None] * (len(strings) - 1))]
    return [(f.kind, place(f)) for f in check(language, strings, slots, options)]


def place(finding: Finding) -> str:
    return f"h{finding.hole}" if finding.hole is not None else f"s{finding.part}:{finding.offset}"


LEFT_ALONE = [
    pytest.param("html", ["<p>Hi ", "!<br>ok</p><img src='", "' alt=\"\">"], id="html-void-quoted"),
    pytest.param("html", ["<ul><li>", "<li>b</ul><DIV></div><p>a<p>b"], id="html-optional-end-case"),
    pytest.param("html", ["<table><tr><td>", "<td>2</table>"], id="html-table"),
    pytest.param("html", ["<tr><td>", "</td></tr>"], id="html-row-fragment"),
    pytest.param("html", ["<div ", ">x</div>"], id="html-attribute-spread"),
    pytest.param("html", ["<!DOCTYPE html><html><head><title>", "</title></head><body><p>x</body></html>"],
                 id="html-document"),
    pytest.param("html", ["<textarea>", "</textarea><a href=\"/u/", "?q=", "\">x</a>"], id="html-rcdata-url"),
    pytest.param("sql", ["SELECT * FROM users WHERE id = ", " AND name = ", ""], id="sql-values"),
    pytest.param("sql", ["SELECT ", " FROM ", " WHERE id = ", ""], id="sql-declared-identifiers"),
    pytest.param("sql", ["INSERT INTO t (a, b) VALUES (", ", ", ") RETURNING id"], id="sql-insert"),
    pytest.param("sql", ["SELECT * FROM t WHERE a LIKE ", " LIMIT ", ";"], id="sql-like-param"),
    pytest.param("sql", ["SELECT * FROM t WHERE ", ""], id="sql-snippet-hole"),
    pytest.param("css", ["p { color: ", "; margin: 0 }"], id="css-value"),
    pytest.param("css", ["color: ", "; width: ", "px"], id="css-declarations"),
    pytest.param("javascript", ["const x = ", "; f(x ?? ", ", a?.b);"], id="js-values"),
    pytest.param("json", ['{"id": ', ', "tags": [', ', "a ', '"]}'], id="json-values"),
    pytest.param("yaml", ["id: ", "\nname: 'a ", "'\n"], id="yaml-values"),
    pytest.param("toml", ["id = ", "\nname = \"", "\"\n[s]\nport = ", "\n"], id="toml-values"),
]
SPECS = {"sql-declared-identifiers": [" i", "i", None], "sql-snippet-hole": ["q"]}


@pytest.mark.parametrize(("language", "strings"), LEFT_ALONE)
def test_left_alone(language: str, strings: list[str], request: pytest.FixtureRequest) -> None:
    specs = SPECS.get(request.node.callspec.id)
    assert run(language, strings, specs) == []


REPORTED = [
    ("html", ["<div><span>", "</div>"], None, [("html.end-tag", "s1:0")]),
    ("html", ["</span><p>x"], None, [("html.end-tag", "s0:0")]),
    ("html", ["<div>\n<p>", ""], None, [("html.unclosed", "s0:0")]),
    ("html", ['<p class="a" class="b">x</p>'], None, [("html.duplicate-attribute", "s0:13")]),
    ("html", ['<a href="x>'], None, [("html.syntax", "s0:11")]),
    ("html", ["&foo; &#xZZ; &amp"], None,
     [("html.reference", "s0:0"), ("html.reference", "s0:6"), ("html.reference", "s0:13")]),
    ("html", ["<input value=", ">"], None, [("html.hole-unquoted", "h0")]),
    ("html", ["<", ">x</", ">"], None, [("html.hole-name", "h0"), ("html.hole-name", "h1")]),
    ("html", ["<p data-", "=1>x</p>"], None, [("html.hole-name", "h0")]),
    ("html", ["<script>var x = ", ";</script>"], None, [("html.hole-raw-text", "h0")]),
    ("html", ["<style>p { color: ", " }</style>"], None, [("html.hole-raw-text", "h0")]),
    ("html", ["<!-- ", " -->"], None, [("html.hole-comment", "h0")]),
    ("html", ['<b onclick="f(', ')">x</b>'], None, [("html.hole-event", "h0")]),
    ("html", ['<a href=" JavaScript:', '">x</a>'], None, [("html.hole-script-url", "h0")]),
    ("sql", ["SELEC * FROM users WHERE id = ", ""], None, [("sql.syntax", "s0:0")]),
    ("sql", ["SELECT * FROM t WHERE (a = ", ""], None, [("sql.syntax", "s1:0")]),
    ("sql", ["SELECT * FROM t WHERE a = 'x"], None, [("sql.syntax", "s0:26")]),
    ("sql", ["SELECT * FROM ", " ORDER BY ", ""], None,
     [("sql.hole-identifier", "h0"), ("sql.hole-identifier", "h1")]),
    ("sql", ["UPDATE t SET ", " = 1"], None, [("sql.hole-identifier", "h0")]),
    ('sql', ['SELECT "', '" FROM t'], None, [("sql.hole-identifier", "h0")]),
    ("sql", ["SELECT * FROM t ORDER BY a ", ""], None, [("sql.hole-keyword", "h0")]),
    ("sql", ["SELECT * FROM t WHERE a = '", "'"], None, [("sql.hole-literal", "h0")]),
    ("sql", ["SELECT * FROM t WHERE a LIKE '%", "%'"], None, [("sql.hole-literal", "h0")]),
    ("sql", ["SELECT 1 -- ", "\n"], None, [("sql.hole-comment", "h0")]),
    ("sql", ["SELECT 1 /* ", " */"], None, [("sql.hole-comment", "h0")]),
    ("sql", ["SELECT ", "", ""], None, [("sql.adjacent", "h1")]),
    ("sql", ["SELECT 1; SELECT 2"], None, [("sql.statements", "s0:10")]),
    ("css", ["p { color red; margin: 0 }"], None, [("css.syntax", "s0:4")]),
    ("css", [".", " > li { margin: 0 }"], None, [("css.hole-selector", "h0")]),
    ("javascript", ["if (x {"], None, [("js.syntax", "s0:7")]),
    ("javascript", ["const s = 'a ", "';"], None, [("js.hole-string", "h0")]),
    ("json", ['{"a": ', ', "a": 2}'], None, [("data.duplicate-key", "s1:2")]),
    ("json", ['{"a": 1 "b": 2}'], None, [("data.syntax", "s0:8")]),
    ("json", ["{", ": 1}"], None, [("data.hole-key", "h0")]),
    ("yaml", ["a: ", "\nb: 1\na: 2\n"], None, [("data.duplicate-key", "s1:6")]),
    ("yaml", ["", ": 1\n"], None, [("data.hole-key", "h0")]),
    ("yaml", ["a: [1, 2\nb: 3\n"], None, [("data.syntax", "s0:10")]),
    ("toml", ["a = ", "\na = 2\n"], None, [("data.duplicate-key", "s1:1")]),
    ("toml", ["a = \n"], None, [("data.syntax", "s0:4")]),
    ("toml", ["", " = 1\n"], None, [("data.hole-key", "h0")]),
]


@pytest.mark.parametrize(("language", "strings", "specs", "expected"), REPORTED,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(REPORTED)])
def test_reported(language: str, strings: list[str], specs: list[str | None] | None,
                  expected: list[tuple[str, str]]) -> None:
    assert run(language, strings, specs) == expected


def test_strict_html_is_opt_in() -> None:
    strings = ["<ul><li>a<li>b</ul><DIV></div><p>x"]
    assert run("html", strings) == []
    assert run("html", strings, options=Options(html_strict=True)) == [
        ("html.strict", "s0:4"), ("html.strict", "s0:9"), ("html.strict", "s0:24"), ("html.strict", "s0:30"),
    ]


def test_sql_dialect() -> None:
    assert run("sql", ["SELECT TOP 5 a FROM t"]) != []
    assert run("sql", ["SELECT TOP 5 a FROM t"], options=Options(sql_dialect="tsql")) == []


def test_language_names() -> None:
    assert [canonical(n) for n in ("HTML", "js", "yml", "JavaScript", "cobol")] == [
        "html", "javascript", "yaml", "javascript", None]
    with pytest.raises(ValueError, match="unknown language"):
        check("cobol", [""], [])
    with pytest.raises(ValueError, match="one more string"):
        check("html", ["", ""], [])


def test_missing_parser_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def no_tinycss2(name: str, package: str | None = None) -> object:
        if name.endswith(".css"):
            raise ImportError("No module named 'tinycss2'", name="tinycss2")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_tinycss2)
    monkeypatch.setattr(languages, "_CHECKERS", {})
    with pytest.raises(MissingParser) as caught:
        check("css", ["p {}"], [])
    assert caught.value.extra == EXTRAS["css"] == "css"
    assert "pip install 'tagstr-toolkit[css]'" in str(caught.value)


DECLARATIONS = '''
from typing import Annotated, TypeAlias
import typing as t
from tagstr_runtime import Decoded, Interpolation, accepts_template, languages
from tagstr_runtime.languages import HTML, SQL as Q
import tagstr_runtime.languages

def a(*args: Annotated[Decoded | Interpolation, "html"]): ...
def b(*args: "Annotated[Decoded, 'SQL']"): ...
def c(*args: t.Annotated[Decoded, Q]): ...
def d(template: Annotated[object, languages.CSS]): ...
def e(template: Annotated[object, tagstr_runtime.languages.TOML] | None): ...
Alias = Annotated[Decoded, "yml"]
Other: TypeAlias = Alias
def f(*args: Other): ...
class Marker:
    tstring_language: str = "json"
def g(*args: Annotated[Decoded, Marker()]): ...
class Tag:
    def __call__(self, *args: Annotated[Decoded, "js"]): ...
h = Tag()
class I:
    def __init__(self, *args: Annotated[Decoded, HTML]): ...
j = accepts_template(a)
def k(*args): ...
k.tstring_language = "sql"
def n(*args: Annotated[Decoded, "cobol"]): ...
def o(*args: Annotated[Decoded, "not an annotation ("]): ...
def p(self, *args: Decoded): ...
loop1 = loop2
loop2 = loop1
'''


@pytest.mark.parametrize(("name", "language"), [
    ("a", "html"), ("b", "sql"), ("c", "sql"), ("d", "css"), ("e", "toml"), ("f", "yaml"), ("g", "json"),
    ("h", "javascript"), ("I", "html"), ("j", "html"), ("k", "sql"), ("n", None), ("o", None), ("p", None),
    ("loop1", None), ("missing", None),
])
def test_declared_language(name: str, language: str | None) -> None:
    """The name read at the end of the module: its definition, found by the tag resolver, says."""
    module = ModuleAnalysis.read(DECLARATIONS + f"{name}\n")
    read = module.tree.body[-1]  # type: ignore[attr-defined]
    assert isinstance(read, ast.Expr) and isinstance(read.value, ast.Name)
    assert LanguageResolver(TagResolver()).language(module, read.value) == language


_PIECES = [*"<>/=\"'&;#x{}[]():,.-_ \n\t\r\x00\\`$*%aZ09é\U0001F600", "<div>", "</div>", "<script>", "<!--",
           "-->", "SELECT", "FROM", "WHERE", "--", "/*", "*/", "{{", "}}", "@media", "key: ", "- ", "[t]",
           "= ", "<!DOCTYPE html>", "<table>", "<tr>", "<td>", "&amp;", "&#x", "javascript:", "onclick=",
           "<svg>", "<select>", "<option>"]


@settings(max_examples=300, deadline=None)
@given(
    language=st.sampled_from(sorted(PARSERS)),
    strings=st.lists(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join), min_size=1, max_size=4),
    spec=st.sampled_from([None, "i", "q", "", ">10"]),
    dialect=st.sampled_from(["sqlite", "postgres", "mysql", "oracle"]),
)
def test_any_text_gives_findings_in_range(language: str, strings: list[str], spec: str | None, dialect: str) -> None:
    """Odd text never raises from our code, every finding is of a registered kind, and names a
    place that exists."""
    if not have(PARSERS[language]):
        return
    slots = [Slot("x", None, spec)] * (len(strings) - 1)
    with _lenient():  # a parser's own bug (sqlglot on "{= x") is contained: TAG901, not re-raised
        found = check(language, strings, slots, Options(sql_dialect=dialect, html_strict=True, html_opt_in=True))
    known = reports()
    for finding in found:
        assert finding.kind in known
        if finding.hole is None:
            assert 0 <= finding.part < len(strings) and 0 <= finding.offset <= len(strings[finding.part])
        else:
            assert 0 <= finding.hole < len(slots)


@contextmanager
def _lenient() -> Iterator[None]:
    saved = os.environ.pop("TAGSTR_STRICT", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["TAGSTR_STRICT"] = saved


# -- a tag string's language, shared by the tag strings that read one binding ----------------------

SCOPES = '''
from typing import Annotated
def html(*args: Annotated[object, "html"]): ...
def sql(*args: Annotated[object, "sql"]): ...
def plain(*args): ...
a = html"<p></p>"  # html
def f(html=sql):
    return html"x"  # None: a parameter
def g():
    html = sql
    return html"x"  # sql
def h():
    return [html"{x}" for html in (sql,)]  # None: the comprehension's
def k(x):
    return html"{[html'y' for html in (sql,)]}"  # html
class C:
    def m(self):
        return html"x"  # html
    css = html"<b></b>"  # html
def later():
    return plain"x"  # None: bound twice at module level, the last is read
def deco(x):
    return x
@deco(sql"x")  # sql
def j():
    def inner():
        return sql"x"  # html: j's local
    sql = html
    return inner
def glob():
    global sql
    sql = plain
    return sql"x"  # None: sql bound twice at module level
plain = html
def typed():
    return plain"x"  # html: the binding before it
'''


def test_site_language_is_the_resolvers_answer() -> None:
    """The shared answer (``site_language``) is the tag resolver's for each tag string."""
    module = ModuleAnalysis.read(SCOPES)
    resolver = LanguageResolver(TagResolver())
    expected = {}
    for number, line in enumerate(SCOPES.splitlines(), 1):
        if "# " in line and '"' in line.partition("#")[0]:
            word = line.partition("# ")[2].split(":")[0].split()[0]
            expected[number] = None if word == "None" else word
    found = {}
    for site in module.sites:
        fresh = LanguageResolver(TagResolver()).language(module, site.name)
        assert resolver.site_language(module, site) == fresh, site
        if site.parent is None:
            found[site.name.lineno] = fresh
    assert found == expected


# -- what a hole's context asks of its value's type (the mypy plugin checks it) ----------------------


@pytest.mark.parametrize(
    ("language", "strings", "specs", "expected"),
    [
        pytest.param("sql", ["SELECT * FROM ", " WHERE id = ", ""], [None, None], {0: "identifier"}, id="table"),
        pytest.param("sql", ["SELECT ", " FROM ", ""], [None, "i"], {1: "identifier"}, id="declared-i"),
        pytest.param("sql", ["SELECT * FROM t ORDER BY ", ""], [None], {0: "identifier"}, id="order-by"),
        pytest.param("sql", ['SELECT "', '" FROM t'], [None], {0: "identifier"}, id="quoted-name"),
        pytest.param("sql", ["SELECT * FROM t WHERE a = ", " AND b LIKE ", ""], [None, None], {}, id="values"),
        pytest.param("sql", ["SELECT * FROM t WHERE a = '", "'"], [None], {}, id="in-a-literal"),
        pytest.param("html", ["<div ", " class='a'>x</div>"], [None], {0: "attributes"}, id="spread"),
        pytest.param("html", ["<div class='", "'>", "</div>"], [None, None], {}, id="value-and-text"),
        pytest.param("html", ["<div data-", "=1>x</div>"], [None], {}, id="part-of-a-name"),
        pytest.param("css", ["p { color: ", " }"], [None], {}, id="css-asks-nothing"),
        pytest.param("json", ["[", "]"], [None], {}, id="json-asks-nothing"),
    ],
)
def test_requirements(language: str, strings: list[str], specs: list[str | None], expected: dict[int, str]) -> None:
    if not have(PARSERS[language]):
        pytest.skip(f"{PARSERS[language]} is not installed")
    slots = [Slot("x", None, spec) for spec in specs]
    assert requirements(language, strings, slots) == expected


def test_site_language_keeps_modules_apart() -> None:
    """One resolver for two modules binding a tag's name to different declarations."""
    resolver = LanguageResolver(TagResolver())
    for language in ("html", "sql", "css"):
        module = ModuleAnalysis.read(
            f'from typing import Annotated\ndef tag(*args: Annotated[object, "{language}"]): ...\n'
            'def view():\n    return tag"x"\n'
        )
        [site] = module.sites
        assert resolver.site_language(module, site) == language
