"""A tag string or a 3.14 t-string as the checks see it: strings, slots, and the way back to the source.

``of_site`` reads a tag string's ``Site`` (``desugarer.sites``: its runs map
each character to its source offset); ``of_template_str`` a 3.14
``ast.TemplateStr``, whose literal and interpolation nodes carry their source
spans, mapped through the same escape table (``syntax.escapes.cooked_origins``).
``Template.source_offset`` places a ``Finding`` in the source: a hole at its
``{``, a character of the text where the character that produced it is written.
"""

from __future__ import annotations

import ast
from typing import Callable, NamedTuple

from tagstr_runtime.syntax.escapes import cooked_origins
from tagstr_runtime.syntax.model import Literal
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.analysis.embedded import Finding, Slot
from tagstr_runtime.desugarer.sites import Hole, Site

__all__ = ["Template", "of_site", "of_template_str", "template_of_site", "template_of_tstring"]


class Template(NamedTuple):
    strings: tuple[str, ...]
    slots: tuple[Slot, ...]
    string_offset: Callable[[int, int], int]  # (part, offset in strings[part]) -> source offset
    holes: tuple[int, ...]  # the source offset of each hole's "{"

    def source_offset(self, finding: Finding) -> int:
        if finding.hole is not None:
            return self.holes[finding.hole]
        return self.string_offset(finding.part, min(finding.offset, len(self.strings[finding.part])))


def _slot(hole: Hole) -> Slot:
    field = hole.field
    spec = None
    if field.spec is not None:
        spec = "".join(part.cooked for part in field.spec if isinstance(part, Literal))
    return Slot(hole.text, field.conv, spec)


def of_site(site: Site) -> Template:
    """The template of one tag string (its body's fields are the holes; spec fields are not)."""
    holes = site.holes
    return Template(site.strings, tuple(_slot(h) for h in holes), site.string_offset,
                    tuple(h.field.span.start for h in holes))


def _literal_origins(source: str, start: int, end: int, raw: bool) -> tuple[str, list[int]]:
    """The text written at ``source[start:end]`` with doubled braces collapsed, and the source
    offset of each of its characters (then ``end``)."""
    text: list[str] = []
    offsets: list[int] = []
    at = start
    while at < end:
        char = source[at]
        text.append(char)
        offsets.append(at)
        at += 2 if char in "{}" and source.startswith(char * 2, at) else 1
    offsets.append(end)
    written = "".join(text)
    if raw:
        return written, offsets
    return written, [offsets[i] for i in cooked_origins(written)]


def of_template_str(node: ast.AST, source: SourceText) -> Template | None:
    """The template of a 3.14 ``ast.TemplateStr`` (None if its positions cannot be trusted)."""
    text = source.text
    start = source.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
    prefix = text[start : start + 3].split("'")[0].split('"')[0].lower()
    raw = "r" in prefix
    strings: list[str] = []
    origins: list[list[int]] = []
    slots: list[Slot] = []
    holes: list[int] = []
    last_end = start
    previous_was_text = False
    for value in getattr(node, "values", ()):
        begin = source.offset(value.lineno, value.col_offset)
        end = source.offset(value.end_lineno, value.end_col_offset)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            _, offsets = _literal_origins(text, begin, end, raw)
            if len(offsets) != len(value.value) + 1:  # implicit concatenation...: at the start
                offsets = [begin] * (len(value.value) + 1)
            strings.append(value.value)
            origins.append(offsets)
            previous_was_text = True
        else:
            if not previous_was_text:
                strings.append("")
                origins.append([begin])
            slots.append(_interpolation_slot(value))
            holes.append(begin)
            previous_was_text = False
        last_end = end
    if not previous_was_text:
        strings.append("")
        origins.append([last_end])
    if len(strings) != len(slots) + 1:
        return None
    return Template(tuple(strings), tuple(slots), lambda part, offset: origins[part][offset], tuple(holes))


def _interpolation_slot(value: ast.AST) -> Slot:
    conversion = getattr(value, "conversion", -1)
    spec_node = getattr(value, "format_spec", None)
    spec = None
    if spec_node is not None:
        spec = "".join(
            part.value for part in getattr(spec_node, "values", ())
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
    return Slot(str(getattr(value, "str", "") or ""), chr(conversion) if conversion > 0 else None, spec)


# the names ``tagstr_runtime.frontend`` gives them
template_of_site = of_site
template_of_tstring = of_template_str
