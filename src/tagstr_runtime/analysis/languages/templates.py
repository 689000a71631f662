"""A tag string or a 3.14 t-string as the checks see it: strings, slots, and the way back to the source.

``of_tag_string`` reads the parser's model; ``of_template_str`` a 3.14
``ast.TemplateStr``, whose literal and interpolation nodes carry their source
spans.  ``Template.source_offset`` maps a ``Finding`` to the source offset of
the character it names: each literal's escapes (``\\n``, ``\\x41``, ``{{``) map
every character they produce to their first character.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from tagstr_runtime._escapes import _ESCAPE
from tagstr_runtime._model import Field, Literal, TagString
from tagstr_runtime._source import SourceText
from tagstr_runtime.analysis.languages import Finding, Slot

__all__ = ["Template", "of_tag_string", "of_template_str"]


class Template(NamedTuple):
    strings: tuple[str, ...]
    slots: tuple[Slot, ...]
    origins: tuple[tuple[int, ...], ...]  # per string: the source offset of each character, then its end
    holes: tuple[int, ...]  # the source offset of each hole's "{"

    def source_offset(self, finding: Finding) -> int:
        if finding.hole is not None:
            return self.holes[finding.hole]
        origin = self.origins[finding.part]
        return origin[min(finding.offset, len(origin) - 1)]


def _origins(source: str, start: int, end: int, cooked: str, *, raw: bool, braces: bool) -> tuple[int, ...]:
    """The source offset of each character of ``cooked``, written at ``source[start:end]``."""
    out: list[int] = []
    at = start
    while at < end:
        char = source[at]
        if braces and char in "{}" and source.startswith(char * 2, at):
            out.append(at)
            at += 2
        elif char == "\\" and not raw:
            match = _ESCAPE.match(source, at, end)
            if match is None or match.end() == at:
                out.append(at)
                at += 1
                continue
            kind = match.lastgroup
            if kind in ("simple", "octal", "hex2", "hex4", "hex8", "name"):
                out.append(at)
            elif kind != "newline":  # kept verbatim: \d, a lone backslash
                out.extend(range(at, match.end()))
            at = match.end()
        else:
            out.append(at)
            at += 1
    if len(out) != len(cooked):  # merged text (a debug field): place everything at the start
        out = [start] * len(cooked)
    out.append(end)
    return tuple(out)


def _slot(field: Field) -> Slot:
    spec = None
    if field.spec is not None:
        spec = "".join(part.cooked for part in field.spec if isinstance(part, Literal))
    return Slot(field.expr, field.conv, spec)


def of_tag_string(tag: TagString, source: str) -> Template:
    """The template of one tag string (its body's fields are the holes; spec fields are not)."""
    strings: list[str] = []
    origins: list[tuple[int, ...]] = []
    slots: list[Slot] = []
    holes: list[int] = []
    pending: Literal | None = None
    for part in tag.parts:
        if isinstance(part, Literal):
            pending = part
            continue
        _add(strings, origins, pending, source, part.span.start if pending is None else pending.span.end)
        pending = None
        slots.append(_slot(part))
        holes.append(part.span.start)
    _add(strings, origins, pending, source, tag.body_span.end)
    return Template(tuple(strings), tuple(slots), tuple(origins), tuple(holes))


def _add(strings: list[str], origins: list[tuple[int, ...]], literal: Literal | None, source: str, at: int) -> None:
    if literal is None:
        strings.append("")
        origins.append((at,))
    else:
        strings.append(literal.cooked)
        origins.append(_origins(source, literal.span.start, literal.span.end, literal.cooked, raw=False, braces=True))


def of_template_str(node: ast.AST, source: SourceText) -> Template | None:
    """The template of a 3.14 ``ast.TemplateStr`` (None if its positions cannot be trusted)."""
    text = source.text
    start = source.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
    prefix = text[start : start + 3].split("'")[0].split('"')[0].lower()
    raw = "r" in prefix
    strings: list[str] = []
    origins: list[tuple[int, ...]] = []
    slots: list[Slot] = []
    holes: list[int] = []
    last_end = start
    previous_was_text = False
    for value in getattr(node, "values", ()):
        begin = source.offset(value.lineno, value.col_offset)
        end = source.offset(value.end_lineno, value.end_col_offset)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            strings.append(value.value)
            origins.append(_origins(text, begin, end, value.value, raw=raw, braces=True))
            previous_was_text = True
        else:
            if not previous_was_text:
                strings.append("")
                origins.append((begin,))
            slots.append(_interpolation_slot(value))
            holes.append(begin)
            previous_was_text = False
        last_end = end
    if not previous_was_text:
        strings.append("")
        origins.append((last_end,))
    if len(strings) != len(slots) + 1:
        return None
    return Template(tuple(strings), tuple(slots), tuple(origins), tuple(holes))


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
