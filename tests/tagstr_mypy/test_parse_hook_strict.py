"""The parse hook's fallbacks: a bug of ours is mypy's standard error, unless ``TAGSTR_STRICT=1``."""

from __future__ import annotations

import ast

import pytest

pytest.importorskip("mypy.nodes")  # the module, not just a package named mypy

from mypy.options import Options  # noqa: E402

from tagstr_mypy.parse import hook as _parse_hook  # noqa: E402

from tagstr_mypy.parse import checker_tree as _tree  # noqa: E402

TAGGED = 'x = 1\ny = html"<b>{x}</b>"\n'
OPTIONS = Options()  # a plugin build's, as _builds binds them to the marker


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    def checker_tree(*args: object, **kwargs: object) -> object:
        raise RuntimeError("forced bug in the desugarer")

    monkeypatch.setattr(_tree, "checker_tree", checker_tree)  # the hook imports it when needed


def test_stdlib_parser_falls_back(broken: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAGSTR_STRICT", raising=False)
    stock = ast.parse
    source = _parse_hook._mark_source(OPTIONS, TAGGED)  # as a plugin build calls it, then ast.parse
    with pytest.raises(SyntaxError) as info:
        ast.parse(source, "tagged.py")
    assert (info.value.msg, info.value.lineno) == ("invalid syntax", 2)  # CPython's own error
    assert info.traceback[1].name == "_parse_stdlib"  # through the hook
    assert ast.parse is stock


def test_stdlib_parser_strict(broken: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAGSTR_STRICT", "1")
    source = _parse_hook._mark_source(OPTIONS, TAGGED)
    with pytest.raises(RuntimeError, match="forced bug"):
        ast.parse(source, "tagged.py")


def test_ast_parse_is_wrapped_for_the_marked_parse_only() -> None:
    stock = ast.parse
    source = _parse_hook._mark_source(OPTIONS, TAGGED)
    assert ast.parse is _parse_hook._parse_stdlib
    with pytest.raises(SyntaxError):
        ast.parse(TAGGED + "\n")  # another source in the meantime: stock, and disarms
    assert ast.parse is stock
    _parse_hook._mark_source(OPTIONS, source)
    assert isinstance(ast.parse(source, "tagged.py"), ast.Module)
    assert ast.parse is stock
