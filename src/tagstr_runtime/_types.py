"""The values a tag function receives (SPEC 3, 6).

Both classes are concrete so that ``case Decoded()`` / ``case Interpolation()``
in a ``match`` statement cost one plain ``isinstance`` (the PEP's runtime-checkable
protocols would cost a structural check per argument).

``Interpolation`` deliberately has no Python-level ``__new__``: the desugared code
builds one per interpolation per evaluation, and inheriting ``tuple``'s C
constructor makes that about twice as fast as a ``NamedTuple``.  Like the
struct-sequences the PEP names as its model (``os.stat_result``), it is built from
one 4-item sequence.  ``InterpolationConcrete`` is the PEP's keyword-friendly
spelling for hand-written code.
"""

from _operator import itemgetter  # operator's C half: the module itself costs more than this one

__all__ = [
    "Conversion",
    "Decoded",
    "DecodedConcrete",
    "Interpolation",
    "InterpolationConcrete",
    "RawSpec",
    "TagFunction",
    "is_interpolation",
]

# No ``typing`` at run time (nor ``operator``, ``types`` or ``__future__``, which
# ``from __future__ import annotations`` imports: annotations naming what only type
# checkers see are quoted instead): every module with tag
# strings imports this one, and ``typing`` (about 10 ms) would be what a program of
# such modules pays at start-up that its f-string twin does not.  Type checkers read the ``TYPE_CHECKING`` branches;
# ``TagFunction`` and ``Conversion``, which need ``typing``, are built on first use.
TYPE_CHECKING = False  # mypy and pyright read this name as typing.TYPE_CHECKING
if TYPE_CHECKING:
    from typing import Any, Callable, Generic, Literal, Protocol, TypeVar

    from typing_extensions import TypeIs  # typeshed has it for every Python

    T = TypeVar("T")
    T_co = TypeVar("T_co", covariant=True)
    R_co = TypeVar("R_co", covariant=True)
    Conversion = Literal["a", "r", "s"]
    _Fields = tuple[Callable[[], T_co], str, Conversion | None, str | None]
else:
    T = T_co = R_co = None  # what the class statements below subscript with
    _Fields = tuple
    GenericAlias = type(tuple[int])  # types.GenericAlias, without importing types

    class _Subscriptable:
        """``typing.Generic`` as far as ``Interpolation`` needs it at run time:
        ``Interpolation[int]`` is a ``types.GenericAlias``, as ``tuple[int]`` is."""

        __slots__ = ()
        __class_getitem__ = classmethod(GenericAlias)

    Generic = _Subscriptable


class Decoded(str):
    """A literal part of a tag string: its ``str`` value is the cooked text.

    ``Decoded(raw)`` cooks ``raw`` exactly as Python cooks the body of an
    ordinary string literal (SPEC 3), so non-ASCII text survives unchanged.
    ``Decoded(value, raw=raw)`` takes both as given, as ``repr`` shows them
    when they differ (the text form writes a debug field ``{x=}`` this way:
    its text is never cooked).
    """

    #: the raw text where it differs from the cooked one, in the instance
    #: ``__dict__`` (str subclasses cannot have slots); most literals have none,
    #: and then no ``__dict__`` is ever made (``_rt.table`` builds them so)
    _raw: str | None = None

    def __new__(cls, value: str, /, raw: "str | None" = None) -> "Decoded":
        if raw is not None:
            return cls._from_parts(value, raw)
        from tagstr_runtime.syntax.escapes import cook

        return cls._from_parts(cook(value), value)

    @classmethod
    def _from_parts(cls, cooked: str, raw: str) -> "Decoded":
        """Build without re-cooking; the desugarer cooked (and validated) at compile time."""
        self = str.__new__(cls, cooked)
        if raw != cooked:
            object.__setattr__(self, "_raw", raw)
        return self

    @property
    def raw(self) -> str:
        """The source text, with ``{{`` and ``}}`` collapsed to one brace."""
        raw = self._raw
        return str.__str__(self) if raw is None else raw

    def __repr__(self) -> str:
        cooked = str.__repr__(self)
        if self._raw is None:
            return f"Decoded({cooked})"
        return f"Decoded({cooked}, raw={self._raw!r})"

    def __reduce__(self) -> "tuple[Any, ...]":
        return (_decoded_from_parts, (str(self), self.raw))

    def __setattr__(self, name: str, value: object) -> None:
        # named in full: code written for the PEP draft has a Protocol of its own
        # called Decoded, which declares ``raw`` settable
        raise AttributeError(f"tagstr_runtime.Decoded is immutable; cannot set {name!r}")


def _decoded_from_parts(cooked: str, raw: str) -> "Decoded":
    return Decoded._from_parts(cooked, raw)


