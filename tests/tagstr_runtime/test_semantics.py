"""SPEC 3 and 4 end to end through ``tagstr_runtime.compile``: what the tag receives, and when."""

from __future__ import annotations

import pickle
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation, InterpolationConcrete

PRELUDE = "def tag(*args):\n    return args\n"


def run(src: str, **names: Any) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "under_test", **names}
    exec(tagstr_runtime.compile(PRELUDE + src, "<test>", "exec"), namespace)
    return namespace


def show(args: tuple[Any, ...]) -> list[Any]:
    """Arguments as comparable data: Decoded -> ('D', cooked, raw), Interpolation -> tuple."""
    out: list[Any] = []
    for arg in args:
        if isinstance(arg, Decoded):
            out.append(("D", str(arg), arg.raw))
        else:
            assert isinstance(arg, Interpolation)
            out.append(("I", arg.getvalue(), arg.expr, arg.conv, arg.format_spec))
    return out


def test_spec_example() -> None:
    ns = run('name = "Bob"\nw = 10\nr = tag"Hi, {name!r:>{w}}{{!}}"\n')
    assert show(ns["r"]) == [
        ("D", "Hi, ", "Hi, "),
        ("I", "Bob", "name", "r", ">10"),
        ("D", "{!}", "{!}"),
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('tag""', []),
        ('tag"plain"', [("D", "plain", "plain")]),
        ('tag"{a}{b}"', [("I", 1, "a", None, None), ("I", 2, "b", None, None)]),
        ('tag"{ a  +  b  # sum\n}"', [("I", 3, "a  +  b", None, None)]),
        ('tag"x{a=}"', [("D", "xa=", "xa="), ("I", 1, "a", "r", None)]),
        ('tag"{ a = }"', [("D", " a = ", " a = "), ("I", 1, "a", "r", None)]),
        ('tag"{a=!s}"', [("D", "a=", "a="), ("I", 1, "a", "s", None)]),
        ('tag"{a=:>3}"', [("D", "a=", "a="), ("I", 1, "a", None, ">3")]),
        ('tag"{a!a:}"', [("I", 1, "a", "a", "")]),
        ('tag"{a:{b}{b}x}"', [("I", 1, "a", None, "22x")]),
        ('tag"{a:{b!r:>{b}}}"', [("I", 1, "a", None, " 2")]),
        ('tag"caf\\u00e9 é\\n\\d"', [("D", "café é\n\\d", "caf\\u00e9 é\\n\\d")]),
        ('tag"\\N{{BULLET}}"', [("D", "•", "\\N{BULLET}")]),
        ('tag"{{a}}"', [("D", "{a}", "{a}")]),
        ('tag"{d["k"]}"', [("I", "v", 'd["k"]', None, None)]),
        ('tag"""two\nlines {a}"""', [("D", "two\nlines ", "two\nlines "), ("I", 1, "a", None, None)]),
    ],
)
def test_arguments(body: str, expected: list[Any]) -> None:
    ns = run(f"a, b = 1, 2\nd = {{'k': 'v'}}\nr = {body}\n")
    assert show(ns["r"]) == expected


@pytest.mark.parametrize(
    "src",
    [
        pytest.param("def deco(a):\n    return lambda f: a\n@deco(tag'{1}')\ndef r(): pass\n", id="decorator"),
        pytest.param("def deco(a):\n    return lambda c: a\n@deco(tag'{1}')\nclass r: pass\n", id="class-decorator"),
        pytest.param("def f(x=tag'{1}'):\n    return x\nr = f()\n", id="default"),
        pytest.param("r = [tag'{i}' for i in [1]][0]\n", id="comprehension"),
        pytest.param("r = tag'{1}' if True else tag'{2}'\n", id="ifexp"),
        pytest.param("r: object = tag'{1}'\n", id="annotated"),
        pytest.param("r = (lambda: tag'{1}')()\n", id="lambda"),
    ],
)
def test_tag_strings_anywhere_an_expression_stands(src: str) -> None:
    (interp,) = run(src)["r"]
    assert interp.getvalue() == 1


