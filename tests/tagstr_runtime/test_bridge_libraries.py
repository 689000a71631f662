"""The bridge with real template libraries and backports (dependency group ``bridge``).

Before 3.14 each library checks for a ``Template`` class of its own choosing:
``tstrings-backport``'s (``tstrings.Template``, what users install),
``tstr``'s and ``sql-tstring``'s own backports.  Each class is built from the
arguments of the same tag string and compared, attribute by attribute, with
the default ``Template`` (3.14's own on 3.14, checked against ``t"..."`` in
``test_bridge.py``).  Then each library runs behind ``template_tag``, and the
examples' ``@accepts_template`` tags take each library's templates.  On 3.14
(the pyodide env) tdom too: a pure-Python wheel that needs 3.14.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation, accepts_template, as_tag_args, template_tag, to_template
from tagstr_runtime.templatelib import Template

PY314 = sys.version_info >= (3, 14)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

NAMES = {"x": 1, "w": 5, "s": "é<b>", "b": "\\"}

BODIES = [
    pytest.param('""', id="empty"),
    pytest.param('"plain"', id="literal only"),
    pytest.param('"a{x}{w}b"', id="adjacent fields"),
    pytest.param('"{x!r}{x!s:>3}{x!a}"', id="conversions"),
    pytest.param('"a{x=}b{x=:>4}"', id="debug"),
    pytest.param('"{x:{w}.{w}}"', id="nested spec fields"),
    pytest.param('"<i>{x:\\x3e10}</i>{x:{b}\\x3e{w}}"', id="spec escapes"),
    pytest.param('"{{x}} caf\\u00e9 {s}"', id="braces, escapes, non-ASCII"),
]


def run(expression: str, **names: Any) -> Any:
    return eval(tagstr_runtime.compile(expression, "<test>", "eval"), {**NAMES, **names})


def tag_args(body: str) -> tuple[Any, ...]:
    return tuple(run("args" + body, args=lambda *args: args))


def backport(name: str) -> type[Any]:
    """The class a library checks for; the test is skipped where it does not install."""
    if name == "sql_tstring.t.Template" and sys.version_info < (3, 12):
        pytest.skip("sql-tstring needs Python 3.12+")
    module_name, _, class_name = name.rpartition(".")
    module = pytest.importorskip(module_name)
    return getattr(module, class_name)  # type: ignore[no-any-return]


def fields(template: Any) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    """What a library reads: the strings and each interpolation's four attributes."""
    if hasattr(template, "strings"):
        return tuple(template.strings), [
            (i.value, i.expression, i.conversion, i.format_spec) for i in template.interpolations
        ]
    strings, interpolations = [""], []  # sql-tstring's: parts, and expr/conv attributes
    for item in template:
        if isinstance(item, str):
            strings[-1] += item
        else:
            interpolations.append((item.value, item.expr, item.conv, item.format_spec))
            strings.append("")
    return tuple(strings), interpolations


BACKPORTS = ["tstrings.Template", "tstr.Template", "sql_tstring.t.Template"]


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("name", BACKPORTS)
def test_each_backport_holds_what_the_standard_template_holds(name: str, body: str) -> None:
    cls = backport(name)
    built = to_template(*tag_args(body), template_type=cls)
    assert type(built) is cls
    assert fields(built) == fields(to_template(*tag_args(body)))
    identity = template_tag(lambda template: template, template_type=cls)
    assert fields(run("tag" + body, tag=identity)) == fields(built)


@pytest.mark.parametrize("name", BACKPORTS)
def test_a_template_of_another_class_is_converted_on_the_way_in(name: str) -> None:
    cls = backport(name)
    theirs = to_template(*tag_args('"a{x!r:>{w}}b"'), template_type=cls)
    received: list[Any] = []
    ours = template_tag(received.append)
    ours(theirs)
    assert type(received[0]) is Template and fields(received[0]) == fields(theirs)
    back = template_tag(received.append, template_type=cls)
    back(received[0])
    assert type(received[1]) is cls and fields(received[1]) == fields(theirs)
    back(theirs)
    assert received[2] is theirs  # the class asked for passes straight through
    if cls is not Template:  # tstr's on 3.14
        assert repr(back).endswith(f", template_type={cls.__module__}.{cls.__qualname__})")


def test_tstrings_backport_templates_reach_decorated_tags() -> None:
    """Code that builds templates with tstrings-backport's ``t()`` (it evaluates in the caller's scope)."""
    tstrings = pytest.importorskip("tstrings")
    x, w = 1, 5  # noqa: F841 - read by t()
    template = tstrings.t("a{x!r:>3}b{w}")
    show = accepts_template(lambda *args: [(a, a.raw) if isinstance(a, Decoded) else a[1:] for a in args])
    assert show(template) == [("a", "a"), ("x", "r", ">3"), ("b", "b"), ("w", None, None)]
    got = as_tag_args(template)
    assert [arg.getvalue() for arg in got if isinstance(arg, Interpolation)] == [1, 5]


