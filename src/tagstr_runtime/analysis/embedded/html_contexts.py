"""Where each hole of an HTML template stands, and the opt-in strict mode, from html5lib's tokens.

``html`` runs the tokenizer and records, as it goes, which state read each
character and where each tag token starts; this module chooses each hole's
placeholder, judges each hole by that state (text, quoted or unquoted
attribute value, name, raw text, comment), and checks end tags against start
tags for the strict mode.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Iterator, Sequence

from html5lib import constants

from tagstr_runtime.analysis.embedded import Finding, Slot
from tagstr_runtime.analysis.embedded.joined import Joined

__all__ = ["EVENT_HANDLERS", "Placeholders", "framework_script", "Tags", "has_placeholder", "hole_findings", "spreads",
           "strict_findings"]

#: (start, end, token) of each start and end tag token, in text order
Tags = list[tuple[int, int, dict[str, Any]]]

_MARK = 0xE000  # placeholders: "x" + a private-use character (U+E000-U+F8FF, 6400 of them)
_NAMES = 0xF000  # ... from here, those of holes in tag names: one per expression
_END = 0xF900
_TAG_NAME = re.compile(r"</?[A-Za-z][^\s/>\"'=<]*$|</?$")
_END_NAME = re.compile(r"</([A-Za-z][^\s/>\"'=<]*)?$")


def has_placeholder(name: str) -> bool:
    return any(_MARK <= ord(c) < _END for c in name)


class Placeholders:
    """Each hole's stand-in: ``x`` (a tag or attribute name may start with it) and a mark.

    A hole in a tag name (``<{tag}>``, ``<h{level}>``) gets the same mark as every hole of
    the same expression there, so ``<h{level}>...</h{level}>`` opens and closes one
    element.  A hole written right after a start tag's name with no end tag of that
    expression (``<label{attrs}>``) spreads attributes: a space before its placeholder
    ends the name (``glued``), so the element keeps its own name.
    """

    def __init__(self, strings: Sequence[str], slots: Sequence[Slot]) -> None:
        names: dict[str, int] = {}
        ended = {slot.expr for slot, before in zip(slots, strings) if _END_NAME.search(before)}
        self.glued: set[int] = set()
        self._names: dict[int, int] = {}
        for index, (slot, before) in enumerate(zip(slots, strings)):
            if not _TAG_NAME.search(before):
                continue
            after = strings[index + 1][:1]
            glued = before[-1:].isalnum() and not before.lstrip().startswith("</") and "<" in before
            if (glued and slot.expr not in ended and (after == "" or after.isspace() or after in "/>")
                    and not before[before.rfind("<"):].startswith("</")):
                self.glued.add(index)
            else:
                self._names[index] = names.setdefault(slot.expr, len(names))

    def of(self, index: int) -> str:
        name = self._names.get(index)
        if name is not None:
            return "x" + chr(_NAMES + name % (_END - _NAMES))
        mark = "x" + chr(_MARK + index % (_NAMES - _MARK))
        return " " + mark if index in self.glued else mark


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
#: The event handler content attributes (WHATWG HTML's GlobalEventHandlers, WindowEventHandlers
#: and DocumentAndElementEventHandlers; the pointer, touch, animation and transition events;
#: SVG's animation events): an attribute starting with "on" is not one by that alone.
EVENT_HANDLERS = frozenset("on" + name for name in """
    abort afterprint animationcancel animationend animationiteration animationstart auxclick
    beforecopy beforecut beforeinput beforematch beforepaste beforeprint beforetoggle beforeunload
    begin blur cancel canplay canplaythrough change click close command contextlost contextmenu
    contextrestored copy cuechange cut dblclick drag dragend dragenter dragexit dragleave dragover
    dragstart drop durationchange emptied end ended error focus focusin focusout formdata
    fullscreenchange fullscreenerror gotpointercapture hashchange input invalid keydown keypress
    keyup languagechange load loadeddata loadedmetadata loadend loadstart lostpointercapture message
    messageerror mousedown mouseenter mouseleave mousemove mouseout mouseover mouseup mousewheel
    offline online pagehide pagereveal pageshow pageswap paste pause play playing pointercancel
    pointerdown pointerenter pointerleave pointermove pointerout pointerover pointerrawupdate
    pointerup popstate progress ratechange rejectionhandled repeat reset resize scroll scrollend
    securitypolicyviolation seeked seeking select selectionchange selectstart slotchange stalled
    storage submit suspend timeupdate toggle touchcancel touchend touchmove touchstart
    transitioncancel transitionend transitionrun transitionstart unhandledrejection unload
    volumechange waiting webkitanimationend webkitanimationiteration webkitanimationstart
    webkittransitionend wheel zoom
