"""The bridge to template strings (``template_tag``, ``accepts_template``) end to end.

The table below is what CPython 3.14 builds for ``t"..."``: on 3.14 (the
pyodide env) every row is also compared with a native t-string of the same
body, on 3.11-3.13 with the recorded structure and the stand-in
``Template``.  Bodies are written once and evaluated as ``tt"..."`` (a tag
from ``template_tag``) and, on 3.14, as ``t"..."``.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation, accepts_template, template_tag
from tagstr_runtime.templatelib import NATIVE, Template
from tagstr_runtime.templatelib import Interpolation as TemplateInterpolation

PY314 = sys.version_info >= (3, 14)

NAMES = {"x": 1, "w": 5, "s": "é<b>", "items": [1, 2], "b": "\\"}


def identity(template: Template) -> Template:
    return template


def run(expression: str, **names: Any) -> Any:
    namespace: dict[str, Any] = {**NAMES, "tt": template_tag(identity), "rtt": template_tag(identity, raw=True),
                                 **names}
    return eval(tagstr_runtime.compile(expression, "<test>", "eval"), namespace)


def structure(template: Template) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    assert type(template) is Template
    for text in template.strings:
        assert type(text) is str
    return template.strings, [
        (i.value, i.expression, i.conversion, i.format_spec) for i in template.interpolations
    ]


# body, strings, interpolations as (value, expression, conversion, format_spec): 3.14's results
SAME_AS_314 = [
    pytest.param('""', ("",), [], id="empty"),
    pytest.param('"plain"', ("plain",), [], id="literal only"),
    pytest.param('"{x}"', ("", ""), [(1, "x", None, "")], id="field only"),
    pytest.param('"a{x}{w}b"', ("a", "", "b"), [(1, "x", None, ""), (5, "w", None, "")], id="adjacent fields"),
    pytest.param('"{x!r}{x!s}{x!a}"', ("", "", "", ""),
                 [(1, "x", "r", ""), (1, "x", "s", ""), (1, "x", "a", "")], id="conversions"),
    pytest.param('"{x:>3}"', ("", ""), [(1, "x", None, ">3")], id="spec"),
    pytest.param('"{x:}"', ("", ""), [(1, "x", None, "")], id="empty spec"),
    pytest.param('"{x:{w}.{w}}"', ("", ""), [(1, "x", None, "5.5")], id="nested spec fields"),
    pytest.param('"{x!s:>{w!r}}"', ("", ""), [(1, "x", "s", ">5")], id="conversion and nested spec"),
    pytest.param('"a{x=}b"', ("ax=", "b"), [(1, "x", "r", "")], id="debug"),
    pytest.param('"{x=!s}"', ("x=", ""), [(1, "x", "s", "")], id="debug with conversion"),
    pytest.param('"{x=:>3}"', ("x=", ""), [(1, "x", None, ">3")], id="debug with spec"),
    pytest.param('"{x =}"', ("x =", ""), [(1, "x", "r", "")], id="debug keeps its whitespace"),
    pytest.param('"{x + 1 }"', ("", ""), [(2, "x + 1", None, "")], id="trailing whitespace dropped"),
    pytest.param('"{x # note\n}"', ("", ""), [(1, "x", None, "")], id="trailing comment dropped"),
    pytest.param('"{{x}}"', ("{x}",), [], id="doubled braces"),
    pytest.param('"caf\\u00e9 \\n\\d"', ("café \n\\d",), [], id="cooked text"),
    pytest.param('"{s}"', ("", ""), [("é<b>", "s", None, "")], id="non-ASCII value"),
    pytest.param('"{items[0]}{items["k" == "k"]}"', ("", "", ""),
                 [(1, "items[0]", None, ""), (2, 'items["k" == "k"]', None, "")], id="nested quotes"),
    pytest.param("'''a\n{x}\nb'''", ("a\n", "\nb"), [(1, "x", None, "")], id="triple-quoted"),
    # format specs with escapes: processed as in t"..." (a tag receives them as written, SPEC 3)
    pytest.param('"<i>{x:\\x3e10}</i>"', ("<i>", "</i>"), [(1, "x", None, ">10")], id="spec: hex escape"),
    pytest.param('"{x:\\u003e3}{x:\\0763}"', ("", "", ""), [(1, "x", None, ">3"), (1, "x", None, ">3")],
                 id="spec: unicode and octal escapes"),
    pytest.param('"{x:\\t}"', ("", ""), [(1, "x", None, "\t")], id="spec: tab"),
    pytest.param('"{x:\\\\>3}"', ("", ""), [(1, "x", None, "\\>3")], id="spec: escaped backslash"),
    pytest.param('"{x:\\\n>3}"', ("", ""), [(1, "x", None, ">3")], id="spec: line continuation"),
    pytest.param('"{x:{w}\\x3e{w}}"', ("", ""), [(1, "x", None, "5>5")], id="spec: escape between nested fields"),
    pytest.param('"{x:{b}\\x3e{w}}"', ("", ""), [(1, "x", None, "\\>5")],
                 id="spec: a nested field's backslash is a value, never an escape"),
    pytest.param('"{x:{w=}\\x3e}"', ("", ""), [(1, "x", None, "w=5>")], id="spec: debug field then an escape"),
    pytest.param('"a{x=:\\x3e3}"', ("ax=", ""), [(1, "x", None, ">3")], id="spec: debug field with an escape"),
    pytest.param('"{x!r:\\x3e{w!s:>2}}"', ("", ""), [(1, "x", "r", "> 5")], id="spec: conversion, nested spec"),
    pytest.param('"\\x41{x:\\x3e3}\\x42"', ("A", "B"), [(1, "x", None, ">3")], id="spec and body escapes"),
]


@pytest.mark.parametrize(("body", "strings", "interpolations"), SAME_AS_314)
def test_template_tag_builds_what_a_t_string_builds(
    body: str, strings: tuple[str, ...], interpolations: list[tuple[Any, ...]]
) -> None:
    assert structure(run("tt" + body)) == (strings, interpolations)
    if PY314:
        assert structure(run("t" + body)) == (strings, interpolations)


# raw=True builds what rt"..." builds: every text as written (braces collapsed)
SAME_AS_314_RAW = [
    pytest.param('"a{x}b"', ("a", "b"), [(1, "x", None, "")], id="plain"),
    pytest.param('"caf\\u00e9 \\n\\d{x}"', ("caf\\u00e9 \\n\\d", ""), [(1, "x", None, "")], id="body escapes"),
    pytest.param('"{{x}}\\N{{BULLET}}"', ("{x}\\N{BULLET}",), [], id="braces and \\N"),
    pytest.param('"<i>{x:\\x3e10}</i>"', ("<i>", "</i>"), [(1, "x", None, "\\x3e10")], id="spec escape"),
    pytest.param('"{x:{b}\\x3e{w}}"', ("", ""), [(1, "x", None, "\\\\x3e5")], id="spec escape and nested fields"),
    pytest.param('"\\t{x=!s:\\x3e3}"', ("\\tx=", ""), [(1, "x", "s", "\\x3e3")], id="debug, conversion, spec"),
    pytest.param('"{x:{w=}\\t}"', ("", ""), [(1, "x", None, "w=5\\t")], id="nested debug field"),
]


@pytest.mark.parametrize(("body", "strings", "interpolations"), SAME_AS_314_RAW)
def test_a_raw_template_tag_builds_what_an_rt_string_builds(
    body: str, strings: tuple[str, ...], interpolations: list[tuple[Any, ...]]
) -> None:
    assert structure(run("rtt" + body)) == (strings, interpolations)
    assert structure(tagstr_runtime.to_template(*run("args" + body, args=lambda *a: a), raw=True)) == (
        strings, interpolations
    )
    if PY314:
        assert structure(run("rt" + body)) == (strings, interpolations)


def test_a_spec_a_t_string_rejects_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError) as caught:
        run('tt"{x:\\x4}"')
    assert str(caught.value) == """{x}: format spec '\\\\x4': truncated \\xXX escape (t"..." rejects it)"""
    assert structure(run('rtt"{x:\\x4}"')) == (("", ""), [(1, "x", None, "\\x4")])
    if PY314:  # 3.14 rejects it when compiling (a UnicodeDecodeError, a ValueError)
        with pytest.raises((SyntaxError, ValueError)):
            run('t"{x:\\x4}"')


def test_a_tag_receives_specs_as_written_whatever_the_bridge_builds() -> None:
    """SPEC 3: a spec with an escape reaches a tag as written, a ``str`` equal to its source text."""
    args = run('args"{x:\\x3e3}{x:{w}\\t}"', args=lambda *a: a)
    assert [arg.format_spec for arg in args] == ["\\x3e3", "5\\t"]
    assert all(isinstance(arg.format_spec, str) for arg in args)
    again = pickle.loads(pickle.dumps(args[0].format_spec))
    assert again == "\\x3e3"
    assert structure(tagstr_runtime.to_template(Interpolation((lambda: 1, "x", None, again)))) == (
        ("", ""), [(1, "x", None, ">3")]
    )


MODULE = """
x = 1
at_module_level = tt"{x:\\x3e3}"
def in_a_function(w):
    return tt"{x:\\x3e3}{x:{w}\\x3e}"
