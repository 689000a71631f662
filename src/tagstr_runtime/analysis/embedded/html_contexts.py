"""Where each hole of an HTML template stands, and the opt-in strict mode, from html5lib's tokens.

``html`` runs the tokenizer and records, as it goes, which state read each
character and where each tag token starts; this module judges each hole by
that state (text, quoted or unquoted attribute value, name, raw text,
comment), and checks end tags against start tags for the strict mode.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Iterator

from html5lib import constants

from tagstr_runtime.analysis.embedded import Finding
from tagstr_runtime.analysis.embedded.joined import Joined

__all__ = ["Tags", "has_placeholder", "hole_findings", "placeholder", "spreads", "strict_findings"]

#: (start, end, token) of each start and end tag token, in text order
Tags = list[tuple[int, int, dict[str, Any]]]

_MARK = 0xE000  # placeholders: "x" + chr(_MARK + hole) (private use, 6400 of them)


def placeholder(index: int) -> str:
    """Hole ``index``'s stand-in: ``x`` (a tag or attribute name may start with it) and a mark."""
    return "x" + chr(_MARK + index % 6400)


def has_placeholder(name: str) -> bool:
    return any(_MARK <= ord(c) < _MARK + 6400 for c in name)


# tokenizer states -> the context of a hole whose placeholder they consume
_CONTEXTS = {
    "dataState": "text", "entityDataState": "text", "rcdataState": "text",
    "characterReferenceInData": "text",
    "tagOpenState": "tag-name", "closeTagOpenState": "tag-name", "tagNameState": "tag-name",
    "rcdataEndTagNameState": "tag-name", "rawtextEndTagNameState": "tag-name",
    "scriptDataEndTagNameState": "tag-name", "scriptDataEscapedEndTagNameState": "tag-name",
    "beforeAttributeNameState": "attribute-name", "attributeNameState": "attribute-name",
    "afterAttributeNameState": "attribute-name", "selfClosingStartTagState": "attribute-name",
    "beforeAttributeValueState": "unquoted-value", "attributeValueUnQuotedState": "unquoted-value",
    "attributeValueDoubleQuotedState": "quoted-value", "attributeValueSingleQuotedState": "quoted-value",
    "afterAttributeValueState": "quoted-value",
    "rawtextState": "raw-text", "plaintextState": "raw-text",
    "bogusCommentState": "comment", "markupDeclarationOpenState": "comment",
    "commentStartState": "comment", "commentStartDashState": "comment", "commentState": "comment",
    "commentEndDashState": "comment", "commentEndState": "comment", "commentEndBangState": "comment",
    "cdataSectionState": "raw-text",
}
# attributes whose value is a URL (a javascript: URL runs its text)
_URL_ATTRIBUTES = frozenset([
    "href", "src", "action", "formaction", "xlink:href", "data", "poster", "cite", "background",
    "codebase", "longdesc", "usemap", "manifest", "ping",
])


# hole contexts ----------------------------------------------------------------------


def _contexts(joined: Joined, states: list[tuple[int, str]]) -> Iterator[tuple[int, int, int, str]]:
    """``(hole, start, end, context)`` of each hole, by the tokenizer's state that read it."""
    befores = [before for before, _ in states]
    for hole, (start, end) in enumerate(joined.holes):
        index = bisect_right(befores, start) - 1
        state = states[index][1] if index >= 0 else "dataState"
        context = _CONTEXTS.get(state)
        if context is None:
            context = "script" if state.startswith("scriptData") else "markup"
        yield hole, start, end, context


def spreads(joined: Joined, states: list[tuple[int, str]]) -> list[int]:
    """The holes standing alone where an attribute goes (``<div {attrs}>``)."""
    return [hole for hole, start, end, context in _contexts(joined, states)
            if context == "attribute-name" and _is_spread(joined.text, start, end)]


def hole_findings(joined: Joined, states: list[tuple[int, str]], tags: Tags) -> Iterator[Finding]:
    """The holes outside text and quoted attribute values, by the tokenizer's state that read them."""
    for hole, start, end, context in _contexts(joined, states):
        if context == "text":
            continue
        if context in ("script", "raw-text"):
            yield joined.at_hole("html.hole-raw-text", hole, element=_raw_element(tags, start))
        elif context == "comment":
            yield joined.at_hole("html.hole-comment", hole)
        elif context in ("tag-name", "markup"):
            yield joined.at_hole("html.hole-name", hole, what="a tag name")
        elif context == "attribute-name":
            if not _is_spread(joined.text, start, end):
                yield joined.at_hole("html.hole-name", hole, what="an attribute name")
        else:
            yield from _value_hole(joined, tags, hole, start, unquoted=context == "unquoted-value")


def _is_spread(text: str, start: int, end: int) -> bool:
    """A hole standing alone where an attribute goes: ``<div {attrs}>``."""
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    return before.isspace() and (after == "" or after.isspace() or after in "/>")


def _value_hole(joined: Joined, tags: Tags, hole: int, start: int, *, unquoted: bool) -> Iterator[Finding]:
    name, prefix = _attribute_of(tags, start, placeholder(hole))
    if name.startswith("on"):
        yield joined.at_hole("html.hole-event", hole, name=name)
    elif name in _URL_ATTRIBUTES and _is_script_url(prefix):
        yield joined.at_hole("html.hole-script-url", hole, name=name)
    elif unquoted:
        yield joined.at_hole("html.hole-unquoted", hole, name=name)


def _attribute_of(tags: Tags, start: int, marker: str) -> tuple[str, str]:
    """The attribute whose value holds the placeholder at ``start``, and the value before it."""
    for tag_start, tag_end, token in tags:
        if tag_start <= start < tag_end:
            for name, value in token["data"].items() if isinstance(token["data"], dict) else token["data"]:
                at = value.find(marker)
                if at >= 0:
                    return name, value[:at]
    return "", ""


def _is_script_url(prefix: str) -> bool:
    cleaned = "".join(c for c in prefix if not c.isspace() and ord(c) > 0x20).lower()
    return cleaned.startswith(("javascript:", "vbscript:"))


def _raw_element(tags: Tags, start: int) -> str:
    name = "script"
    for tag_start, _, token in tags:
        if tag_start > start:
            break
        if token["type"] == constants.tokenTypes["StartTag"]:
            name = token["name"]
    return name


# strict mode ------------------------------------------------------------------------


def strict_findings(joined: Joined, tags: Tags) -> Iterator[Finding]:
    """XHTML-like: every non-void element closed by an end tag written as its start tag."""
    text = joined.text
    stack: list[tuple[str, int]] = []  # (name as written, start)
    start_tag = constants.tokenTypes["StartTag"]
    for start, _, token in tags:
        name: str = token["name"]
        if has_placeholder(name):
            continue
        written = text[start + 1 : start + 1 + len(name)]
        if token["type"] == start_tag:
            if name not in constants.voidElements and not token.get("selfClosing"):
                stack.append((written, start))
            continue
        written = text[start + 2 : start + 2 + len(name)]
        match = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0].lower() == name), None)
        if match is None:
            continue  # a stray end tag: html5lib reports it
        for inner, inner_start in stack[match + 1 :]:
            yield joined.finding("html.strict", inner_start, detail=f"<{inner}> has no end tag", fix=f"add </{inner}>")
        opened = stack[match][0]
        if opened != written:
            yield joined.finding("html.strict", start, detail=f"</{written}> closes <{opened}>",
                                 fix="write the names alike")
        del stack[match:]
    for inner, inner_start in stack:
        yield joined.finding("html.strict", inner_start, detail=f"<{inner}> has no end tag", fix=f"add </{inner}>")
