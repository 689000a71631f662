"""What the parser finds: tag strings and their parts, with exact spans.

The records are shared by the three consumers: the desugarer (to generate
code), the mypy plugin and the flake8 plugin (to report at original
positions).  Spans are ``[start, end)`` character offsets into the normalised
source; ``tagstr_runtime.syntax.source.SourceText.pos`` turns them into lines and
columns in any unit.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple, Union

__all__ = ["Field", "Literal", "Part", "Span", "TagString", "identifier"]


def identifier(name: str) -> str:
    """``name`` as the compiler stores it: NFKC-normalised (PEP 3131), so ``𝔥𝔱𝔪𝔩`` is ``html``.

    The one place names are compared the compiler's way: tags are found in
    CPython's tree, resolved in scopes and checked against keywords by it.
    """
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


class Span(NamedTuple):
    start: int
    end: int


class Literal(NamedTuple):
    """Literal text of a body or of a format spec.

    ``raw`` has ``{{``/``}}`` collapsed (in a body) and, for a debug field,
    includes the field's text up to ``=``.  ``cooked`` is the ``str`` value the
    tag sees; for format-spec text it equals ``raw`` (specs are raw, SPEC 2).
    """

    raw: str
    cooked: str
    span: Span


class Field(NamedTuple):
    """One replacement field ``{expr[=][!conv][:spec]}``."""

    expr: str  # stripped of surrounding whitespace and comments
    expr_span: Span  # the stripped expression
    span: Span  # from '{' to '}' inclusive
    debug: str | None  # for '{expr=}': the text from after '{' to after '=' and its whitespace
    conv: str | None  # as written; None when absent ('r' implied by debug is applied later)
    conv_span: Span | None
    spec: tuple[Part, ...] | None  # None when no ':'; () for an empty spec
    spec_span: Span | None  # after ':' up to '}'
    nested: tuple[TagString, ...]  # tag strings inside the expression, outermost first

    @property
    def effective_conv(self) -> str | None:
        """The conversion the tag receives: a debug field defaults to 'r' (f-string rule)."""
        if self.conv is None and self.debug is not None and self.spec is None:
            return "r"
        return self.conv

    def fields(self) -> tuple[Field, ...]:
        """This field and every field of its format spec, in source order."""
        out = [self]
        for part in self.spec or ():
            if isinstance(part, Field):
                out.extend(part.fields())
        return tuple(out)


Part = Union[Literal, Field]


class TagString(NamedTuple):
    tag: str  # the name as written (string prefixes are recognised as written, SPEC 1.2)
    tag_span: Span
    span: Span  # from the tag's first character to the closing quote inclusive
    quote: str  # ', ", ''' or \"\"\"
    body_span: Span  # between the quotes
    parts: tuple[Part, ...]  # literal parts merged as the tag sees them; empty ones dropped

    @property
    def name(self) -> str:
        """The tag's identifier, as the compiler reads ``tag`` (``identifier``)."""
        return identifier(self.tag)

    def fields(self) -> tuple[Field, ...]:
        """Every field (spec fields included) in source order: the argument chain order."""
        out: list[Field] = []
        for part in self.parts:
            if isinstance(part, Field):
                if part.spec:
                    out.extend(part.fields())
                else:  # most fields: no call, no temporary tuple
                    out.append(part)
        return tuple(out)

    def walk(self) -> tuple[TagString, ...]:
        """This tag string and every tag string nested in it, outermost first."""
        out = [self]
        for part in self.parts:
            if isinstance(part, Field) and (part.nested or part.spec):  # most fields: neither
                for field in part.fields():
                    for inner in field.nested:
                        out.extend(inner.walk())
        return tuple(out)
