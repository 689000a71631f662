"""Texts that stand for a source with tag strings, line for line: the placeholder and the mask.

Both overwrite each outermost tag string in place and keep every line and
column, so a stock tool that reads them reports at the original positions:

* ``placeholder_text``: what CPython parses.  Each tag string becomes a call
  with the same UTF-8 byte length per line (``ast`` counts columns in bytes)::

      tag"Hi, {name!r:>{w}}{{!}}"   ->   tag(     name,,  w,       )
      tag"{a + 1}{b or c}"          ->   tag((a + 1)(b or c))

  The tag name stays, the quotes become the call's parentheses, every field
  becomes one argument with its expression text untouched, and all other text
  becomes spaces (or the commas between arguments).  A field that is not a
  plain name is parenthesised; two such fields with no room for a comma
  between them parse as a one-argument call ``(a + 1)(b or c)``: the offsets
  of such *chained* fields are recorded for the generator, which unpicks them.
* ``mask_text``: what a tokenizer reads (flake8's pycodestyle and ``# noqa``).
  Each tag string becomes a plain string literal with the same *character*
  columns (``tokenize``'s unit): ``html"<b>{d["k"]}</b>"`` becomes
  ``html"xxxxxxxxxxxxxx"``.

Both are built with ``splice``, the one loop that replaces spans of a text.
"""

from __future__ import annotations

import keyword
import re
from typing import Callable, Iterable, TypeVar

from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.syntax.parser import _SPACE, _match_end

__all__ = ["field_terminator", "fstring_twin_text", "mask_text", "placeholder_text", "splice"]

_T = TypeVar("_T")
_DOTTED_NAME = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_CONSTANT_KEYWORDS = frozenset(["None", "True", "False"])
# what the mask overwrites in a body delimited by the key: all but newlines and the other quote
_MASKED = {'"': re.compile(r"[^\n']"), "'": re.compile(r'[^\n"]')}


def splice(
    text: str,
    items: Iterable[_T],
    span_of: Callable[[_T], Span],
    replace: Callable[[_T], str],
    start: int = 0,
    end: int | None = None,
) -> str:
    """``text[start:end]`` with the span of each item (ordered, not overlapping) replaced."""
    out: list[str] = []
    pos = start
    for item in items:
        span = span_of(item)
        out.append(text[pos : span.start])
        out.append(replace(item))
        pos = span.end
    out.append(text[pos : len(text) if end is None else end])
    return "".join(out)


def _tag_span(tag: TagString) -> Span:
    return tag.span


def field_terminator(text: str, field: Field) -> int:
    """Offset of the ``=``, ``!``, ``:`` or ``}`` that ends a field's expression."""
    return _match_end(_SPACE, text, field.expr_span.end)


# -- the placeholder ---------------------------------------------------------------


def _blank(text: str) -> str:
    """Spaces of the same UTF-8 length as ``text``, newlines kept."""
    if text.isascii():
        return _blank_chars(text)
    return "".join("\n" if c == "\n" else " " * len(c.encode("utf-8")) for c in text)


def _blank_chars(text: str) -> str:
    """Spaces of the same length in characters as ``text``, newlines kept."""
    if "\n" not in text:
        return " " * len(text)
    return "\n".join(" " * len(line) for line in text.split("\n"))


def _is_simple(field: Field) -> bool:
    """A (dotted) name: valid as a call argument without parentheses."""
    return _DOTTED_NAME.fullmatch(field.expr) is not None and (
        not keyword.iskeyword(field.expr.split(".", 1)[0]) or field.expr in _CONSTANT_KEYWORDS
    )


class _Placeholders:
    """Each field is one argument: `` name,`` for a simple field, ``(expr)`` and a
    comma wherever the blanked text after it has room, else *chained*."""

    def __init__(self, text: str, blank: Callable[[str], str] = _blank, twin: TagString | None = None) -> None:
        self.text = text
        self.blank = blank
        self.chained: set[int] = set()  # offsets of fields chained to the previous one
        self.twin = twin  # the tag string written as its f-string twin instead (fstring_twin_text)
        self._simple: dict[str, bool] = {}  # _is_simple by expression text (the same few recur)

    def fill(self, start: int, end: int, tags: Iterable[TagString]) -> str:
        return splice(self.text, tags, _tag_span, self.tag, start, end)

    def tag(self, tag: TagString) -> str:
        if tag is self.twin:
            return self.fstring(tag)
        text = self.text
        pad = " " * (len(tag.quote) - 1)
        out = [tag.tag, "(" + pad]
        pos = tag.body_span.start
        pending = False  # the last argument is a parenthesised field still needing a comma
        for field in tag.fields():  # pre-order: spec fields follow their field
            gap = self.blank(text[pos : field.span.start])
            if pending:
                room = gap.find(" ")
                if room >= 0:
                    gap = gap[:room] + "," + gap[room + 1 :]
                    pending = False
            out.append(gap)
            term = field_terminator(text, field)
            simple = self._simple.get(field.expr)
            if simple is None:
                simple = self._simple[field.expr] = _is_simple(field)
            if simple:
                out.append("," if pending else " ")
                out.append(text[field.span.start + 1 : term])
                out.append(",")
                pending = False
            else:
                if pending:
                    self.chained.add(field.span.start)
                out.append("(")
                out.append(self.fill(field.span.start + 1, term, field.nested))
                out.append(")")
                pending = True
            pos = term + 1
        out.append(self.blank(text[pos : tag.body_span.end]))
        out.append(pad + ")")
        return "".join(out)

    def fstring(self, tag: TagString) -> str:
        """``tag`` as an f-string of the same byte layout: the name blank but an ``f``,
        literal text blank (spec text too), fields as written, tag strings in them placeholders."""
        text = self.text
        items: list[Literal | TagString] = [part for part in tag.parts if isinstance(part, Literal)]
        for field in tag.fields():
            items.extend(field.nested)
            items.extend(part for part in field.spec or () if isinstance(part, Literal))
        items.sort(key=_start)
        body = splice(text, items, _span, self._twin_part, tag.body_span.start, tag.body_span.end)
        return self.blank(tag.tag)[:-1] + "f" + tag.quote + body + tag.quote

    def _twin_part(self, item: Literal | TagString) -> str:
        if isinstance(item, TagString):
            return self.tag(item)
        return self.blank(self.text[item.span.start : item.span.end])


