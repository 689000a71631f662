"""``wrap_once`` and ``wrapped_while``: the ways the plugins hook third-party internals; ``strict()``."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any, Callable

import pytest

from tagstr_runtime.support import patching as _patching
from tagstr_runtime.frontend import PatchWarning, strict, wrap_once, wrapped_while


@pytest.fixture(autouse=True)
def fresh_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_patching, "_reported", set())


def _shout(original: Callable[[], str]) -> Callable[[], str]:
    def shout() -> str:
        return original().upper()

    return shout


def test_wraps_a_module_function_once() -> None:
    module = types.ModuleType("thirdparty")
    module.hello = lambda: "hi"  # type: ignore[attr-defined]
    stock = module.hello
    for _ in range(3):  # e.g. activated three times, or imported under two names
        assert wrap_once(module, "hello", _shout, tool="tagstr_test", feature="shouting")
    assert module.hello() == "HI"
    assert module.hello.__wrapped__ is stock


def test_wraps_a_cached_property_on_its_class() -> None:
    class Base:
        @functools.cached_property
        def value(self) -> int:
            return 1

    class Processor(Base):
        pass

    def make(original: functools.cached_property[int]) -> functools.cached_property[int]:
        assert isinstance(original, functools.cached_property)  # the descriptor, not a value
        prop = functools.cached_property(lambda self: original.func(self) + 1)
        prop.__set_name__(Processor, "value")
        return prop

    assert wrap_once(Processor, "value", make, tool="tagstr_test", feature="plus one")
    assert wrap_once(Processor, "value", make, tool="tagstr_test", feature="plus one")
    assert Processor().value == 2
    assert Base().value == 1  # set on the owner only
    assert Processor.__dict__["value"].__wrapped__ is Base.__dict__["value"]


def test_missing_target_warns_once_and_changes_nothing() -> None:
    module = types.ModuleType("thirdparty")
    with pytest.warns(PatchWarning) as record:
        for _ in range(2):
            assert not wrap_once(module, "moved", _shout, tool="tagstr_test", feature="shouting")
    assert len(record) == 1
    message = str(record[0].message)
    assert "tagstr_test" in message and "thirdparty.moved" in message and "shouting is off" in message
    assert not hasattr(module, "moved")


def test_unexpected_shape_is_soft_unless_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    class Owner:
        attribute = 42

    def make(original: Any) -> Any:
        raise TypeError(f"not a function: {original!r}")

    monkeypatch.delenv("TAGSTR_STRICT", raising=False)
    assert not strict()
    with pytest.warns(PatchWarning, match="Owner.attribute .*not a function: 42"):
        assert not wrap_once(Owner, "attribute", make, tool="tagstr_test", feature="x")
    assert Owner.attribute == 42
    monkeypatch.setenv("TAGSTR_STRICT", "1")
    assert strict()
    with warnings.catch_warnings(), pytest.raises(TypeError):
        warnings.simplefilter("error")
        wrap_once(Owner, "attribute", make, tool="tagstr_test", feature="x")


def test_wrapped_while_holds_inside_the_block_only() -> None:
    module = types.ModuleType("thirdparty")
    module.hello = lambda: "hi"  # type: ignore[attr-defined]
    stock = module.hello
    with pytest.raises(RuntimeError), wrapped_while(module, "hello", _shout, tool="tagstr_test", feature="x") as on:
        assert on and module.hello() == "HI" and module.hello.__wrapped__ is stock
        raise RuntimeError("the work failed")
    assert module.hello is stock


def test_wrapped_while_on_an_inherited_method_gives_the_inheritance_back() -> None:
    class Base:
        def value(self) -> str:
            return "base"

    class Child(Base):
        pass

    def loud(original: Callable[[Base], str]) -> Callable[[Base], str]:
        return lambda self: original(self).upper()

    with wrapped_while(Child, "value", loud, tool="tagstr_test", feature="x"):
        assert (Child().value(), Base().value()) == ("BASE", "base")
    assert "value" not in Child.__dict__ and Child().value() == "base"


def test_wrapped_while_leaves_a_later_replacement_in_place() -> None:
    module = types.ModuleType("thirdparty")
    module.hello = lambda: "hi"  # type: ignore[attr-defined]
    theirs = lambda: "theirs"  # noqa: E731
    with wrapped_while(module, "hello", _shout, tool="tagstr_test", feature="x"):
        module.hello = theirs  # type: ignore[attr-defined]
    assert module.hello is theirs


def test_wrapped_while_missing_or_rejected_is_soft(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("thirdparty")
    module.attribute = 42  # type: ignore[attr-defined]

    def make(original: Any) -> Any:
        raise TypeError(f"not a function: {original!r}")

    with pytest.warns(PatchWarning, match="thirdparty.gone .*not found"):
        with wrapped_while(module, "gone", _shout, tool="tagstr_test", feature="x") as on:
            assert not on
    monkeypatch.delenv("TAGSTR_STRICT", raising=False)
    with pytest.warns(PatchWarning, match="not a function: 42"):
        with wrapped_while(module, "attribute", make, tool="tagstr_test", feature="x") as on:
            assert not on and module.attribute == 42  # type: ignore[attr-defined]
    monkeypatch.setenv("TAGSTR_STRICT", "1")
    with pytest.raises(TypeError):
        with wrapped_while(module, "attribute", make, tool="tagstr_test", feature="x"):
            pass  # pragma: no cover
