"""What desugared code calls at run time: as little as possible.

A desugared module starts with ``from tagstr_runtime._rt import fields_table as
__tagstr__`` (or ``table``) followed by ``__tagstr_0__, __tagstr_1__, ... =
__tagstr__(TEXTS, RAWS)`` (written by ``desugarer.emit.RuntimeEmitter``): built once per
module execution, slot 0 is what makes an ``Interpolation`` and every other slot
a ``Decoded`` the module's tag strings pass, or a format spec with a backslash
(a ``RawSpec``, or for one with nested fields the function that builds it
from their formatted texts).  Each tag-string evaluation then
costs one global load per argument instead of constructing objects.  The
names are dunders: never exported by ``from m import *``, never mangled in
class bodies, and no user code has a reason to bind them.

Slot 0 of ``fields_table`` takes an interpolation's four fields
(``__tagstr_0__(lambda: x, 'x', None, None)``), the form the emitter writes
where the compiled ``_speedups`` is importable (``SPEEDUPS``); slot 0 of
``table`` takes one 4-tuple (``__tagstr_0__((lambda: x, 'x', None, None))``),
the form it writes where it is not: the class itself, whose call is then the
fastest pure-Python way (see
docs/decisions/0027-compiled-interpolation-constructor.md).  Each table serves its form whether or not the
module is there: the cache fingerprint keeps the two kinds of code apart
anyway.

Shipped code (``desugarer.shipped``: the plain-Python text a build hook puts
in a wheel) imports ``Interpolation``, ``decoded``, ``raw_spec``,
``raw_spec_fields``, ``conversion`` and ``format_value`` from here, typed so
that a consumer's type checker infers what the tag strings give.  Those
names are an interface: wheels built by one version run with every later
one, so they only ever gain optional parameters.
"""

# No ``from __future__ import annotations`` (it imports ``__future__``: ~0.1 ms in
# every process that runs a desugared module) and no ``itertools``: see _types.
import os
import sys

from tagstr_runtime._types import Decoded, Interpolation, RawSpec

__all__ = [
    "SPEEDUPS", "Interpolation", "conversion", "decoded", "fields_table", "format_value", "global_table", "raw_spec",
    "raw_spec_fields", "table",
]

TYPE_CHECKING = False  # no ``typing`` at run time (see _types)
if TYPE_CHECKING:
    from typing import Callable, Union

    from tagstr_runtime._types import Conversion
    from tagstr_runtime.run.formatting import format_value as format_value

    #: a spec entry of the table: its slot index, then its ``(raws, cooked)``
    #: (``desugarer.emit.Entry``: what each slot holds)
    SpecEntry = tuple[int, tuple[str, ...], Union[tuple[str, ...], str]]

_new = str.__new__
_set = object.__setattr__
_new_tuple = tuple.__new__

#: the compiled constructor's ABI (``_speedups.ABI``), 0 where it is not used; part of the
#: cache fingerprint, as it decides which form the emitter writes
SPEEDUPS = 0
_by_fields: "Callable[..., Interpolation[object]] | None" = None
if os.environ.get("TAGSTR_PURE_PYTHON", "") in ("", "0"):
    try:
        from tagstr_runtime import _speedups
    except ImportError:  # not built here (Pyodide, no compiler): the class itself
        pass
    else:
        _by_fields = _speedups.interpolation_factory(Interpolation)
        SPEEDUPS = _speedups.ABI


def _interpolation_of_fields(getvalue: object, expr: object, conv: object, format_spec: object) -> object:
    """``fields_table``'s slot 0 without ``_speedups``: correct, slower than the class (not written so)."""
    return _new_tuple(Interpolation, (getvalue, expr, conv, format_spec))


