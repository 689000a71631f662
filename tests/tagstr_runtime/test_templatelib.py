"""The 3.11-3.13 stand-in for ``string.templatelib`` behaves as the real module.

Every test runs on the stand-in; on 3.14 (the pyodide env) the same test runs
on ``string.templatelib`` too, so the expectations are the real module's.
"""

from __future__ import annotations

import pickle
import sys
from types import ModuleType
from typing import Any

import pytest

from tagstr_runtime.bridge import template_types as _templatelib

MODULES = [pytest.param(_templatelib, id="stand-in")]
if sys.version_info >= (3, 14):
    import string.templatelib

    MODULES.append(pytest.param(string.templatelib, id="string.templatelib"))


@pytest.fixture(params=MODULES)
def lib(request: pytest.FixtureRequest) -> Any:
    module: ModuleType = request.param
    return module


def test_constructor_alternates_strings_and_interpolations(lib: Any) -> None:
    i, j = lib.Interpolation(1, "x"), lib.Interpolation(2, "y")
    t = lib.Template("a", "b", i, j, "c")
    assert t.strings == ("ab", "", "c")
    assert t.interpolations == (i, j)
    assert t.values == (1, 2)
    assert lib.Template().strings == ("",) and lib.Template().interpolations == ()
    assert lib.Template(i).strings == ("", "")


def test_constructor_rejects_other_types(lib: Any) -> None:
    message = "Template.__new__ \\*args need to be of type 'str' or 'Interpolation', got int"
    with pytest.raises(TypeError, match=message):
        lib.Template(1)


def test_iteration_skips_empty_strings(lib: Any) -> None:
    i = lib.Interpolation(1, "x")
    assert list(lib.Template(i, i, "z")) == [i, i, "z"]
    assert list(lib.Template("")) == []


def public_name(lib: Any) -> str:
    """What messages call the module: the stand-in's public one, not ``string.templatelib``,
    which does not exist before 3.14."""
    return "tagstr_runtime.templatelib" if lib is _templatelib else "string.templatelib"


def test_addition(lib: Any) -> None:
    i = lib.Interpolation(1, "x")
    joined = lib.Template("a", i) + lib.Template("b", i, "c")
    assert joined.strings == ("a", "b", "c") and joined.interpolations == (i, i)
    name = f"{public_name(lib)}.Template"
    with pytest.raises(TypeError) as left:
        lib.Template("a") + "b"
    assert str(left.value) == f'can only concatenate {name} (not "str") to {name}'
    with pytest.raises(TypeError) as right:
        "b" + lib.Template("a")
    assert str(right.value) == f'can only concatenate str (not "{name}") to str'


def test_interpolation_defaults_and_fields(lib: Any) -> None:
    i = lib.Interpolation(1)
    assert (i.value, i.expression, i.conversion, i.format_spec) == (1, "", None, "")
    k = lib.Interpolation(value=1, expression="x", conversion="r", format_spec=">3")
    assert (k.value, k.expression, k.conversion, k.format_spec) == (1, "x", "r", ">3")
    assert lib.Interpolation.__match_args__ == ("value", "expression", "conversion", "format_spec")
    match k:
        case lib.Interpolation(value, expression, conversion, spec):
            assert (value, expression, conversion, spec) == (1, "x", "r", ">3")


def test_interpolation_rejects_a_bad_conversion(lib: Any) -> None:
    with pytest.raises(ValueError, match="must be one of 's', 'a' or 'r'"):
        lib.Interpolation(1, "x", "q")


def test_reprs(lib: Any) -> None:
    t = lib.Template("a", lib.Interpolation(1, "x", "r", ">3"))
    assert repr(t) == "Template(strings=('a', ''), interpolations=(Interpolation(1, 'x', 'r', '>3'),))"


def test_immutable_final_identity_equality(lib: Any) -> None:
    t, i = lib.Template("a"), lib.Interpolation(1, "x")
    for obj, name in ((t, "strings"), (i, "value")):
        with pytest.raises(AttributeError, match="readonly attribute"):
            setattr(obj, name, 2)
    for cls in (lib.Template, lib.Interpolation):
        with pytest.raises(TypeError) as caught:
            type("Sub", (cls,), {})
        assert str(caught.value) == f"type '{public_name(lib)}.{cls.__name__}' is not an acceptable base type"
    assert t != lib.Template("a") and i != lib.Interpolation(1, "x")
    assert hash(t) == hash(t)


def test_generic_aliases(lib: Any) -> None:
    assert lib.Interpolation[int].__origin__ is lib.Interpolation


def test_pickle(lib: Any) -> None:
    t = lib.Template("a", lib.Interpolation([1], "x", "s", ">3"), "b")
    again = pickle.loads(pickle.dumps(t))
    assert again.strings == t.strings
    assert [(i.value, i.expression, i.conversion, i.format_spec) for i in again.interpolations] == [
        ([1], "x", "s", ">3")
    ]


def test_convert(lib: Any) -> None:
    assert lib.convert("é", None) == "é"
    assert (lib.convert("é", "r"), lib.convert("é", "s"), lib.convert("é", "a")) == ("'é'", "é", "'\\xe9'")
    with pytest.raises(ValueError, match="invalid conversion specifier: q"):
        lib.convert(1, "q")
