"""Typing tags (SPEC 6): the tag string has the tag's return type."""
from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar, overload

from tagstr_runtime import Decoded, Interpolation, TagFunction

T = TypeVar("T")


def plain(*args: Decoded | Interpolation) -> str:
    return ""


def generic(*args: Decoded | Interpolation[T]) -> list[T]:
    return []


@overload
def ov(*args: Decoded | Interpolation[int]) -> int: ...  # type: ignore[overload-overlap]
@overload
def ov(*args: Decoded | Interpolation[str]) -> str: ...
def ov(*args: Any) -> Any:
    return 1


class Delayed:
    def __init__(self, *args: Decoded | Interpolation) -> None:
        self.args = args


class Box(Generic[T]):
    def __init__(self, *args: Decoded | Interpolation[T]) -> None:
        pass


class Callable_:
    def __call__(self, *args: Decoded | Interpolation) -> bytes:
        return b""


class Proto(Protocol):
    def __call__(self, *args: Decoded | Interpolation) -> float: ...


def from_protocol(tag: Proto, typed: TagFunction[complex]) -> None:
    reveal_type(tag"x")  # N:17: Revealed type is "float"
    reveal_type(typed"x {tag}")  # N:17: Revealed type is "complex"


def _(*args: Decoded | Interpolation) -> str:
    return ""


n = 1
s = "s"
instance = Callable_()
reveal_type(plain"")  # N:13: Revealed type is "str"
reveal_type(plain"a {n} b {s!r:>3}")  # N:13: Revealed type is "str"
reveal_type(generic"{n} {n + 1}")  # N:13: Revealed type is "list[int]"
reveal_type(generic"{n} {s}")  # N:13: Revealed type is "list[object]"
reveal_type(ov"abc")  # N:13: Revealed type is "int"
reveal_type(ov"abc {n}")  # N:13: Revealed type is "int"
reveal_type(ov"abc {s}")  # N:13: Revealed type is "str"
reveal_type(Delayed"x {n}")  # N:13: Revealed type is "tags.Delayed"
reveal_type(Box"{s}")  # N:13: Revealed type is "tags.Box[str]"
reveal_type(instance"{n}")  # N:13: Revealed type is "bytes"
reveal_type(_"translated {n}")  # N:13: Revealed type is "str"
reveal_type(plain"{plain"{n}"}")  # N:13: Revealed type is "str"
reveal_type(f"{plain"{n}":>{n}}")  # N:13: Revealed type is "str"