def table(
    texts: "tuple[str, ...]", raws: "tuple[tuple[int, str], ...]" = (), specs: "tuple[SpecEntry, ...]" = ()
) -> "list[object]":
    """The module's table: ``[Interpolation, Decoded(texts[0]), ...]``.

    ``texts`` are the cooked texts; ``raws`` pairs the index of each whose raw
    text differs with that text.  The others have no instance ``__dict__``
    (``Decoded.raw`` is then the text): half the cost of each object, and none
    for the cyclic collector to visit again.  ``specs`` replace their slots by
    format specs with a backslash (``RawSpec``, or the function building one).
    Slot 0 builds an ``Interpolation`` from one 4-tuple.
    """
    return _built(_by_fields or Interpolation, texts, raws, specs)


def fields_table(
    texts: "tuple[str, ...]", raws: "tuple[tuple[int, str], ...]" = (), specs: "tuple[SpecEntry, ...]" = ()
) -> "list[object]":
    """``table``, whose slot 0 builds an ``Interpolation`` from its four fields."""
    return _built(_by_fields or _interpolation_of_fields, texts, raws, specs)


def _built(
    first: object, texts: "tuple[str, ...]", raws: "tuple[tuple[int, str], ...]", specs: "tuple[SpecEntry, ...]"
) -> "list[object]":
    built: list[object] = [first, *decoded(texts, raws)]
    for index, spec_raws, cooked in specs:
        built[index + 1] = _spec(spec_raws, cooked)
    return built


def decoded(texts: "tuple[str, ...]", raws: "tuple[tuple[int, str], ...]" = ()) -> "list[Decoded]":
    """``Decoded(texts[0]), ...``, each with the raw text ``raws`` pairs with its index
    (the others' raw text is their text): the literal parts of a module, made once."""
    built = list(map(_new, [Decoded] * len(texts), texts))
    for index, raw in raws:
        _set(built[index], "_raw", raw)
    return built


def raw_spec(raws: "tuple[str]", cooked: "tuple[str] | str") -> RawSpec:
    """A format spec with a backslash and no nested field (see ``table``'s ``specs``)."""
    return _raw_spec(raws, cooked, ())


def raw_spec_fields(raws: "tuple[str, ...]", cooked: "tuple[str, ...] | str") -> "Callable[..., RawSpec]":
    """The builder of a format spec with a backslash and nested fields: called with
    the formatted text of each field."""
    return lambda *formatted: _raw_spec(raws, cooked, formatted)


def conversion(conv: "Conversion") -> "Conversion":
    """``conv`` itself: a conversion a type checker knows is one (shipped code names
    it once in its prologue where it cannot be written as a literal in place)."""
    return conv


def __getattr__(name: str) -> object:
    """``format_value`` (shipped code with a nested field in a format spec), imported on first use."""
    if name != "format_value":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from tagstr_runtime.run.formatting import format_value

    globals()["format_value"] = format_value
    return format_value


def global_table(
    name: str, texts: "tuple[str, ...]", raws: "tuple[tuple[int, str], ...]" = (),
    specs: "tuple[SpecEntry, ...]" = (),
) -> "list[object]":
    """``table(texts, raws, specs)``, also bound to ``name`` in the caller's globals: an
    ``eval``-mode expression reads it there from any scope (``desugarer.emit.RuntimeEmitter.eval_table``)."""
    built = sys._getframe(1).f_globals[name] = table(texts, raws, specs)
    return built


def _spec(raws: "tuple[str, ...]", cooked: "tuple[str, ...] | str") -> object:
    if len(raws) == 1:
        return _raw_spec(raws, cooked, ())
    return lambda *formatted: _raw_spec(raws, cooked, formatted)


def _raw_spec(raws: "tuple[str, ...]", cooked: "tuple[str, ...] | str", formatted: "tuple[str, ...]") -> RawSpec:
    """The spec: each literal text, then the formatted text of the field after it."""
    raw = _join(raws, formatted)
    if isinstance(cooked, str):
        return RawSpec._from_parts(raw, None, cooked)
    return RawSpec._from_parts(raw, _join(cooked, formatted))


def _join(texts: "tuple[str, ...]", formatted: "tuple[str, ...]") -> str:
    out = [texts[0]]
    for value, text in zip(formatted, texts[1:]):
        out += (value, text)
    return "".join(out)
