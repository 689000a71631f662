"""The tag must be defined, callable and accept *args: Decoded | Interpolation."""
from abc import ABC, abstractmethod

from tagstr_runtime import Decoded, Interpolation


def one(s: str) -> str:
    return s


def strs(*args: str) -> str:
    return ""


def interpolations_only(*args: Interpolation) -> str:
    return ""


class NeedsStr:
    def __init__(self, s: str) -> None:
        pass


def ok(*args: Decoded | Interpolation) -> int:
    return 0


number = 3
undefined"x"  # E:1: Name "undefined" is not defined  [name-defined]
number"x {ok}"  # E:1: Tag "number" is not callable (its type is "int")  [tagstr-not-callable]
# N@30:1: This tag string calls number(Decoded, Interpolation[def ok(*args: Decoded | Interpolation[Any]) -> int]), which fails:
# N@30:1:     "int" not callable
x = one"abc"  # E:5: Tag "one" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "Callable[[str], str]"  [tagstr-signature]
# N@33:5: This tag string's call fits, but one"" would call one(), which fails:
# N@33:5:     Too few arguments for "one"
y = strs"abc {number}"  # E:5: Tag "strs" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "def strs(*args: str) -> str"  [tagstr-signature]
# N@36:5: This tag string calls strs(Decoded, Interpolation[int]), which fails:
# N@36:5:     Interpolation "{number}" has incompatible type "Interpolation[int]"; expected "str"
z = interpolations_only"{x}"  # E:5: Tag "interpolations_only" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "def interpolations_only(*args: Interpolation[Any]) -> str"  [tagstr-signature]
# N@39:5: This tag string's call fits, but interpolations_only"a" would call interpolations_only(Decoded), which fails:
# N@39:5:     Literal part 1 has incompatible type "Decoded"; expected "Interpolation[Any]"
w = NeedsStr"abc"  # E:5: Tag "NeedsStr" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "type[NeedsStr]"  [tagstr-signature]
# N@42:5: This tag string's call fits, but NeedsStr"" would call NeedsStr(), which fails:
# N@42:5:     Too few arguments for "NeedsStr"
reveal_type(ok"{undefined_too}")  # E:17: Name "undefined_too" is not defined  [name-defined]  # N:13: Revealed type is "int"
v = ok"{one"x"}"  # E:9: Tag "one" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "Callable[[str], str]"  [tagstr-signature]
# N@46:9: This tag string's call fits, but one"" would call one(), which fails:
# N@46:9:     Too few arguments for "one"


class AbstractTemplate(ABC):
    def __init__(self, *args: Decoded | Interpolation[object]) -> None: ...

    @abstractmethod
    def render(self) -> str: ...


count = 1
abstract = AbstractTemplate"value {count}"  # E:12: Cannot instantiate abstract class "AbstractTemplate" with abstract attribute "render"  [abstract]


def up_to_four(
    a: Decoded | Interpolation | None = None, b: Decoded | Interpolation | None = None,
    c: Decoded | Interpolation | None = None, d: Decoded | Interpolation | None = None,
) -> str:
    return ""


up_to_four"a {count} b"  # E:1: Tag "up_to_four" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "Callable[[Decoded | Interpolation[Any] | None, Decoded | Interpolation[Any] | None, Decoded | Interpolation[Any] | None, Decoded | Interpolation[Any] | None], str]"  [tagstr-signature]
# N@69:1: This tag string's call fits, but up_to_four"a{x}a{x}a" would call up_to_four(Decoded, Interpolation[Any], Decoded, Interpolation[Any], Decoded), which fails:
# N@69:1:     Too many arguments for "up_to_four"

from typing import Callable


def maybe(tag: Callable[..., str] | None) -> None:
    tag"x"  # E:5: Tag "tag" is not callable (its type is "Callable[..., str] | None")  [tagstr-not-callable]
# N@77:5: This tag string calls tag(Decoded), which fails:
# N@77:5:     "None" not callable
