"""The shared parser, SPEC 1 and 2 clause by clause: what is and is not a tag string."""

from __future__ import annotations

import ast
import sys

import pytest

from tagstr_runtime.run.compile import desugar_ast
from tagstr_runtime.syntax.model import Field, Literal
from tagstr_runtime.syntax.parser import parse

PY314 = sys.version_info >= (3, 14)


def tags(src: str) -> list[str]:
    return [src[t.span.start : t.span.end] for t in parse(src).tag_strings]


# -- left alone: standard code never contains a tag string (SPEC 1.2, 1.3, 1.8) --

LEFT_ALONE = [
    pytest.param('"plain"\n', id="plain"),
    pytest.param("x = r'a' + u'b' + b'c' + br'd' + Rb'e' + rB'f'\n", id="prefixes"),
    pytest.param('f"{x}" F"{y!r:>{w}}" fr"{z}" Rf"{q}"\n', id="f-prefixes"),
    pytest.param("x in'abc'\n", id="in"),
    pytest.param("def f():\n    return'x'\n", id="return"),
    pytest.param("if'a': pass\nelif'b': pass\nelse: pass\n", id="if-elif"),
    pytest.param("x = 'a' if'b'else'c'\n", id="if-else"),
    pytest.param("assert'x'\nnot'x'\nx = 1 and'y' or'z'\n", id="assert-not-and-or"),
    pytest.param("x is'a'\n", id="is"),
    pytest.param("def g():\n    yield'x'\n    yield from'ab'\n", id="yield"),
    pytest.param("try:\n    raise'x'from'y'\nexcept'x': pass\n", id="raise-except"),
    pytest.param("with'x': pass\nwhile'x': break\n", id="with-while"),
    pytest.param("async def f():\n    await'x'\n", id="await"),
    pytest.param("match'x':\n    case'y': pass\n    case'z' if'q': pass\n", id="match-case-stmt"),
    pytest.param("match x:\n    case'y': return 1\n", id="case-inline-body"),
    pytest.param("# tag'x' in a comment\n", id="comment"),
    pytest.param("s = 'tag\"x\"'\n", id="inside-string"),
    pytest.param('s = """\ntag"x"\n"""\n', id="inside-triple"),
    pytest.param("s = f'{x!r}tag\"x\"'\n", id="inside-fstring-literal"),
    pytest.param("x = 0x1f + 1e-5j + 1_0.5e+3 + .5\n", id="numbers"),
    pytest.param("x = \\\n  'a'\n", id="continuation"),
    pytest.param("d = {'a': 1}['a']\n", id="dict"),
    pytest.param('x = f"\\N{BULLET} {y}"\n', id="named-escape-fstring-literal"),
]


@pytest.mark.parametrize("src", LEFT_ALONE)
def test_left_alone(src: str) -> None:
    assert parse(src).tag_strings == ()
    tree = desugar_ast(src)
    assert ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(src), include_attributes=True)


# -- found: what is a tag string (SPEC 1.1, 1.3, 1.4, 1.7) ------------------------

FOUND = [
    pytest.param('x = tag"a"\n', ['tag"a"'], id="simple"),
    pytest.param("x = tag'a'\n", ["tag'a'"], id="single-quote"),
    pytest.param('x = tag"""a\nb"""\n', ['tag"""a\nb"""'], id="triple-double"),
    pytest.param("x = tag'''a\n'''\n", ["tag'''a\n'''"], id="triple-single"),
    pytest.param('x = 日本"x"\n', ['日本"x"'], id="unicode-name"),
    pytest.param('x = _"Hello {name}"\n', ['_"Hello {name}"'], id="underscore"),
    pytest.param('x = match"x"\n', ['match"x"'], id="soft-keyword-match-expr"),
    pytest.param('x = type"x" + case"y"\n', ['type"x"', 'case"y"'], id="soft-keywords"),
    pytest.param('match"x"\n', ['match"x"'], id="match-expression-statement"),
    pytest.param('x = ur"x" + bf"y"\n', ['ur"x"', 'bf"y"'], id="not-prefixes"),
    pytest.param('x = html"{html\'{y}\'}"\n', ['html"{html\'{y}\'}"'], id="nested-in-tag"),
    pytest.param('x = f"{html\'{y}\'}"\n', ["html'{y}'"], id="nested-in-fstring"),
    pytest.param('x = f"{y:{html\'z\'}}"\n', ["html'z'"], id="nested-in-fstring-spec"),
    pytest.param('x = tag"{d["k"]}"\n', ['tag"{d["k"]}"'], id="pep701-same-quote"),
    pytest.param('x = (tag"a"\n     if c else tag"b")\n', ['tag"a"', 'tag"b"'], id="two"),
    pytest.param('x = tag"\\""\n', ['tag"\\""'], id="escaped-quote"),
    pytest.param('x = tag"{x # c\n}"\n', ['tag"{x # c\n}"'], id="comment-in-field"),
]


@pytest.mark.parametrize(("src", "expected"), FOUND)
def test_found(src: str, expected: list[str]) -> None:
    assert tags(src) == expected


@pytest.mark.parametrize("name", ["t", "T", "tr", "rt", "Tr", "rT"])
def test_template_prefixes(name: str) -> None:
    src = f'x = {name}"a{{b}}"\n'
    assert tags(src, ) == ([] if PY314 else [f'{name}"a{{b}}"'])
    assert parse(src, template_strings=True).tag_strings == ()
    assert len(parse(src, template_strings=False).tag_strings) == 1


