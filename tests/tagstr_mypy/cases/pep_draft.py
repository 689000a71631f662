"""Tags typed with the PEP draft's own Protocols (its typing section, verbatim):
rejected, with mypy's reasons and the fix as notes of the error."""
from typing import Any, Callable, Literal, Protocol, runtime_checkable


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


def greet(*args: Decoded | Interpolation) -> str:
    """Handle arbitrary args using structural pattern matching."""
    result = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                result.append(decoded)
            case Interpolation() as interpolation:
                value = interpolation.getvalue()
                result.append(value.upper())  # E:31: "Callable[[], Any]" has no attribute "upper"  [attr-defined]

    return f"{''.join(result)}!"  # E:23: Argument 1 to "join" of "str" has incompatible type "list[Decoded]"; expected "Iterable[str]"  [arg-type]


class Page:
    def __init__(self, *args: Decoded | Interpolation) -> None:
        self.args = args


def render(tag: TagFunction) -> Any:
    return tag"<p>{tag}</p>"  # E:12: Tag "tag" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "TagFunction"  [tagstr-signature]
# N@55:12: This tag is typed with "pep_draft.Decoded" and "pep_draft.Interpolation", where tag strings pass tagstr_runtime's Decoded and Interpolation: import Decoded and Interpolation from tagstr_runtime, or use protocols they satisfy (see "Coming from the PEP draft" in docs/mypy.md)
# N@55:12: This tag string calls tag(tagstr_runtime.Decoded, tagstr_runtime.Interpolation[TagFunction], tagstr_runtime.Decoded), which fails:
# N@55:12:     Literal part 1 has incompatible type "tagstr_runtime.Decoded"; expected "pep_draft.Decoded | Interpolation"
# N@55:12:         Protocol member Decoded.raw expected settable variable, got read-only attribute
# N@55:12:     Interpolation "{tag}" has incompatible type "tagstr_runtime.Interpolation[TagFunction]"; expected "Decoded | pep_draft.Interpolation"
# N@55:12:         "Interpolation" is missing following "Decoded" protocol member:
# N@55:12:             raw
# N@55:12:         Protocol member Interpolation.conv expected settable variable, got read-only attribute
# N@55:12:         Protocol member Interpolation.expr expected settable variable, got read-only attribute
# N@55:12:             <1 more conflict(s) not shown>


