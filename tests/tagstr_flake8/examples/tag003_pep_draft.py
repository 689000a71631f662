"""TAG003 without our types: tags typed as the PEP draft types them."""
from typing import (
    Any, Callable, Literal, Protocol, TypeAlias, runtime_checkable,
)


@runtime_checkable
class Decoded(Protocol):
    def __str__(self) -> str:
        ...

    raw: str


@runtime_checkable
class Interpolation(Protocol):
    def __len__(self):
        ...

    def __getitem__(self, index: int):
        ...

    def getvalue(self) -> Callable[[], Any]:
        ...

    expr: str
    conv: Literal["a", "r", "s"] | None
    format_spec: str | None


class TagFunction(Protocol):
    def __call__(self, *args: Decoded | Interpolation) -> Any:
        ...


class Chunk(Protocol):
    """The draft's Decoded under another name."""

    def __str__(self) -> str: ...

    @property
    def raw(self) -> str: ...


class Field(Protocol):
    """The draft's Interpolation under another name."""

    def getvalue(self) -> Any: ...

    @property
    def expr(self) -> str: ...


class Buffer(Protocol):
    """A getvalue of another kind."""

    def getvalue(self) -> bytes: ...


Part = Decoded | Interpolation
Piece: TypeAlias = "Chunk | Field"


def f(*args: Decoded | Interpolation) -> str:  # TAG003:1
    return "".join(str(a) for a in args)


def r(*args: "Decoded | Interpolation") -> str:  # TAG003:1
    return ""


def b(*args: Part) -> str:  # TAG003:1
    return ""


def u(*args: Chunk | Field) -> str:  # TAG003:1
    return ""


def rb(*args: Piece) -> str:  # TAG003:1
    return ""


def br(*args: str | tuple) -> str:  # TAG003:1
    out = []
    for arg in args:
        if isinstance(arg, str):
            out.append(arg)
        else:
            getvalue, _, _, _ = arg
            out.append(str(getvalue()))
    return "".join(out)


def fr(*args: str | tuple) -> str:
    return "".join(map(str, args))


def rf(*args: Buffer) -> bytes:
    return b"".join(a.getvalue() for a in args)  # TAG014:12


class Rt:
    def __call__(self, *args: Part) -> str:
        return ""


R: "TagFunction" = f  # TAG003:1
Br = Rt()  # TAG003:1
U = b  # TAG003:1
