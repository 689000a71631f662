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
x = one"abc"  # E:5: Tag "one" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "Callable[[str], str]"  [tagstr-signature]
y = strs"abc {number}"  # E:5: Tag "strs" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "def strs(*args: str) -> str"  [tagstr-signature]
z = interpolations_only"{x}"  # E:5: Tag "interpolations_only" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "def interpolations_only(*args: Interpolation[Any]) -> str"  [tagstr-signature]
w = NeedsStr"abc"  # E:5: Tag "NeedsStr" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "type[NeedsStr]"  [tagstr-signature]
reveal_type(ok"{undefined_too}")  # E:17: Name "undefined_too" is not defined  [name-defined]  # N:13: Revealed type is "int"
v = ok"{one"x"}"  # E:9: Tag "one" cannot be called with tag-string arguments: a tag must accept "*args: Decoded | Interpolation", and it is "Callable[[str], str]"  [tagstr-signature]


class AbstractTemplate(ABC):
    def __init__(self, *args: Decoded | Interpolation[object]) -> None: ...

    @abstractmethod
    def render(self) -> str: ...


count = 1
abstract = AbstractTemplate"value {count}"  # E:12: Cannot instantiate abstract class "AbstractTemplate" with abstract attribute "render"  [abstract]
