"""Tags written for the PEP draft that tag strings do call: the draft's Protocols
corrected (read-only members as properties, getvalue returning the value), and
its widened form ``*args: str | tuple``."""
from typing import Any, Literal, Protocol, runtime_checkable


@runtime_checkable
class Decoded(Protocol):
    def __str__(self) -> str: ...

    @property
    def raw(self) -> str: ...


@runtime_checkable
class Interpolation(Protocol):
    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> Any: ...

    def getvalue(self) -> Any: ...

    @property
    def expr(self) -> str: ...

    @property
    def conv(self) -> Literal["a", "r", "s"] | None: ...

    @property
    def format_spec(self) -> str | None: ...


class TagFunction(Protocol):
    def __call__(self, *args: Decoded | Interpolation) -> Any: ...


def greet(*args: Decoded | Interpolation) -> str:
    result = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                result.append(str(decoded))
            case Interpolation() as interpolation:
                value = interpolation.getvalue()
                result.append(value.upper())
    return f"{''.join(result)}!"


class Page:
    def __init__(self, *args: Decoded | Interpolation) -> None:
        self.args = args


def widened(*args: str | tuple) -> list[str | tuple]:
    return list(args)


def render(tag: TagFunction) -> Any:
    return tag"<p>{tag}</p>"


def first(arg: Decoded | Interpolation) -> str:
    return str(arg)


name = "World"
reveal_type(greet"Hello {name} nice to meet you")  # N:13: Revealed type is "str"
reveal_type(Page"<p>{name}</p>")  # N:13: Revealed type is "pep_draft_fixed.Page"
reveal_type(widened"Hello {name}")  # N:13: Revealed type is "list[str | tuple[Any, ...]]"
render(greet)
first"{name}"  # E:1: Tag "first" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "Callable[[pep_draft_fixed.Decoded | pep_draft_fixed.Interpolation], str]"  [tagstr-signature]
# N@71:1: This tag string's call fits, but first"" would call first(), which fails:
# N@71:1:     Too few arguments for "first"