def test_nested_tag_strings_hang_off_their_field() -> None:
    (outer,) = parse('x = p"{q"{s"{d}"}"}"\n').tag_strings
    assert [t.tag for t in outer.walk()] == ["p", "q", "s"]
    field = outer.parts[0]
    assert isinstance(field, Field)
    assert [t.tag for t in field.nested] == ["q"]


# -- the model (SPEC 2, 3) -----------------------------------------------------------


def test_model_parts_and_spans() -> None:
    src = 'x = tag"Hi, {name!r:>{w}}{{!}}"\n'
    (t,) = parse(src).tag_strings
    assert (t.tag, src[slice(*t.tag_span)], t.quote) == ("tag", "tag", '"')
    lit, field, lit2 = t.parts
    assert isinstance(lit, Literal) and isinstance(field, Field) and isinstance(lit2, Literal)
    assert (lit.raw, lit.cooked, src[slice(*lit.span)]) == ("Hi, ", "Hi, ", "Hi, ")
    assert (field.expr, src[slice(*field.expr_span)], src[slice(*field.span)]) == (
        "name", "name", "{name!r:>{w}}"
    )
    assert field.conv == "r" and src[slice(*field.conv_span)] == "r"
    assert field.spec is not None
    spec_lit, spec_field = field.spec
    assert isinstance(spec_lit, Literal) and spec_lit.raw == ">"
    assert isinstance(spec_field, Field) and spec_field.expr == "w"
    assert (lit2.raw, src[slice(*lit2.span)]) == ("{!}", "{{!}}")


@pytest.mark.parametrize(
    ("body", "expr"),
    [
        ("{ a + b  # sum\n}", "a + b"),
        ("{\n  x\n}", "x"),
        ("{x=}", "x"),
        ("{ x = }", "x"),
        ("{a!=b}", "a!=b"),
        ("{a==b}", "a==b"),
        ("{(x:=1)}", "(x:=1)"),
        ("{d['}']}", "d['}']"),
        ("{f'{x}'}", "f'{x}'"),
    ],
)
def test_expression_text(body: str, expr: str) -> None:
    (t,) = parse(f'tag"""{body}"""\n').tag_strings
    field = t.parts[0]
    assert isinstance(field, Field) and field.expr == expr


def test_debug_text_and_conversion() -> None:
    (t,) = parse('tag"{ x = }{y=!s}{z=:>3}"\n').tag_strings
    a, b, c = t.parts
    assert isinstance(a, Field) and (a.debug, a.effective_conv) == (" x = ", "r")
    assert isinstance(b, Field) and (b.debug, b.effective_conv) == ("y=", "s")
    assert isinstance(c, Field) and (c.debug, c.effective_conv) == ("z=", None)


def test_walrus_at_field_top_level_is_a_format_spec() -> None:
    (t,) = parse('tag"{x:=5}"\n').tag_strings
    field = t.parts[0]
    assert isinstance(field, Field) and field.expr == "x"
    assert field.spec is not None and field.spec[0].raw == "=5"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("body", "raw", "cooked"),
    [
        (r"a\nb", r"a\nb", "a\nb"),
        (r"\x41\u00e9\U0001F600", r"\x41\u00e9\U0001F600", "Aé😀"),
        (r"\N{{BULLET}}", r"\N{BULLET}", "•"),
        (r"\d+\.\w", r"\d+\.\w", r"\d+\.\w"),
        ("café ☕", "café ☕", "café ☕"),
        (r"\101\7", r"\101\7", "A\x07"),
        ("a\\\nb", "a\\\nb", "ab"),
        (r"\"q\"", r"\"q\"", '"q"'),
        ("{{}}", "{}", "{}"),
    ],
)
def test_cooked_and_raw(body: str, raw: str, cooked: str) -> None:
    (t,) = parse(f'tag"{body}"\n').tag_strings
    (lit,) = t.parts
    assert isinstance(lit, Literal)
    assert (lit.raw, lit.cooked) == (raw, cooked)


def test_named_escape_before_field_is_a_field_with_a_warning() -> None:
    src = 'x = tag"\\N{SPACE}"\n'
    result = parse(src)
    (t,) = result.tag_strings
    lit, field = t.parts
    assert isinstance(lit, Literal) and (lit.raw, lit.cooked) == ("\\N", "\\N")
    assert isinstance(field, Field) and field.expr == "SPACE"
    (warning,) = result.warnings
    assert "SPACE" in warning.message
    assert src[slice(*warning.span)] == "\\N{"


def test_escaped_backslash_before_field_is_no_named_escape() -> None:
    assert parse('x = tag"\\\\N{x}"\n').warnings == ()


def test_empty_and_field_only_bodies() -> None:
    (t,) = parse('tag""\n').tag_strings
    assert t.parts == ()
    (t,) = parse('tag"{a}{b}"\n').tag_strings
    assert [type(p) for p in t.parts] == [Field, Field]


def test_bytes_source_honours_pep263() -> None:
    src = '# -*- coding: latin-1 -*-\nx = tag"café {y}"\n'.encode("latin-1")
    tree = desugar_ast(src)
    assert "café" in ast.dump(tree)


@pytest.mark.parametrize(
    ("src", "fstrings"),
    [
        pytest.param('x = tag"{a}" + "plain" + rb"b"\n', False, id="none"),
        pytest.param('x = tag"{a}" + F"{b}"\n', True, id="beside"),
        pytest.param('x = tag"{rf"{b}"}"\n', True, id="inside-a-field"),
        pytest.param('x = f"{y}"\n', True, id="no-tag-string"),
        pytest.param('x = tag"f{a}" + fr\n', False, id="name-not-literal"),
    ],
)
def test_parse_result_says_whether_it_saw_fstrings(src: str, fstrings: bool) -> None:
    assert parse(src).fstrings is fstrings