"""


def test_spec_escapes_in_modules_and_functions() -> None:
    """The exec form: an interpolation built once by the module's prologue, and one per call."""
    namespace: dict[str, Any] = {"tt": template_tag(identity)}
    exec(tagstr_runtime.compile(MODULE, "<test>", "exec"), namespace)
    assert structure(namespace["at_module_level"]) == (("", ""), [(1, "x", None, ">3")])
    assert structure(namespace["in_a_function"](7)) == (("", "", ""), [(1, "x", None, ">3"), (1, "x", None, "7>")])


def test_a_nested_field_s_spec_is_formatted_as_written_by_the_tag_string() -> None:
    """Before the tag runs (SPEC 3, 4): its escape is not processed, where 3.14 processes it
    (docs/python314.md; the migration keeps such a tag string, MIG010)."""
    with pytest.raises(ValueError, match="Invalid format specifier"):
        run('tt"{x:{w:\\x3e2}}"')
    if PY314:
        assert structure(run('t"{x:{w:\\x3e2}}"')) == (("", ""), [(1, "x", None, " 5")])


def test_a_named_character_is_spelled_with_single_braces_in_a_t_string() -> None:
    """SPEC 2: ``\\N{{NAME}}`` in a tag string is ``\\N{NAME}`` in a t-string (the
    migration rewrites it); the same character either way."""
    assert structure(run('tt"\\N{{BULLET}} {x}"')) == (("• ", ""), [(1, "x", None, "")])
    if PY314:
        assert structure(run('t"\\N{BULLET} {x}"')) == (("• ", ""), [(1, "x", None, "")])