def test_nested_tag_strings_and_fstrings() -> None:
    ns = run("x = 5\nr = tag\"<{tag'{x}'}>\"\ns = f\"{tag'{x}'[0].getvalue()}\"\n")
    outer = ns["r"]
    inner = outer[1].getvalue()
    assert inner[0].getvalue() == 5 and inner[0].expr == "x"
    assert ns["s"] == "5"


def test_tag_names_are_nfkc_normalised_as_the_compiler_does() -> None:
    """PEP 3131: ``𝔥𝔱𝔪𝔩`` and ``ﬁ`` are the identifiers ``html`` and ``fi``, here and in a nested one."""
    ns = run('html = lambda *a: ("html", a)\nfi = lambda *a: ("fi", a)\nx = 1\n'
             'r = 𝔥𝔱𝔪𝔩"<{x}>"\ns = ﬁ"{𝔥𝔱𝔪𝔩"{x}"}"\nt = ﬁ"" if 𝔵 else 𝔥𝔱𝔪𝔩""\n')
    assert ns["r"][0] == "html" and ns["r"][1][1].getvalue() == 1
    assert ns["s"][0] == "fi" and ns["s"][1][0].getvalue()[0] == "html"
    assert ns["t"] == ("fi", ())
    # a name that is a keyword once normalised is a keyword (SPEC 1.3), not a crash in compile()
    # (3.14+ refuses the name 𝐍𝐨𝐧𝐞 itself, anywhere: CPython's ValueError, as without tag strings)
    sources = {"if": 'v = 𝐢𝐟"x"\n'} if sys.version_info >= (3, 14) else {"if": 'v = 𝐢𝐟"x"\n', "None": 'v = 𝐍𝐨𝐧𝐞"x"\n'}
    for keyword, source in sources.items():
        with pytest.raises(tagstr_runtime.TagSyntaxError) as info:
            tagstr_runtime.compile(source, "<m>", "exec")
        assert (info.value.msg, info.value.offset, info.value.end_offset) == (
            f"keyword {keyword!r} cannot be used as a tag", 5, 5 + len(keyword))


def test_getvalue_is_lazy_and_late_binding() -> None:
    ns = run(
        "calls = []\n"
        "def f(v):\n    calls.append(v)\n    return v\n"
        "x = 1\nr = tag'{f(x)}'\nx = 2\n"
    )
    assert ns["calls"] == []
    (interp,) = ns["r"]
    assert interp.getvalue() == 2
    assert interp.getvalue() == 2
    assert ns["calls"] == [2, 2]


def test_closure_sees_enclosing_function_scope() -> None:
    ns = run("def outer():\n    y = 'local'\n    return tag'{y}'\nr = outer()\n")
    assert ns["r"][0].getvalue() == "local"


def test_class_body_is_not_visible() -> None:
    ns = run("class C:\n    hidden = 1\n    r = tag'{hidden}'\n")
    with pytest.raises(NameError):
        ns["C"].r[0].getvalue()


def test_format_specs_are_eager_but_expressions_are_not() -> None:
    ns = run(
        "log = []\n"
        "def f(v):\n    log.append(v)\n    return v\n"
        "r = tag'{f(\"expr\"):{f(\"w1\")}}{f(\"e2\"):{f(\"w2\")}}'\n"
    )
    assert ns["log"] == ["w1", "w2"]


def test_evaluation_order_tag_first() -> None:
    log: list[int] = []
    src = "def f(v):\n    log.append(v)\n    return v\nr = missing'{x:{f(1)}}'\n"
    with pytest.raises(NameError, match="missing"):
        run(src, log=log)
    assert log == []  # the tag is looked up before any format spec is formatted


def test_tag_not_callable_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        run("notcallable = 3\nr = notcallable'x'\n")


def test_value_is_what_the_tag_returns() -> None:
    ns = run("def upper(*args):\n    return 42\nr = upper'x{1}'\n")
    assert ns["r"] == 42


