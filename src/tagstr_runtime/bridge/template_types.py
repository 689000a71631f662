"""A stand-in for Python 3.14's ``string.templatelib`` on 3.11-3.13.

Why a stand-in rather than an error: on 3.11-3.13 nothing else can build a
``Template`` (``t"..."`` is a tag string there), so a tag made with
``template_tag`` and the template libraries written against
``tagstr_runtime.templatelib`` would otherwise be untestable before 3.14.  It
copies 3.14's observable behaviour (constructor rules, ``strings`` always one
longer than ``interpolations``, iteration skipping empty strings, ``+`` only
between templates, ``repr``, pickling, immutability, no subclassing, identity
equality); ``tests/tagstr_runtime/test_templatelib.py`` runs the same
assertions against the real module on 3.14.  It is not ``string.templatelib``:
an ``isinstance`` check against the real classes cannot pass on 3.11-3.13,
and its messages name ``tagstr_runtime.templatelib`` where 3.14's name
``string.templatelib``, a module that does not exist before 3.14.
"""

from __future__ import annotations

from types import GenericAlias
from typing import Any, Generic, Iterator, Literal, NoReturn, TypeVar, overload

#: The public module that exports these classes: what messages call them.
_MODULE = "tagstr_runtime.templatelib"

__all__ = ["Interpolation", "Template", "convert"]

T = TypeVar("T")

Conversion = Literal["a", "r", "s"]


class _Final:
    """Like 3.14's classes: immutable and not an acceptable base type."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        if _Final not in cls.__bases__:
            final = next(base for base in cls.__mro__[1:] if _Final in base.__bases__)
            raise TypeError(f"type '{_MODULE}.{final.__name__}' is not an acceptable base type")
        super().__init_subclass__(**kwargs)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("readonly attribute")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("readonly attribute")


class Interpolation(_Final, Generic[T]):
    """One replacement field of a template: the value already evaluated."""

    __slots__ = ("value", "expression", "conversion", "format_spec")
    __match_args__ = ("value", "expression", "conversion", "format_spec")

    value: T
    expression: str
    conversion: Conversion | None
    format_spec: str

    def __init__(
        self, value: T, expression: str = "", conversion: Conversion | None = None, format_spec: str = ""
    ) -> None:
        if conversion not in (None, "a", "r", "s"):
            raise ValueError("Interpolation() argument 'conversion' must be one of 's', 'a' or 'r'")
        for name, given in (("expression", expression), ("format_spec", format_spec)):
            if not isinstance(given, str):
                raise TypeError(f"Interpolation() argument '{name}' must be str, not {type(given).__name__}")
        set_slot = object.__setattr__
        set_slot(self, "value", value)
        set_slot(self, "expression", expression)
        set_slot(self, "conversion", conversion)
        set_slot(self, "format_spec", format_spec)

    def __repr__(self) -> str:
        return f"Interpolation({self.value!r}, {self.expression!r}, {self.conversion!r}, {self.format_spec!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Interpolation, (self.value, self.expression, self.conversion, self.format_spec))

    def __class_getitem__(cls, item: Any) -> GenericAlias:
        return GenericAlias(cls, item)


class Template(_Final):
    """Static strings and interpolations, always alternating, strings one longer."""

    __slots__ = ("strings", "interpolations")

    strings: tuple[str, ...]
    interpolations: tuple[Interpolation[Any], ...]

    def __init__(self, *args: str | Interpolation[Any]) -> None:
        strings: list[str] = []
        interpolations: list[Interpolation[Any]] = []
        text: str | None = None  # consecutive strings are concatenated
        for arg in args:
            if isinstance(arg, str):
                text = arg if text is None else text + arg
            elif isinstance(arg, Interpolation):
                strings.append("" if text is None else text)
                interpolations.append(arg)
                text = None
            else:
                raise TypeError(
                    "Template.__new__ *args need to be of type 'str' or 'Interpolation', "
                    f"got {type(arg).__name__}"
                )
        strings.append("" if text is None else text)
        object.__setattr__(self, "strings", tuple(strings))
        object.__setattr__(self, "interpolations", tuple(interpolations))

    @classmethod
    def _from_parts(cls, strings: tuple[str, ...], interpolations: tuple[Interpolation[Any], ...]) -> Template:
        """Build from parts that already alternate (the order kept as given)."""
        self = object.__new__(cls)
        object.__setattr__(self, "strings", strings)
        object.__setattr__(self, "interpolations", interpolations)
        return self

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(i.value for i in self.interpolations)

    def __iter__(self) -> Iterator[str | Interpolation[Any]]:
        for index, text in enumerate(self.strings):
            if text:
                yield text
            if index < len(self.interpolations):
                yield self.interpolations[index]

    def __add__(self, other: Template) -> Template:
        if not isinstance(other, Template):
            raise TypeError(
                f"can only concatenate {_MODULE}.Template "
                f'(not "{type(other).__name__}") to {_MODULE}.Template'
            )
        middle = self.strings[-1] + other.strings[0]
        strings = (*self.strings[:-1], middle, *other.strings[1:])
        return Template._from_parts(strings, self.interpolations + other.interpolations)

    def __radd__(self, other: object) -> Template:
        if isinstance(other, str):
            raise TypeError(f'can only concatenate str (not "{_MODULE}.Template") to str')
        return NotImplemented

    def __repr__(self) -> str:
        return f"Template(strings={self.strings!r}, interpolations={self.interpolations!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Template._from_parts, (self.strings, self.interpolations))

    def __class_getitem__(cls, item: Any) -> GenericAlias:
        return GenericAlias(cls, item)


@overload
def convert(obj: T, /, conversion: None) -> T: ...


@overload
def convert(obj: object, /, conversion: Conversion) -> str: ...


def convert(obj: object, /, conversion: Conversion | None) -> object:
    """Convert *obj* using formatted string literal semantics."""
    if conversion is None:
        return obj
    if conversion == "r":
        return repr(obj)
    if conversion == "s":
        return str(obj)
    if conversion == "a":
        return ascii(obj)
    raise ValueError(f"invalid conversion specifier: {conversion}")