# 3.14 keeps the whitespace before the expression and drops the comments in
# it; a tag string's ``expr`` is stripped of both ends and keeps inner comments
# (SPEC 3): the only differences, documented in docs/python314.md.
EXPRESSION_TEXT_DIFFERS = [
    pytest.param('"{ x}"', "x", " x", id="leading whitespace"),
    pytest.param('"{x + # one\n 1}"', "x + # one\n 1", "x + \n 1", id="inner comment"),
    pytest.param('"{ {"k": x}["k"]}"', '{"k": x}["k"]', ' {"k": x}["k"]', id="a dict display needs the space"),
]


@pytest.mark.parametrize(("body", "ours", "native"), EXPRESSION_TEXT_DIFFERS)
def test_expression_text_differences(body: str, ours: str, native: str) -> None:
    assert run("tt" + body).interpolations[0].expression == ours
    if PY314:
        assert run("t" + body).interpolations[0].expression == native


def test_values_are_evaluated_once_in_order_before_the_library_runs() -> None:
    calls: list[str] = []

    def note(name: str) -> str:
        calls.append(name)
        return name

    def library(template: Template) -> tuple[Any, ...]:
        calls.append("library")
        return template.values

    tag = template_tag(library)
    assert run('tag"{note("a")}{note("b")!r}{note("c"):{note("spec")}}"', tag=tag, note=note) == ("a", "b", "c")
    # format specs are formatted when the tag string is evaluated (SPEC 4), before the values
    assert calls == ["spec", "a", "b", "c", "library"]


def test_a_template_passes_straight_through_template_tag() -> None:
    given = Template("a", TemplateInterpolation(1, "x"))
    assert template_tag(identity)(given) is given