def test_match_patterns() -> None:
    src = (
        "def describe(*args):\n"
        "    out = []\n"
        "    for arg in args:\n"
        "        match arg:\n"
        "            case Decoded() as d:\n"
        "                out.append(('D', d.raw))\n"
        "            case Interpolation(getvalue, expr, conv, spec):\n"
        "                out.append(('I', getvalue(), expr, conv, spec))\n"
        "    for arg in args:\n"
        "        match arg:\n"
        "            case getvalue, expr, conv, spec:\n"
        "                out.append(('seq', expr))\n"
        "    return out\n"
        "r = describe'a{1!r:x}'\n"
    )
    ns = run(src, Decoded=Decoded, Interpolation=Interpolation)
    assert ns["r"] == [("D", "a"), ("I", 1, "1", "r", "x"), ("seq", "1")]


def test_is_interpolation_tells_the_parts_apart() -> None:
    ns = run("def parts(*args):\n    return args\n"
             "r = [is_interpolation(a) for a in parts'a{1}b{InterpolationConcrete}'"
             " + (InterpolationConcrete(int, 'int'),)]\n",
             is_interpolation=tagstr_runtime.is_interpolation, InterpolationConcrete=InterpolationConcrete)
    assert ns["r"] == [False, True, False, True, True]


def test_generated_code_depends_on_no_user_name() -> None:
    src = (
        "Decoded = Interpolation = tuple = str = None\n"
        "def __import__(*a, **k):\n    raise AssertionError\n"
        "r = tag'a{1}'\n"
    )
    ns = run(src)
    assert show(ns["r"]) == [("D", "a", "a"), ("I", 1, "1", None, None)]


def test_docstring_and_future_imports_stay_first() -> None:
    src = '"""The doc."""\nfrom __future__ import annotations\ndef tag(*a): return a\nr = tag"x"\n'
    ns: dict[str, Any] = {}
    exec(tagstr_runtime.compile(src, "<test>", "exec"), ns)
    assert ns["__doc__"] == "The doc."
    assert ns["r"] == ("x",)


def test_star_import_exports_nothing_generated(tmp_path: Path) -> None:
    ns = run("r = tag'x'\n")
    public = [name for name in ns if not name.startswith("_")]
    generated = [name for name in ns if name.startswith("__tagstr")]
    assert any(name.endswith("_0__") for name in generated) and not set(generated) & set(public)


def test_sources_run_in_one_namespace_keep_their_own_parts() -> None:
    """A console, IPython or doctest runs many sources in one namespace: a function
    defined by one reads its generated globals when called, after others ran."""
    ns: dict[str, Any] = {"tag": lambda *a: a}
    for source in ("def f(): return tag'first {len}'\n", "def g(): return tag'second'\n",
                   "x = tag'third {print}'\n"):
        exec(tagstr_runtime.compile(source, "<input>", "single"), ns)
    assert ns["f"]()[0] == "first " and ns["f"]()[1].expr == "len"
    assert ns["g"]() == ("second",)
    h = eval(tagstr_runtime.compile("lambda: tag'e1'", "<input>", "eval"), ns)
    eval(tagstr_runtime.compile("tag'e2'", "<input>", "eval"), ns)
    assert h() == ("e1",)


@pytest.mark.parametrize("mode", ["eval", "single"])
def test_eval_and_single_modes(mode: str) -> None:
    ns: dict[str, Any] = {"tag": lambda *a: a, "x": 3}
    code = tagstr_runtime.compile("tag'v{x}'", "<test>", mode)
    result = eval(code, ns)
    if mode == "eval":
        assert result[0] == "v" and result[1].getvalue() == 3


def test_named_escape_warning_position() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tagstr_runtime.compile('x = 1\ny = tag"\\N{SPACE}"\n', "warn.py", "exec")
    (w,) = [w for w in caught if issubclass(w.category, SyntaxWarning)]
    assert (w.filename, w.lineno) == ("warn.py", 2)
    assert "\\N{{SPACE}}" in str(w.message)


