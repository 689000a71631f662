"""The parse hook's fallbacks: a bug of ours is mypy's standard error, unless ``TAGSTR_STRICT=1``."""

from __future__ import annotations

import ast

import pytest

pytest.importorskip("mypy.nodes")  # the module, not just a package named mypy

from tagstr_mypy import _parse_hook  # noqa: E402

TAGGED = 'x = 1\ny = html"<b>{x}</b>"\n'


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    def checker_tree(*args: object, **kwargs: object) -> object:
        raise RuntimeError("forced bug in the desugarer")

    monkeypatch.setattr(_parse_hook, "checker_tree", checker_tree)
    monkeypatch.setattr(_parse_hook, "_options", object())  # as after install()
    monkeypatch.setattr(_parse_hook, "_ast_parse", ast.parse.__dict__.get("__wrapped__", ast.parse))


def test_stdlib_parser_falls_back(broken: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAGSTR_STRICT", raising=False)
    with pytest.raises(SyntaxError) as info:
        _parse_hook._parse_stdlib(TAGGED, "tagged.py")
    assert (info.value.msg, info.value.lineno) == ("invalid syntax", 2)  # CPython's own error


def test_stdlib_parser_strict(broken: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAGSTR_STRICT", "1")
    with pytest.raises(RuntimeError, match="forced bug"):
        _parse_hook._parse_stdlib(TAGGED, "tagged.py")


def test_install_wraps_once(monkeypatch: pytest.MonkeyPatch) -> None:
    stock = getattr(ast.parse, "__wrapped__", ast.parse)
    monkeypatch.setattr(ast, "parse", stock)  # restored afterwards
    _parse_hook.install(object())
    wrapped = ast.parse
    _parse_hook.install(object())
    assert ast.parse is wrapped is _parse_hook._parse_stdlib
    assert ast.parse.__wrapped__ is stock  # type: ignore[attr-defined]