def escape_html(template: Template) -> str:
    """A template library: literal parts trusted, values escaped."""
    out = []
    for part in template:
        if isinstance(part, str):
            out.append(part)
        else:
            value = tagstr_runtime.format_value(part.value, part.conversion, part.format_spec)
            out.append(value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def test_a_template_library_works_as_a_tag() -> None:
    html = template_tag(escape_html)
    assert run('html"<p>{s}</p><i>{x:03d}</i>{s!r}"', html=html) == "<p>é&lt;b&gt;</p><i>001</i>'é&lt;b&gt;'"
    if PY314:
        assert run('html(t"<p>{s}</p><i>{x:03d}</i>{s!r}")', html=html) == run(
            'html"<p>{s}</p><i>{x:03d}</i>{s!r}"', html=html
        )


def test_template_tag_keeps_the_function_s_metadata() -> None:
    tag = template_tag(escape_html)
    assert tag.__name__ == "escape_html" and tag.__doc__ == escape_html.__doc__
    assert tag.__wrapped__ is escape_html
    assert repr(tag).startswith("template_tag(<function escape_html")
    assert repr(template_tag(escape_html, raw=True)).endswith(", raw=True)")


def test_a_wrong_argument_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not int"):
        template_tag(identity)(Decoded("a"), 3)  # type: ignore[call-overload]


# -- accepts_template ------------------------------------------------------------------


def show(*args: Decoded | Interpolation[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for arg in args:
        if isinstance(arg, Decoded):
            out.append(("D", str(arg), arg.raw))
        else:
            out.append(("I", arg.getvalue(), arg.expr, arg.conv, arg.format_spec))
    return out


BOTH_FORMS = [
    pytest.param('"a{x}b"', id="plain"),
    pytest.param('"{x!r:>{w}}"', id="conversion and nested spec"),
    pytest.param('"a{x=}b{x=:>4}"', id="debug"),
    pytest.param('"{x}{w}"', id="adjacent fields"),
    pytest.param('""', id="empty"),
    pytest.param('"{{x}} caf\\u00e9"', id="braces and escapes (raw equals cooked for a template)"),
]


@pytest.mark.parametrize("body", BOTH_FORMS)
def test_a_decorated_tag_gives_the_same_result_for_both_forms(body: str) -> None:
    tag = accepts_template(show)
    from_tag_string = run("tag" + body, tag=tag)
    from_template = tag(run("tt" + body))
    expected = [
        # a template keeps one text: .raw is that text
        (item[0], item[1], item[1]) if item[0] == "D" else item for item in from_tag_string
    ]
    assert from_template == expected
    if PY314:
        assert tag(run("t" + body)) == expected


def test_a_decorated_tag_s_getvalue_returns_the_evaluated_value() -> None:
    value = object()
    (interpolation,) = accepts_template(lambda *args: args)(Template(TemplateInterpolation(value, "v")))
    assert isinstance(interpolation, Interpolation)
    assert interpolation.getvalue() is value and interpolation.getvalue() is value


def test_a_decorated_tag_is_unchanged_for_every_other_call() -> None:
    tag = accepts_template(show)
    assert run('tag"{x}"', tag=tag) == show(*run('args"{x}"', args=lambda *a: a))
    assert tag() == [] and tag(Decoded("a")) == [("D", "a", "a")]
    assert tag.__wrapped__ is show and tag.__name__ == "show"
    assert repr(tag).startswith("accepts_template(<function show")


def test_a_decorated_tag_sees_a_template_s_parts_through_match() -> None:
    @accepts_template
    def kinds(*args: Decoded | Interpolation[object]) -> list[str]:
        out = []
        for arg in args:
            match arg:
                case Decoded():
                    out.append("D")
                case Interpolation(getvalue, expr, conv, spec):
                    out.append(f"I:{getvalue()}:{expr}:{conv}:{spec}")
        return out

    assert kinds(run('tt"a{x!r:>3}"')) == ["D", "I:1:x:r:>3"]


def test_bridged_templates_pickle() -> None:
    template = run('tt"a{x}b"')
    again = pickle.loads(pickle.dumps(template))
    assert structure(again) == structure(template)


def test_the_stand_in_is_used_only_before_314() -> None:
    assert NATIVE is PY314
    assert Template.__module__ == "string.templatelib" if PY314 else "tagstr_runtime.bridge.template_types"


# -- sites (bridge.site_templates): a tag string met again builds its template as its t-string does --------


def _evaluations(body: str, values: list[dict[str, Any]], tag: Any) -> list[Any]:
    """``tt<body>`` evaluated in one function, once per ``values``, with one ``template_tag``."""
    names = sorted({name for given in values for name in given})
    namespace: dict[str, Any] = {"tt": tag}
    source = f"def evaluate({', '.join(names)}):\n    return tt{body}\n"
    exec(tagstr_runtime.compile(source, "<sites>", "exec"), namespace)
    return [namespace["evaluate"](**given) for given in values]


@pytest.mark.parametrize(("body", "strings", "interpolations"), SAME_AS_314)
def test_a_site_met_again_builds_what_a_t_string_builds(
    body: str, strings: tuple[str, ...], interpolations: list[tuple[Any, ...]]
) -> None:
    """The first evaluation, the second (which compiles the site) and the later ones all build
    what the general way builds; on 3.14 the strings are then one object, as a t-string's are."""
    tag = template_tag(identity)
    values = [{**NAMES, "x": x} for x in (1, 1, 1, 1)]
    built = _evaluations(body, values, tag)
    for template in built:
        assert structure(template) == (strings, interpolations)
    sites = tag._sites
    compiled = sites is not None and any(
        site.count >= 0 for known in (sites.after_text, sites.after_field) for site in known.values()
    )
    if compiled:
        assert built[2].strings is built[3].strings  # the strings are the site's constant


def test_on_3_14_a_site_met_twice_is_compiled_and_shares_its_strings() -> None:
    tag = template_tag(identity)
    given = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]  # met once, compiled, then built by its function
    built = _evaluations('"<p class={c}>{x}</p>"', [{"c": c, "x": x} for c, x in given], tag)
    assert [structure(t) for t in built] == [
        (("<p class=", ">", "</p>"), [(c, "c", None, ""), (x, "x", None, "")]) for c, x in given
    ]
    assert (built[2].strings is built[3].strings) == PY314
    if PY314:
        assert built[2].strings is _evaluations('"<p class={c}>{x}</p>"', [{"c": "d", "x": 4}], tag)[0].strings


def test_a_site_s_values_and_varying_specs() -> None:
    tag = template_tag(identity)
    values = [{"x": x, "w": w, "y": y} for x, w, y in [(1, 3, "a"), (2, 4, "b"), (3.5, 6, "c"), (4, 2, "d")]]
    for given, template in zip(values, _evaluations('"<p>{x!r:>{w}}</p>{y}{x=}z{y:>3}"', values, tag)):
        x, w, y = given["x"], given["w"], given["y"]
        assert structure(template) == (
            ("<p>", "</p>", "x=", "z", ""),
            [(x, "x", "r", f">{w}"), (y, "y", None, ""), (x, "x", "r", ""), (y, "y", None, ">3")],
        )


def test_a_call_like_a_site_with_other_fields_takes_the_general_way() -> None:
    """A site is known by its texts, and checked field by field: a call by hand with the same
    texts and another expression, conversion or spec gets what it passes."""
    tag = template_tag(identity)
    for _ in range(3):
        _evaluations('"<p>{x}</p>"', [{"x": 1}], tag)
    made = {
        "expression": (Decoded("<p>"), Interpolation((lambda: 2, "other", None, None)), Decoded("</p>")),
        "conversion": (Decoded("<p>"), Interpolation((lambda: 2, "x", "r", None)), Decoded("</p>")),
        "spec": (Decoded("<p>"), Interpolation((lambda: 2, "x", None, ">4")), Decoded("</p>")),
        "more parts": (Decoded("<p>"), Interpolation((lambda: 2, "x", None, None)), Decoded("</p>"),
                       Interpolation((lambda: 3, "y", None, None))),
    }
    expected = {
        "expression": [(2, "other", None, "")], "conversion": [(2, "x", "r", "")], "spec": [(2, "x", None, ">4")],
        "more parts": [(2, "x", None, ""), (3, "y", None, "")],
    }
    for _ in range(3):
        for name, args in made.items():
            assert structure(tag(*args))[1] == expected[name], name
    with pytest.raises(TypeError, match="a tag takes Decoded and Interpolation arguments"):
        tag(Decoded("<p>"), 3, Decoded("</p>"))


def test_a_value_error_of_getvalue_reaches_the_caller_once() -> None:
    calls: list[int] = []

    def boom() -> int:
        calls.append(1)
        raise LookupError("no value")

    tag = template_tag(identity)
    for _ in range(4):
        with pytest.raises(LookupError, match="no value"):
            _evaluations('"<p>{boom()}</p>"', [{"boom": boom}], tag)
    assert len(calls) == 4