""".split())


# hole contexts ----------------------------------------------------------------------


def _contexts(joined: Joined, placeholders: Placeholders,
              states: list[tuple[int, str]]) -> Iterator[tuple[int, int, int, str]]:
    """``(hole, start, end, context)`` of each hole, by the tokenizer's state that read it
    (a glued hole's placeholder from its mark on, after the space that ends the name)."""
    befores = [before for before, _ in states]
    for hole, (start, end) in enumerate(joined.holes):
        if hole in placeholders.glued:
            start += 1
        index = bisect_right(befores, start) - 1
        state = states[index][1] if index >= 0 else "dataState"
        context = _CONTEXTS.get(state)
        if context is None:
            context = "script" if state.startswith("scriptData") else "markup"
        yield hole, start, end, context


def spreads(joined: Joined, placeholders: Placeholders, states: list[tuple[int, str]]) -> list[int]:
    """The holes standing alone where an attribute goes (``<div {attrs}>``)."""
    return [hole for hole, start, end, context in _contexts(joined, placeholders, states)
            if context == "attribute-name" and _is_spread(joined.text, states, start, end)]


def hole_findings(joined: Joined, placeholders: Placeholders, states: list[tuple[int, str]], tags: Tags,
                  foreign_raw: Sequence[tuple[int, str]] = (), *, opt_in: bool = False) -> Iterator[Finding]:
    """The holes outside text and quoted attribute values, by the tokenizer's state that read them
    (``foreign_raw``: where text went into an SVG ``<script>`` or ``<style>``)."""
    raw_starts = [start for start, _ in foreign_raw]
    for hole, start, end, context in _contexts(joined, placeholders, states):
        if context == "text":
            index = bisect_right(raw_starts, start) - 1
            if index >= 0 and _text_run_holds(joined.text, raw_starts[index], start):
                yield joined.at_hole("html.hole-raw-text", hole, element=foreign_raw[index][1])
            continue
        if context in ("script", "raw-text"):
            yield joined.at_hole("html.hole-raw-text", hole, element=_raw_element(tags, start))
        elif context == "comment":
            yield joined.at_hole("html.hole-comment", hole)
        elif context in ("tag-name", "markup"):
            yield joined.at_hole("html.hole-name", hole, what="a tag name")
        elif context == "attribute-name":
            if not _is_spread(joined.text, states, start, end):
                yield joined.at_hole("html.hole-name", hole, what="an attribute name")
        else:
            yield from _value_hole(joined, tags, hole, start, end, unquoted=context == "unquoted-value",
                                   opt_in=opt_in)


def _text_run_holds(text: str, run_start: int, at: int) -> bool:
    """Whether the character token starting at ``run_start`` reaches ``at`` (no tag between)."""
    return "<" not in text[run_start:at]


def _is_spread(text: str, states: list[tuple[int, str]], start: int, end: int) -> bool:
    """A hole standing alone where an attribute goes: ``<div {attrs}>``, also right after a
    quoted value (``<a href="{url}"{attrs}>``: the missing space is the hole's)."""
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if not (after == "" or after.isspace() or after in "/>"):
        return False
    if before.isspace():
        return True
    return before in "\"'" and (start, "afterAttributeValueState") in states


def _value_hole(joined: Joined, tags: Tags, hole: int, start: int, end: int, *, unquoted: bool,
                opt_in: bool) -> Iterator[Finding]:
    name, prefix = _attribute_of(joined.text, tags, start, joined.text[start:end])
    framework = framework_script(name, prefix) if opt_in else None
    if name in EVENT_HANDLERS:
        yield joined.at_hole("html.hole-event", hole, name=name)
    elif name in _URL_ATTRIBUTES and _is_script_url(prefix):
        yield joined.at_hole("html.hole-script-url", hole, name=name)
    elif framework is not None:  # opt-in (TAG116)
        yield joined.at_hole("html.hole-framework-script", hole, name=name, framework=framework)
    elif unquoted:
        yield joined.at_hole("html.hole-unquoted", hole, name=name or "?")
    elif opt_in and name in _URL_ATTRIBUTES and not prefix.strip():  # opt-in (TAG117)
        yield joined.at_hole("html.hole-whole-url", hole, name=name)


# Alpine.js and Vue directives whose value is no JavaScript expression
_NOT_SCRIPT = frozenset(["x-cloak", "x-ref", "x-ignore", "x-teleport", "x-transition", "v-cloak", "v-pre",
                         "v-once", "v-memo"])


def framework_script(name: str, prefix: str) -> str | None:
    """The framework that runs attribute ``name``'s value (its text before the hole: ``prefix``)
    as JavaScript: htmx's ``hx-on:*`` and ``js:`` values, Alpine.js's and Vue's directives
    (``x-data``, ``x-on:click``, ``@click``, ``:class``, ``v-if``...); else None."""
    if name.startswith(("hx-on", "data-hx-on")):
        return "htmx"
    if name in ("hx-vals", "hx-headers", "data-hx-vals", "data-hx-headers"):
        return "htmx" if prefix.lstrip().lower().startswith(("js:", "javascript:")) else None
    if name in ("hx-vars", "data-hx-vars"):
        return "htmx"
    directive = name.split(":", 1)[0].split(".", 1)[0]
    if directive in _NOT_SCRIPT or directive.startswith("x-transition"):
        return None
    if name.startswith("x-"):
        return "Alpine.js"
    if name.startswith("v-"):
        return "Vue"
    if name.startswith(("@", ":")) and len(name) > 1:
        return "Alpine.js or Vue"
    return None


def attribute_name(name: Any) -> str:
    """An attribute's name as written: html5lib gives a foreign one (``xlink:href``) as
    ``(prefix, local name, namespace)``."""
    if isinstance(name, tuple):
        prefix, local = name[0], name[1]
        return f"{prefix}:{local}" if prefix else str(local)
    return str(name)


def _attribute_of(text: str, tags: Tags, start: int, marker: str) -> tuple[str, str]:
    """The attribute whose value holds the placeholder at ``start``, and the value before it
    (the value that holds it where it is written, when several hold the same mark)."""
    for tag_start, tag_end, token in tags:
        if tag_start <= start < tag_end:
            data = token["data"]
            items = data.items() if isinstance(data, dict) else data
            found = [(attribute_name(name), value) for name, value in items if marker in value]
            if len(found) > 1:  # the last attribute whose name is written before the hole
                written = text[tag_start:start].lower()
                found.sort(key=lambda pair: written.rfind(pair[0].lower()))
                found = found[-1:]
            if found:
                name, value = found[0]
                return name.lower(), value[:value.find(marker)]
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