class RawSpec(str):
    """A format spec whose text has a backslash: a ``str`` as written, as every spec (SPEC 3).

    It also keeps the text ``t"..."`` would build (escapes processed, nested
    fields as formatted), which the bridge hands to template libraries; every
    other spec is a plain ``str``.  See
    docs/decisions/0117-format-specs-with-escapes-in-the-bridge.md.
    """

    _cooked: str | None  # None: t"..." rejects the text, for the reason in _error
    _error: str

    @classmethod
    def _from_parts(cls, raw: str, cooked: "str | None", error: str = "") -> "RawSpec":
        self = str.__new__(cls, raw)
        object.__setattr__(self, "_cooked", cooked)
        object.__setattr__(self, "_error", error)
        return self

    def t_string_text(self) -> str:
        """The spec of the same field in ``t"..."``; ``ValueError`` if that would not compile."""
        if self._cooked is None:
            raise ValueError(f'format spec {str(self)!r}: {self._error} (t"..." rejects it)')
        return self._cooked

    def __reduce__(self) -> "tuple[Any, ...]":
        return (_raw_spec_from_parts, (str(self), self._cooked, self._error))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a format spec is immutable; cannot set {name!r}")


def _raw_spec_from_parts(raw: str, cooked: "str | None", error: str) -> "RawSpec":
    return RawSpec._from_parts(raw, cooked, error)


class Interpolation(_Fields[T_co], Generic[T_co]):
    """One replacement field: ``(getvalue, expr, conv, format_spec)``.

    ``getvalue()`` evaluates the expression in the tag string's scope each time
    it is called; nothing is evaluated unless the tag calls it (SPEC 4).
    """

    __slots__ = ()
    __match_args__ = ("getvalue", "expr", "conv", "format_spec")

    if TYPE_CHECKING:

        def __new__(
            cls,
            fields: tuple[Callable[[], T_co], str, Conversion | None, str | None],
            /,
        ) -> "Interpolation[T_co]": ...

        @property
        def getvalue(self) -> Callable[[], T_co]: ...
        @property
        def expr(self) -> str: ...
        @property
        def conv(self) -> Conversion | None: ...
        @property
        def format_spec(self) -> str | None: ...

    else:
        getvalue = property(itemgetter(0), doc="Zero-argument closure evaluating the expression.")
        expr = property(itemgetter(1), doc="The expression's source text, stripped.")
        conv = property(itemgetter(2), doc="'a', 'r', 's' or None.")
        format_spec = property(itemgetter(3), doc="The formatted spec, or None.")

        def __setattr__(self, name: str, value: object) -> None:
            # as Decoded's: the PEP draft's Protocol declares expr, conv and
            # format_spec settable (hidden from type checkers, for whom a
            # __setattr__ would make every attribute assignable)
            raise AttributeError(f"tagstr_runtime.Interpolation is immutable; cannot set {name!r}")

    def __repr__(self) -> str:
        return (
            f"Interpolation(getvalue={self[0]!r}, expr={self[1]!r}, "
            f"conv={self[2]!r}, format_spec={self[3]!r})"
        )


if not TYPE_CHECKING:
    # At run time the class statement's bases are ``tuple[None]`` and ``_Subscriptable[None]``
    # (its type variables are None there): runtime checkers read ``__orig_bases__`` as
    # "a tuple of one None" and reject every Interpolation (beartype). The MRO is tuple's.
    del Interpolation.__orig_bases__


class InterpolationConcrete(Interpolation["Any"]):
    """The PEP's pure-Python spelling: ``InterpolationConcrete(getvalue, expr, conv, spec)``."""

    __slots__ = ()

    def __new__(
        cls,
        getvalue: "Callable[[], Any]",
        expr: str,
        conv: "Conversion | None" = None,
        format_spec: "str | None" = None,
    ) -> "InterpolationConcrete":
        return tuple.__new__(cls, (getvalue, expr, conv, format_spec))


DecodedConcrete = Decoded


def is_interpolation(arg: "Decoded | Interpolation[T]", /) -> "TypeIs[Interpolation[T]]":
    """``isinstance(arg, Interpolation)`` for a type checker that must keep ``T``.

    mypy (2.0 to 2.4) narrows ``isinstance(arg, Interpolation)`` and
    ``case Interpolation(...)`` to ``Interpolation[Any]``, as it does every
    generic tuple subclass (docs/mypy.md, "Narrowing in a tag's body"); a
    ``TypeIs`` function keeps ``Interpolation[int]`` (``getvalue()`` is an
    ``int``), and its negative branch is ``Decoded``.
    """
    return isinstance(arg, Interpolation)


if TYPE_CHECKING:

    class TagFunction(Protocol[R_co]):
        """Anything callable as ``tag(*args: Decoded | Interpolation) -> R``."""

        def __call__(self, *args: Decoded | Interpolation[Any]) -> R_co: ...

else:

    def __getattr__(name: str) -> object:
        """``TagFunction`` and ``Conversion``, built with ``typing`` when first asked for (PEP 562)."""
        if name not in ("TagFunction", "Conversion"):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from typing import Any, Literal, Protocol, TypeVar

        R_co = TypeVar("R_co", covariant=True)

        class TagFunction(Protocol[R_co]):
            """Anything callable as ``tag(*args: Decoded | Interpolation) -> R``."""

            def __call__(self, *args: Decoded | Interpolation[Any]) -> R_co: ...

        TagFunction.__qualname__ = "TagFunction"
        globals().update(TagFunction=TagFunction, Conversion=Literal["a", "r", "s"])
        return globals()[name]