def example(name: str) -> types.ModuleType:
    path = EXAMPLES / f"{name}.py"
    module = types.ModuleType(f"tagstr_bridge_example_{name}")
    module.__file__ = str(path)
    exec(tagstr_runtime.compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("name", BACKPORTS)
def test_the_examples_tags_take_every_backport_s_templates(name: str) -> None:
    cls = backport(name)
    html, sql = example("html"), example("sql")
    body = '"<p>{s}</p><td>{x:>{w}.1f}</td>{s!r}"'
    template = to_template(*tag_args(body), template_type=cls)
    assert html.html(template) == run("html" + body, html=html.html) == (
        "<p>é&lt;b&gt;</p><td>  1.0</td>&#x27;é&lt;b&gt;&#x27;"
    )
    query = '"SELECT * FROM {s:id} WHERE a = {s} AND b = {x:03d}"'
    assert sql.sql(to_template(*tag_args(query), template_type=cls)) == run("sql" + query, sql=sql.sql) == (
        sql.Query('SELECT * FROM "é<b>" WHERE a = ? AND b = ?', ("é<b>", "001"))
    )


@pytest.mark.parametrize("name", ["html", "sql"])
def test_the_examples_tags_name_what_they_cannot_take(name: str) -> None:
    """Never ``HTML('')`` or an empty query: an unknown object is a TypeError naming its class."""
    import string

    tag = getattr(example(name), name)
    with pytest.raises(TypeError, match=f"^{name} takes .* not string.Template$"):
        tag(string.Template("$x"))


def test_tstr_renders_tag_strings() -> None:
    tstr = pytest.importorskip("tstr")
    render = template_tag(tstr.render, template_type=tstr.Template)
    x, w, s = NAMES["x"], NAMES["w"], NAMES["s"]
    assert run('render"a{s!r:>9}{x=}{w:\\x3e3}"', render=render) == f"a{s!r:>9}{x=}{w:\x3e3}"
    if not PY314:  # the stand-in, tagstr's default, is not tstr's class: say so in the docs
        with pytest.raises(TypeError, match="Expected Template, got Template"):
            run('render"{x}"', render=template_tag(tstr.render))


def test_sql_tstring_builds_queries_from_tag_strings() -> None:
    cls = backport("sql_tstring.t.Template")
    import sql_tstring

    sql = template_tag(sql_tstring.sql, template_type=cls)
    name, age = "x'; DROP TABLE users; --", 30
    got = run('sql"SELECT * FROM users WHERE name = {name} AND age > {age}"', sql=sql, name=name, age=age)
    expected = sql_tstring.sql("SELECT * FROM users WHERE name = {name} AND age > {age}", {"name": name, "age": age})
    assert got == expected == ("SELECT * FROM users WHERE name = ? AND age > ?", [name, age])
    if not PY314:  # the stand-in, tagstr's default, is not sql-tstring's class: say so in the docs
        with pytest.raises(ValueError, match="Must call with a template"):
            run('sql"SELECT {x}"', sql=template_tag(sql_tstring.sql))


@pytest.mark.skipif(not PY314, reason="tdom needs Python 3.14")
def test_tdom_renders_tag_strings_as_it_renders_t_strings() -> None:
    tdom = pytest.importorskip("tdom")
    html = template_tag(tdom.html)
    names = {"n": 5, "user": "<Ann>", "html": html, "tdom": tdom}
    bodies = ('"<i>{n:\\x3e10}</i>"', '"<p class={user}>{user!r}</p>"', '"<ul>{[tdom.html(t\'<li>{n}</li>\')]}</ul>"')
    for body in bodies:
        assert str(run("html" + body, **names)) == str(run("tdom.html(t" + body + ")", **names))
    assert str(run('html"<i>{n:\\x3e10}</i>"', **names)) == "<i>         5</i>"


def test_messages_name_the_class_received() -> None:
    with pytest.raises(TypeError, match="^a tag takes Decoded and Interpolation arguments .*, not int$"):
        template_tag(len)(Decoded("a"), 3)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="^as_tag_args\\(\\) takes a template, not string.Template$"):
        import string

        as_tag_args(string.Template("$x"))
    with pytest.raises(TypeError, match="^template_type: the bridge builds string.templatelib.Template, .*; not int$"):
        template_tag(len, template_type=int)
    with pytest.raises(TypeError, match="^a tag takes Decoded and Interpolation arguments .*, not int$"):
        template_tag(len)(3)  # type: ignore[call-overload]


class Duck:
    """A template class the bridge does not know, with 3.14's attributes."""

    def __init__(self, strings: tuple[str, ...], interpolations: tuple[Any, ...]) -> None:
        self.strings, self.interpolations = strings, interpolations


def test_any_object_with_3_14_s_attributes_is_read_as_a_template() -> None:
    one = types.SimpleNamespace(value=1, expression="x", conversion="r", format_spec=">3")
    show = accepts_template(lambda *args: [a if isinstance(a, Decoded) else a[1:] for a in args])
    assert show(Duck(("a", ""), (one,))) == ["a", ("x", "r", ">3")]
    converted = template_tag(lambda template: template)(Duck(("a", ""), (one,)))
    assert type(converted) is Template and fields(converted) == (("a", ""), [(1, "x", "r", ">3")])
    with pytest.raises(TypeError, match=r"^[\w.]*\bDuck has 'strings' and 'interpolations' but"):
        show(Duck(("a", ""), (object(),)))
    with pytest.raises(TypeError, match=r"^[\w.]*\bDuck is not a template: it needs one more string"):
        show(Duck(("a",), (one,)))
