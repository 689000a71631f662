"""Where migrating one tag string would change the text another construct shows.

The text of an interpolation's expression is part of what a program sees in
two places: an ``=`` field prints it (``f"{html'x'=}"``), and a tag that
reads ``expr`` gets it.  Rewriting a tag string inside such a text changes it
(``html'x'`` becomes ``html(t'x')``); rewriting the tag string that holds the
field changes how its own field text is shown.  ``Nesting`` finds, before
anything is rewritten, the tag strings that must stay for either reason
(MIG007, MIG017), and says which fields of a tag string would show another
text as a t-string (leading blanks or a comment in the expression: 3.14
keeps the first, drops the second; a tag string strips both).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Iterator

from tagstr_runtime.migrate.scan import ModuleScan
from tagstr_runtime.migrate.tag_facts import TagFacts
from tagstr_runtime.syntax.model import Field, Span, TagString

__all__ = ["Nesting", "changed_expression"]


class Nesting:
    """The ``=`` fields and expression texts of one module, and the tag strings they keep."""

    def __init__(self, scan: ModuleScan, text: str, facts: Callable[[TagString], tuple[TagFacts, ...] | None]
                 ) -> None:
        self.text = text
        every = [site.tag for site in scan.sites.values()]
        self.debug = _debug_fields(scan, text) + [
            field.expr_span for tag in every for field in tag.fields() if field.debug is not None
        ]
        ours = [t for t in every if not scan.is_template(t)]
        #: the ``=`` fields that hold a tag string: what holds one of them keeps it (MIG007)
        self.holding = [span for span in self.debug if any(_within(t.span, span) for t in ours)]
        #: tag strings in an expression whose text a tag reads: start -> that tag's name
        self.read_by: dict[int, tuple[str, int]] = {}
        for tag in every:
            found = facts(tag)
            if not found or not any(f.reads_expr for f in found):
                continue
            for part in tag.parts:
                if isinstance(part, Field):
                    for inner in part.nested:
                        for each in inner.walk():
                            self.read_by.setdefault(each.span.start, (found[0].name, tag.span.start))

    def debug_reason(self, tag: TagString) -> str | None:
        """Why migrating ``tag`` would change the text of an ``=`` field (MIG007)."""
        if any(_within(tag.span, span) for span in self.debug):
            return "is inside an '=' field"
        if any(_within(span, tag.span) for span in self.holding):
            return "holds a tag string in an '=' field"
        return None


def changed_expression(text: str, field: Field) -> str | None:
    """How 3.14 would write the field's expression text differently from a tag string's
    ``expr`` (None: the same text)."""
    before = text[field.span.start + 1 : field.expr_span.start]
    if before:
        return f"{'{' + before + field.expr + '}'!r}: a t-string keeps the blanks before the expression"
    if "#" in text[field.expr_span.start : field.expr_span.end]:
        return f"{'{' + field.expr + '}'!r}: a t-string drops its comment"
    return None


def _within(inner: Span, outer: Span) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


#: what follows the expression of an ``{expr=}`` field (closing brackets of the expression, blanks)
_DEBUG_MARK = re.compile(r"[ \t\n\\)]*=(?!=)")


def _debug_fields(module: ModuleScan, text: str) -> list[Span]:
    """The expressions of f-string and t-string fields written ``{expr=}``."""
    kinds = tuple(k for k in (ast.FormattedValue, getattr(ast, "Interpolation", None)) if k is not None)
    spans: list[Span] = []
    source = module.module.source
    assert source is not None
    for node in _nodes_of(module.module.tree, kinds):
        value = node.value  # type: ignore[attr-defined]
        if value.end_lineno is None or value.end_col_offset is None:
            continue
        start = source.offset(value.lineno, value.col_offset)
        end = source.offset(value.end_lineno, value.end_col_offset)
        if _DEBUG_MARK.match(text, end):
            spans.append(Span(start, end))
    return spans


def _nodes_of(tree: ast.AST, kinds: tuple[type, ...]) -> Iterator[ast.AST]:
    """The nodes of the kinds asked, under an f-string (the only place they are)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, kinds):
            yield node
        todo.extend(ast.iter_child_nodes(node))