def _span(item: Literal | TagString) -> Span:
    return item.span


def _start(item: Literal | TagString) -> int:
    return item.span.start


def fstring_twin_text(text: str, tags: Iterable[TagString], twin: TagString) -> str:
    """The placeholder text, with ``twin`` (any tag string of ``tags``, nested ones too)
    written as its f-string twin in the same columns: ``html"<b>{a +}</b>"`` becomes
    ``   f"   {a +}    "``, for CPython 3.12+ to say what it says of the twin's fields."""
    return _Placeholders(text, twin=twin).fill(0, len(text), tags)


def placeholder_text(
    text: str, tags: Iterable[TagString], chained: set[int] | None = None, *, char_columns: bool = False
) -> str:
    """The source with every outermost tag string replaced by its placeholder.

    ``chained`` receives the offsets of the fields chained to their predecessor.
    ``char_columns``: keep each line's length in characters rather than in UTF-8
    bytes, for a tool that counts columns in characters (ruff) rather than as
    ``ast`` does; the two differ only on lines with non-ASCII text in a tag string.
    """
    builder = _Placeholders(text, _blank_chars if char_columns else _blank)
    out = builder.fill(0, len(text), tags)
    if chained is not None:
        chained |= builder.chained
    return out


# -- the mask ------------------------------------------------------------------------


def mask_text(text: str, tags: Iterable[TagString], *, keep_names: bool = True) -> str:
    """``text`` with each (outermost) tag string masked as a plain string literal.

    Every line keeps its length in characters, so the tokens of everything
    outside tag strings are exactly the original ones, and each tag string is
    one ``NAME STRING`` pair.  A single-quoted tag string whose fields span
    lines keeps its lines through backslash continuations (``"xx\\``); if a
    field holds an empty line, which no single-quoted literal can, it becomes a
    triple-quoted literal without the name.  Quotes of the other kind than the
    delimiter stay (``html"{d['k']}"`` -> ``html"xx'x'xx"``): a tool checking
    quote style (flake8-quotes) sees why the string has the quotes it has.

    ``keep_names=False`` masks the name too: each tag string becomes one
    string literal, so the masked text also *parses* (a reader that runs
    ``ast.parse`` beside its tokenizer, as coverage's HTML report does, needs
    that; ``NAME STRING`` is a syntax error).
    """
    mask = _mask if keep_names else _mask_whole
    return splice(text, tags, _tag_span, lambda tag: mask(text, tag))


def _mask(text: str, tag: TagString) -> str:
    body = text[tag.body_span.start : tag.body_span.end]
    quote = tag.quote
    masked = _MASKED[quote[0]]
    if len(quote) == 3 or "\n" not in body:
        return tag.tag + quote + masked.sub("x", body) + quote
    segments = body.split("\n")
    if all(segments[:-1]):
        continued = [masked.sub("x", s[:-1]) + "\\" for s in segments[:-1]]
        return tag.tag + quote + "\n".join([*continued, masked.sub("x", segments[-1])]) + quote
    lines = text[tag.span.start : tag.span.end].split("\n")
    if len(lines[0]) < 3 or len(lines[-1]) < 3:  # no room for the triple quotes
        return text[tag.span.start : tag.span.end]
    lines = ['"""' + "x" * (len(lines[0]) - 3)] + ["x" * len(line) for line in lines[1:-1]] + [
        "x" * (len(lines[-1]) - 3) + '"""'
    ]
    return "\n".join(lines)


def _mask_whole(text: str, tag: TagString) -> str:
    """The tag string, name included, as one plain literal in its own quote character
    (the one its context, e.g. a 3.11 f-string field, allows)."""
    lines = text[tag.span.start : tag.span.end].split("\n")
    q = tag.quote[0]
    if len(tag.quote) == 1 and len(lines) == 1:
        return q + "x" * (len(lines[0]) - 2) + q
    if len(tag.quote) == 1 and all(lines[1:-1]):  # continued by backslashes, as _mask does
        middle = ["x" * (len(line) - 1) + "\\" for line in lines[1:-1]]
        return "\n".join([q + "x" * (len(lines[0]) - 2) + "\\", *middle, "x" * (len(lines[-1]) - 1) + q])
    if len(lines[0]) < 3 or len(lines[-1]) < 3:  # no room for the triple quotes
        return text[tag.span.start : tag.span.end]
    body = [q * 3 + "x" * (len(lines[0]) - 3)] + ["x" * len(line) for line in lines[1:-1]]
    return "\n".join([*body, "x" * (len(lines[-1]) - 3) + q * 3])
