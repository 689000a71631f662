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

__all__ = ["KNOWN", "Builder", "Fields", "Parts", "TemplateKind", "kind_of_class", "qualified_name", "read_template"]

#: One interpolation: ``(value, expression, conversion, format_spec)``.
Fields = tuple[Any, str, Conversion | None, str]


class Parts(NamedTuple):
    strings: tuple[str, ...]  # always one more than the interpolations
    interpolations: tuple[Fields, ...]


class Builder(NamedTuple):
    """How to build one class: its interpolations, then the template from its parts in
    order (non-empty strings and interpolations, as 3.14's ``Template(*args)`` takes them)."""

    interpolation: Callable[[Any, str, Conversion | None, str], object]
    finish: Callable[..., object]  # called with the parts as arguments

    def from_parts(self, parts: Parts) -> object:
        items: list[Any] = []
        for text, fields in zip(parts.strings, parts.interpolations):
            if text:
                items.append(text)
            items.append(self.interpolation(*fields))
        if parts.strings[-1]:
            items.append(parts.strings[-1])
        return self.finish(*items)


class TemplateKind(NamedTuple):
    builder: Callable[[type[Any]], Builder]
    read: Callable[[Any], Parts]


def qualified_name(cls: type[Any]) -> str:
    """How messages call a class: ``tstrings.Template``; a builtin by its bare name."""
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def _sibling(cls: type[Any]) -> Any:
    """The ``Interpolation`` class defined beside a ``Template`` class."""
    return sys.modules[cls.__module__].Interpolation


def _pep750(cls: type[Any]) -> Builder:
    """``Template(*args)`` as 3.14 defines it (our stand-in and ``tstr``'s follow it)."""
    return Builder(_sibling(cls), cls)


def _read_pep750(template: Any) -> Parts:
    fields = tuple((i.value, i.expression, i.conversion, i.format_spec) for i in template.interpolations)
    return Parts(tuple(template.strings), fields)


def _tstrings(cls: type[Any]) -> Builder:
    """``tstrings-backport``: a dataclass of both tuples."""

    def finish(*items: Any) -> object:
        strings, interpolations = [""], []
        for item in items:
            if isinstance(item, str):
                strings[-1] += item
            else:
                interpolations.append(item)
                strings.append("")
        return cls(strings=tuple(strings), interpolations=tuple(interpolations))

    return Builder(_sibling(cls), finish)


def _sql_tstring(cls: type[Any]) -> Builder:
    """``sql_tstring.t.Template(items)``, of ``Interpolation(value)`` whose ``expr``,
    ``conv`` and ``format_spec`` are attributes set afterwards."""
    interpolation_class = _sibling(cls)

    def interpolation(value: Any, expression: str, conversion: Conversion | None, spec: str) -> object:
        item = interpolation_class(value)
        item.expr, item.conv, item.format_spec = expression, conversion, spec
        return item

    return Builder(interpolation, lambda *items: cls(list(items)))


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


_PEP750 = TemplateKind(_pep750, _read_pep750)

#: By ``(module, qualified name)`` of the class.
KNOWN: dict[tuple[str, str], TemplateKind] = {
    ("string.templatelib", "Template"): _PEP750,
    ("tagstr_runtime.bridge.template_types", "Template"): _PEP750,
    ("tstrings", "Template"): TemplateKind(_tstrings, _read_pep750),
    ("tstr._compat", "Template"): _PEP750,
    ("sql_tstring.t", "Template"): TemplateKind(_sql_tstring, _read_sql_tstring),
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
