"""Python 3.15's new syntax next to tag strings (SPEC 1.3, 1.8).

``lazy`` (PEP 810) is a soft keyword: ``lazy import m`` is an import, while
``lazy"x"`` is no valid Python and therefore a tag named ``lazy`` on every
version, like ``match"x"``.  Unpacking in comprehensions (PEP 798) adds
``*``/``**`` where a tag string's field may now stand.  A source without tag
strings never reaches our code: on 3.15 it gets CPython's tree, before 3.15
CPython's own error.  Every test here needs no subprocess, so the 3.15 ones
run in the ``pyodide315`` env.
"""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime.run.compile import desugar_ast
from tagstr_runtime.syntax.parser import parse

PY315 = sys.version_info >= (3, 15)
needs_315 = pytest.mark.skipif(not PY315, reason="the syntax is new in Python 3.15")

#: Standard 3.15 code whose tokens sit where a tag string could start.
NEW_SYNTAX = [
    pytest.param("lazy import json\n", id="lazy-import"),
    pytest.param("lazy import json as j, os.path\n", id="lazy-import-as"),
    pytest.param("lazy from os import path, sep\n", id="lazy-from"),
    pytest.param("lazy from os import (\n    path,\n)\n", id="lazy-from-parenthesized"),
    pytest.param("lazy from . import x\n", id="lazy-from-relative"),
    pytest.param("lazy = 'x'\nlazy.upper()\nlazy[0]\n", id="lazy-as-a-name"),
    pytest.param("def f(lazy='a'):\n    return lazy, {'lazy': lazy}\n", id="lazy-parameter"),
    pytest.param("x = [*a for a in ['ab', 'cd']]\n", id="pep798-list"),
    pytest.param("x = {**d for d in [{'a': 1}]}\n", id="pep798-dict"),
    pytest.param("x = {*s for s in ['ab']}\n", id="pep798-set"),
    pytest.param("x = list(*a for a in ['ab'])\n", id="pep798-generator"),
    pytest.param("x = f'{[*a for a in [\"ab\"]]}'\n", id="pep798-in-fstring"),
]


def _quiet(fn, *args):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


@pytest.mark.parametrize("src", NEW_SYNTAX)
def test_new_syntax_holds_no_tag_string(src: str) -> None:
    result = parse(src)
    assert result.tag_strings == () and result.complete


@needs_315
@pytest.mark.parametrize("src", NEW_SYNTAX)
def test_new_syntax_takes_cpythons_path(src: str) -> None:
    expected = ast.dump(ast.parse(src), include_attributes=True)
    assert ast.dump(_quiet(desugar_ast, src), include_attributes=True) == expected
    assert tagstr_runtime.compile(src, "f.py", "exec", dont_inherit=True) == compile(
        src, "f.py", "exec", dont_inherit=True
    )


@pytest.mark.skipif(PY315, reason="CPython reads this syntax from 3.15 on")
@pytest.mark.parametrize("src", NEW_SYNTAX[:5])
def test_new_syntax_before_315_is_cpythons_own_error(src: str) -> None:
    with pytest.raises(SyntaxError) as stock:
        compile(src, "f.py", "exec", dont_inherit=True)
    with pytest.raises(SyntaxError) as ours:
        tagstr_runtime.compile(src, "f.py", "exec")
    assert not isinstance(ours.value, tagstr_runtime.TagSyntaxError)
    assert (ours.value.msg, ours.value.lineno, ours.value.offset) == (
        stock.value.msg, stock.value.lineno, stock.value.offset
    )


def test_lazy_before_a_quote_is_a_tag() -> None:
    """Not valid Python on any version, so a tag (SPEC 1.8), like ``match"x"``."""
    src = 'x = lazy"a{b}"\nlazy"stmt"\n'
    assert [src[t.span.start : t.span.end] for t in parse(src).tag_strings] == ['lazy"a{b}"', 'lazy"stmt"']
    namespace: dict[str, object] = {"lazy": lambda *args: args, "b": 1}
    exec(tagstr_runtime.compile(src, "f.py", "exec"), namespace)
    decoded, interpolation = namespace["x"]  # type: ignore[misc]
    assert (str(decoded), interpolation.getvalue()) == ("a", 1)


@needs_315
def test_tag_strings_beside_new_syntax() -> None:
    src = textwrap.dedent('''\
        lazy import json
        lazy from os import sep
        def tg(*args):
            return [a if isinstance(a, str) else a.getvalue() for a in args]
        x = tg"{[*p for p in ['ab', 'c']]}-{ {**d for d in [{'k': 1}]} }-{json.dumps(sep)}"
        y = [*tg"{n}" for n in range(2)]
    ''')
    namespace: dict[str, object] = {}
    exec(tagstr_runtime.compile(src, "f.py", "exec"), namespace)
    assert namespace["x"] == [["a", "b", "c"], "-", {"k": 1}, "-", '"/"']
    assert namespace["y"] == [0, 1]


@pytest.fixture
def tmp_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.install()
    yield tmp_path
    for name in set(sys.modules) - before:
        del sys.modules[name]
    if not was_installed:
        tagstr_runtime.uninstall()


@needs_315
def test_lazy_import_stays_lazy_in_a_module_with_tag_strings(tmp_modules: Path) -> None:
    """Through the import hook: the desugared module keeps CPython's lazy import."""
    (tmp_modules / "heavy_315.py").write_text("LOADED = True\n", encoding="utf-8")
    (tmp_modules / "uses_lazy_315.py").write_text(textwrap.dedent('''\
        lazy import heavy_315
        def tg(*args):
            return args[0]
        GREETING = tg"hello"
        def loaded():
            return heavy_315.LOADED
    '''), encoding="utf-8")
    importlib.invalidate_caches()
    module = importlib.import_module("uses_lazy_315")
    assert module.GREETING == "hello"
    assert "heavy_315" not in sys.modules  # not loaded until first used
    assert module.loaded() is True
    assert "heavy_315" in sys.modules
