"""CSS: tinycss2's parser (CSS Syntax Level 3), for a style sheet or a list of declarations.

A text with a ``{`` is a style sheet, else the declarations of a ``style``
attribute.  A hole becomes an identifier (``x`` and a private-use character,
valid in every value); one in a rule's selector is reported, since escaping a
value does not make it a selector.  tinycss2 reports a bad declaration where
it gave up (the ``;``): it is placed at the start of the declaration.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import tinycss2

from tagstr_runtime.analysis.embedded import Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined

__all__ = ["check"]

_MARK = 0xE000


def _placeholder(index: int) -> str:
    return "x" + chr(_MARK + index % 6400)


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    # tinycss2 reads "\r" and "\f" as line ends: so does the line table, on the same text
    joined = Joined([s.replace("\r", "\n").replace("\f", "\n") for s in strings], _placeholder)
    text = joined.text
    lines = joined.line_starts()

    def offset(node: Any) -> int:
        line: int = node.source_line
        column: int = node.source_column
        return lines[line - 1] + column - 1

    findings: list[Finding] = []
    if "{" in text:
        rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
        findings.extend(_rules(joined, rules, offset))
        findings.extend(_unclosed(joined, tinycss2.parse_component_value_list(text), offset))
    else:
        items = tinycss2.parse_blocks_contents(text, skip_comments=True, skip_whitespace=True)
        findings.extend(_declarations(joined, items, offset))
        findings.extend(_unclosed(joined, tinycss2.parse_component_value_list(text), offset))
    return sorted(findings, key=lambda f: (joined.holes[f.hole][0] if f.hole is not None
                                           else joined.starts[f.part] + f.offset, f.kind))


def _rules(joined: Joined, rules: list[Any], offset: Any) -> Iterator[Finding]:
    for rule in rules:
        if rule.type == "error":
            yield _error(joined, rule, offset)
        elif rule.type == "qualified-rule":
            yield from _selector_holes(joined, rule.prelude, offset)
            items = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
            yield from _declarations(joined, items, offset)
        elif rule.type == "at-rule" and rule.content is not None:
            nested = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
            yield from _declarations(joined, nested, offset)


def _declarations(joined: Joined, items: list[Any], offset: Any) -> Iterator[Finding]:
    for item in items:
        if item.type == "error":
            yield _error(joined, item, offset)
        elif item.type == "declaration":
            yield from _bad_tokens(joined, item.value, offset)
        elif item.type == "qualified-rule":  # nesting
            yield from _rules(joined, [item], offset)


def _bad_tokens(joined: Joined, tokens: list[Any], offset: Any) -> Iterator[Finding]:
    for token in tokens:
        if token.type == "error":
            yield joined.finding("css.syntax", offset(token), detail=_message(token.message))
        elif getattr(token, "content", None) is not None and token.type in ("() block", "[] block", "function"):
            yield from _bad_tokens(joined, token.arguments if token.type == "function" else token.content, offset)


def _error(joined: Joined, error: Any, offset: Any) -> Finding:
    at = offset(error)
    text = joined.text
    if error.message.startswith(("Stop token", "EOF reached")) and at > 0:
        # tinycss2 gave up at the ";" or the end: the faulty declaration starts after the previous one
        start = max(text.rfind(";", 0, at), text.rfind("{", 0, at), text.rfind("}", 0, at)) + 1
        while start < at and text[start].isspace():
            start += 1
        at = start
        detail = "not a declaration ('property: value') nor a rule: check for a missing ':' or '{'"
    else:
        detail = _message(error.message)
    return joined.finding("css.syntax", at, detail=detail)


def _message(message: str) -> str:
    return message.rstrip(".")


def _unclosed(joined: Joined, tokens: list[Any], offset: Any, end: int | None = None) -> Iterator[Finding]:
    """A block the text ends inside (tinycss2 closes it silently; CSS Syntax calls it an error):
    at its ``{``.  ``end``: where the enclosing block's content ends."""
    text = joined.text
    stop = len(text) if end is None else end
    nodes = [t for t in tokens if t.type not in ("whitespace", "comment")]
    for index, node in enumerate(nodes):
        if node.type not in ("{} block", "[] block", "() block", "function"):
            continue
        start = offset(node)
        after = offset(nodes[index + 1]) if index + 1 < len(nodes) else stop
        content = node.arguments if node.type == "function" else node.content
        inner = [t for t in content if t.type not in ("whitespace", "comment")]
        last = offset(inner[-1]) + len(inner[-1].serialize()) if inner else start + 1
        closer = {"{} block": "}", "[] block": "]", "() block": ")", "function": ")"}[node.type]
        if closer not in text[last:after]:
            yield joined.finding("css.syntax", start, detail=f"the text ends before this block's {closer!r}",
                                 fix=f"close it with {closer!r}")
            return
        yield from _unclosed(joined, content, offset, after)


def _selector_holes(joined: Joined, prelude: list[Any], offset: Any) -> Iterator[Finding]:
    for token in prelude:
        if token.type == "whitespace":
            continue
        start = offset(token)
        end = start + len(token.serialize())
        for hole, (hole_start, _) in enumerate(joined.holes):
            if start <= hole_start < end:
                yield joined.at_hole("css.hole-selector", hole)
