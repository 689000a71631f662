"""The ``Template`` classes the bridge builds and reads.

3.14's ``string.templatelib.Template``, our stand-in, and the backports real
libraries check for before 3.14: ``tstrings-backport`` (``tstrings.Template``,
what users install), and a library's own where it has one (``tstr``'s, and
``sql-tstring``'s ``sql_tstring.t.Template``).  Classes are known by module
and name, so no library is imported unless the caller already holds one of
its classes.  A template is read as its strings (one more than its
interpolations) and each interpolation's ``(value, expression, conversion,
format_spec)``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, NamedTuple

from tagstr_runtime._types import Conversion

__all__ = ["Fields", "Parts", "TemplateKind", "kind_of_class", "qualified_name", "read_template"]

#: One interpolation: ``(value, expression, conversion, format_spec)``.
Fields = tuple[Any, str, Conversion | None, str]


class Parts(NamedTuple):
    strings: tuple[str, ...]  # always one more than the interpolations
    interpolations: tuple[Fields, ...]


class TemplateKind(NamedTuple):
    build: Callable[[type[Any], Parts], object]
    read: Callable[[Any], Parts]


def qualified_name(cls: type[Any]) -> str:
    """How messages call a class: ``tstrings.Template``; a builtin by its bare name."""
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def _sibling(cls: type[Any], name: str) -> Any:
    """The ``Interpolation`` class defined beside a ``Template`` class."""
    return getattr(sys.modules[cls.__module__], name)


def _build_pep750(cls: type[Any], parts: Parts) -> object:
    """``Template(*args)`` as 3.14 defines it (our stand-in and ``tstr``'s follow it)."""
    interpolation = _sibling(cls, "Interpolation")
    args: list[object] = []
    for text, fields in zip(parts.strings, parts.interpolations):
        if text:
            args.append(text)
        args.append(interpolation(*fields))
    if parts.strings[-1]:
        args.append(parts.strings[-1])
    return cls(*args)


def _read_pep750(template: Any) -> Parts:
    fields = tuple((i.value, i.expression, i.conversion, i.format_spec) for i in template.interpolations)
    return Parts(tuple(template.strings), fields)


def _build_tstrings(cls: type[Any], parts: Parts) -> object:
    """``tstrings-backport``: a dataclass built from both tuples."""
    interpolation = _sibling(cls, "Interpolation")
    return cls(strings=parts.strings, interpolations=tuple(interpolation(*fields) for fields in parts.interpolations))


def _build_sql_tstring(cls: type[Any], parts: Parts) -> object:
    """``sql_tstring.t.Template(parts)``: non-empty strings and ``Interpolation(value)``,
    whose ``expr``, ``conv`` and ``format_spec`` are attributes set afterwards."""
    interpolation = _sibling(cls, "Interpolation")
    items: list[object] = []
    for text, (value, expression, conversion, spec) in zip(parts.strings, parts.interpolations):
        if text:
            items.append(text)
        item = interpolation(value)
        item.expr, item.conv, item.format_spec = expression, conversion, spec
        items.append(item)
    if parts.strings[-1]:
        items.append(parts.strings[-1])
    return cls(items)


def _read_sql_tstring(template: Any) -> Parts:
    strings = [""]
    fields: list[Fields] = []
    for item in template:
        if isinstance(item, str):
            strings[-1] += item
        else:
            fields.append((item.value, item.expr, item.conv, item.format_spec))
            strings.append("")
    return Parts(tuple(strings), tuple(fields))


_PEP750 = TemplateKind(_build_pep750, _read_pep750)

#: By ``(module, qualified name)`` of the class; the first is the one named in messages.
KNOWN: dict[tuple[str, str], TemplateKind] = {
    ("string.templatelib", "Template"): _PEP750,
    ("tagstr_runtime._templatelib", "Template"): _PEP750,
    ("tstrings", "Template"): TemplateKind(_build_tstrings, _read_pep750),
    ("tstr._compat", "Template"): _PEP750,
    ("sql_tstring.t", "Template"): TemplateKind(_build_sql_tstring, _read_sql_tstring),
}


def kind_of_class(cls: type[Any]) -> TemplateKind | None:
    return KNOWN.get((cls.__module__, cls.__qualname__))


def read_template(obj: object) -> Parts | None:
    """The parts of a template of a known class, or of any object with 3.14's
    ``strings`` and ``interpolations``; ``None`` for anything else."""
    kind = kind_of_class(type(obj))
    if kind is not None:
        return kind.read(obj)
    if not (hasattr(obj, "strings") and hasattr(obj, "interpolations")):
        return None
    try:
        parts = _read_pep750(obj)
    except (AttributeError, TypeError):
        raise TypeError(
            f"{qualified_name(type(obj))} has 'strings' and 'interpolations' but is not a template: its "
            "interpolations need 'value', 'expression', 'conversion' and 'format_spec'"
        ) from None
    if len(parts.strings) != len(parts.interpolations) + 1:
        raise TypeError(f"{qualified_name(type(obj))} is not a template: it needs one more string than interpolations")
    return parts