name = "World"
greeting = greet"Hello {name} nice to meet you"  # E:12: Tag "greet" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "Callable[[VarArg(pep_draft.Decoded | pep_draft.Interpolation)], str]"  [tagstr-signature]
# N@69:12: This tag is typed with "pep_draft.Decoded" and "pep_draft.Interpolation", where tag strings pass tagstr_runtime's Decoded and Interpolation: import Decoded and Interpolation from tagstr_runtime, or use protocols they satisfy (see "Coming from the PEP draft" in docs/mypy.md)
# N@69:12: This tag string calls greet(tagstr_runtime.Decoded, tagstr_runtime.Interpolation[str], tagstr_runtime.Decoded), which fails:
# N@69:12:     Literal part 1 has incompatible type "tagstr_runtime.Decoded"; expected "pep_draft.Decoded | Interpolation"
# N@69:12:         Protocol member Decoded.raw expected settable variable, got read-only attribute
# N@69:12:     Interpolation "{name}" has incompatible type "tagstr_runtime.Interpolation[str]"; expected "Decoded | pep_draft.Interpolation"
# N@69:12:         "Interpolation" is missing following "Decoded" protocol member:
# N@69:12:             raw
# N@69:12:         Following member(s) of "Interpolation[str]" have conflicts:
# N@69:12:             Expected:
# N@69:12:                 def getvalue(self) -> Callable[[], Any]
# N@69:12:             Got:
# N@69:12:                 def () -> str
# N@69:12:         Protocol member Interpolation.conv expected settable variable, got read-only attribute
# N@69:12:         Protocol member Interpolation.expr expected settable variable, got read-only attribute
# N@69:12:             <1 more conflict(s) not shown>
greet"{name} and {name}, {name}"  # E:1: Tag "greet" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "Callable[[VarArg(pep_draft.Decoded | pep_draft.Interpolation)], str]"  [tagstr-signature]
# N@85:1: This tag is typed with "pep_draft.Decoded" and "pep_draft.Interpolation", where tag strings pass tagstr_runtime's Decoded and Interpolation: import Decoded and Interpolation from tagstr_runtime, or use protocols they satisfy (see "Coming from the PEP draft" in docs/mypy.md)
# N@85:1: This tag string calls greet(tagstr_runtime.Interpolation[str], tagstr_runtime.Decoded, tagstr_runtime.Interpolation[str], tagstr_runtime.Decoded, tagstr_runtime.Interpolation[str]), which fails:
# N@85:1:     Interpolation "{name}" has incompatible type "tagstr_runtime.Interpolation[str]"; expected "Decoded | pep_draft.Interpolation"
# N@85:1:         "Interpolation" is missing following "Decoded" protocol member:
# N@85:1:             raw
# N@85:1:         Following member(s) of "Interpolation[str]" have conflicts:
# N@85:1:             Expected:
# N@85:1:                 def getvalue(self) -> Callable[[], Any]
# N@85:1:             Got:
# N@85:1:                 def () -> str
# N@85:1:         Protocol member Interpolation.conv expected settable variable, got read-only attribute
# N@85:1:         Protocol member Interpolation.expr expected settable variable, got read-only attribute
# N@85:1:             <1 more conflict(s) not shown>
# N@85:1:     Literal part 1 has incompatible type "tagstr_runtime.Decoded"; expected "pep_draft.Decoded | Interpolation"
# N@85:1:         Protocol member Decoded.raw expected settable variable, got read-only attribute
greet""  # E:1: Tag "greet" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "Callable[[VarArg(pep_draft.Decoded | pep_draft.Interpolation)], str]"  [tagstr-signature]
# N@101:1: This tag is typed with "pep_draft.Decoded" and "pep_draft.Interpolation", where tag strings pass tagstr_runtime's Decoded and Interpolation: import Decoded and Interpolation from tagstr_runtime, or use protocols they satisfy (see "Coming from the PEP draft" in docs/mypy.md)
# N@101:1: This tag string's call fits, but greet"a" would call greet(tagstr_runtime.Decoded), which fails:
# N@101:1:     Literal part 1 has incompatible type "tagstr_runtime.Decoded"; expected "pep_draft.Decoded | Interpolation"
# N@101:1:         Protocol member Decoded.raw expected settable variable, got read-only attribute
Page"<p>{name}</p>"  # E:1: Tag "Page" cannot be called with tag-string arguments: a tag must accept "*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation", and it is "type[Page]"  [tagstr-signature]
# N@106:1: This tag is typed with "pep_draft.Decoded" and "pep_draft.Interpolation", where tag strings pass tagstr_runtime's Decoded and Interpolation: import Decoded and Interpolation from tagstr_runtime, or use protocols they satisfy (see "Coming from the PEP draft" in docs/mypy.md)
# N@106:1: This tag string calls Page(tagstr_runtime.Decoded, tagstr_runtime.Interpolation[str], tagstr_runtime.Decoded), which fails:
# N@106:1:     Literal part 1 has incompatible type "tagstr_runtime.Decoded"; expected "pep_draft.Decoded | Interpolation"
# N@106:1:         Protocol member Decoded.raw expected settable variable, got read-only attribute
# N@106:1:     Interpolation "{name}" has incompatible type "tagstr_runtime.Interpolation[str]"; expected "Decoded | pep_draft.Interpolation"
# N@106:1:         "Interpolation" is missing following "Decoded" protocol member:
# N@106:1:             raw
# N@106:1:         Following member(s) of "Interpolation[str]" have conflicts:
# N@106:1:             Expected:
# N@106:1:                 def getvalue(self) -> Callable[[], Any]
# N@106:1:             Got:
# N@106:1:                 def () -> str
# N@106:1:         Protocol member Interpolation.conv expected settable variable, got read-only attribute
# N@106:1:         Protocol member Interpolation.expr expected settable variable, got read-only attribute
# N@106:1:             <1 more conflict(s) not shown>
ignored = greet"{name}"  # type: ignore[tagstr-signature]