def test_traceback_points_at_original_text(tmp_path: Path) -> None:
    src = (
        "def tag(*args):\n"
        "    return [a.getvalue() for a in args if not isinstance(a, str)]\n"
        "x = 0\n"
        "y = tag\"héllo {x + 1} and { 1 / x }\"\n"
    )
    path = tmp_path / "mod.py"
    path.write_text(src, encoding="utf-8")
    code = tagstr_runtime.compile(src, str(path), "exec")
    with pytest.raises(ZeroDivisionError) as info:
        exec(code, {})
    frames = traceback.extract_tb(info.tb)
    lam = frames[-1]
    assert (lam.name, lam.lineno, lam.line) == ("<lambda>", 4, src.splitlines()[3])
    line = src.splitlines()[3]
    assert (lam.colno, lam.end_colno) == (  # type: ignore[attr-defined]
        len(line[: line.index("1 / x")].encode()),
        len(line[: line.index("1 / x") + 5].encode()),
    )
    call = frames[1]
    assert (call.lineno, call.colno, call.end_colno) == (  # type: ignore[attr-defined]
        4, len("y = "), len(line.encode()),
    )
    rendered = "".join(traceback.format_exception(info.value))
    assert line in rendered


def test_unbound_tag_points_at_the_tag(tmp_path: Path) -> None:
    src = "x = 1\ny = nope'{x}'\n"
    with pytest.raises(NameError) as info:
        exec(tagstr_runtime.compile(src, "m.py", "exec"), {})
    frame = traceback.extract_tb(info.tb)[-1]
    assert (frame.lineno, frame.colno, frame.end_colno) == (2, 4, 8)  # type: ignore[attr-defined]


# -- the types (SPEC 3, 6) ------------------------------------------------------------


def test_decoded() -> None:
    d = Decoded("caf\\u00e9 ☕\\n")
    assert (str(d), d.raw) == ("café ☕\n", "caf\\u00e9 ☕\\n")
    assert isinstance(d, str) and d == "café ☕\n"
    assert pickle.loads(pickle.dumps(d)).raw == d.raw
    with pytest.raises(AttributeError):
        d.raw = "x"  # type: ignore[misc]
    with pytest.raises(ValueError):
        Decoded("\\x4")


def test_read_only_members_say_whose_they_are() -> None:
    """The PEP draft's Protocols declare ``raw``, ``expr``, ``conv`` and ``format_spec``
    settable; code written for them that sets one is told which type refuses, in full
    (its own Protocol may be called ``Decoded`` too)."""
    with pytest.raises(AttributeError, match=r"^tagstr_runtime\.Decoded is immutable; cannot set 'raw'$"):
        Decoded("x").raw = "y"  # type: ignore[misc]
    interpolation = Interpolation((lambda: 1, "1", None, None))
    for name in ("expr", "conv", "format_spec", "other"):
        with pytest.raises(AttributeError, match=rf"^tagstr_runtime\.Interpolation is immutable; cannot set '{name}'$"):
            setattr(interpolation, name, "2")


def test_interpolation() -> None:
    i = Interpolation((lambda: 1, "1", None, None))
    assert (i.getvalue(), i.expr, i.conv, i.format_spec) == (1, "1", None, None)
    assert isinstance(i, tuple) and len(i) == 4
    c = InterpolationConcrete(lambda: 2, "2", "r")
    assert isinstance(c, Interpolation) and (c.conv, c.format_spec) == ("r", None)
    assert Interpolation[int] is not None
    match c:
        case Interpolation(getvalue, expr):
            assert (getvalue(), expr) == (2, "2")
        case _:
            pytest.fail("class pattern did not match")


@pytest.mark.parametrize(
    ("conv", "spec", "expected"),
    [
        (None, None, "café"),
        ("r", None, "'café'"),
        ("a", None, "'caf\\xe9'"),
        ("s", ">6", "  café"),
        (None, "", "café"),
    ],
)
def test_format_value_is_the_fstring_rule(conv: str | None, spec: str | None, expected: str) -> None:
    assert tagstr_runtime.format_value("café", conv, spec) == expected
    assert tagstr_runtime.convert(1, None) == 1
    with pytest.raises(ValueError):
        tagstr_runtime.convert(1, "x")
