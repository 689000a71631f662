"""HTML, by HTML5 rules: html5lib's tokenizer and tree builder, every parse error at its token.

html5lib implements the WHATWG parsing algorithm, so void elements, optional
end tags and case-insensitive names are correct, as browsers take them.  Where
html5lib 1.1 is older than today's WHATWG spec it is corrected here (the
differential test against parse5 keeps it so): character references follow
the ambiguous-ampersand rule (``?a=1&b=2``, ``AT&T``, ``&copy=1`` in an
attribute are no errors), a ``<template>``'s contents are parsed in the
insertion mode its first element asks for, a text starting with ``<head>`` or
``<body>`` is a part of a document, and text in SVG's ``<script>`` and
``<style>`` is raw text for its holes.  Errors are placed at the start of the
offending token (tracked as the tokenizer goes), or at the character they
name.  Each hole becomes ``x`` plus a private-use character
(``html_contexts.Placeholders``): the tokenizer state that reads it tells the
hole's context.  See ``docs/languages.md`` for the checks.
"""

from __future__ import annotations

from typing import Any, Sequence

from html5lib import constants, html5parser, treebuilders

from tagstr_runtime.analysis.embedded import ATTRIBUTES, Finding, Options, Slot
from tagstr_runtime.analysis.embedded.html_contexts import (
    Placeholders,
    has_placeholder as _has_placeholder,
    hole_findings,
    spreads,
    strict_findings,
)
from tagstr_runtime.analysis.embedded.html_tokens import ONE_CHUNK, Tokenizer as _Tokenizer
from tagstr_runtime.analysis.embedded.joined import Joined

__all__ = ["check", "requirements"]

# html5lib error codes -> our kinds (anything else: "html.syntax")
_END_TAG_ERRORS = frozenset([
    "end-tag-too-early", "end-tag-too-early-named", "end-tag-too-early-ignored", "unexpected-end-tag",
    "unexpected-end-tag-before-html", "unexpected-end-tag-after-body", "unexpected-end-tag-treated-as",
    "unexpected-end-tag-implies-table-voodoo", "unexpected-end-tag-in-table-body",
    "unexpected-end-tag-in-table-row", "unexpected-end-tag-in-select", "unexpected-end-tag-in-frameset",
    "unexpected-end-tag-after-frameset", "unexpected-end-tag-after-body-innerhtml",
    "adoption-agency-1.1", "adoption-agency-1.2", "adoption-agency-1.3", "adoption-agency-4.4",
])
_REFERENCE_ERRORS = frozenset([
    "expected-named-entity", "named-entity-without-semicolon", "expected-numeric-entity",
    "numeric-entity-without-semicolon", "illegal-codepoint-for-numeric-entity",
    "illegal-windows-1252-entity", "cant-convert-numeric-entity", "expected-numeric-entity-but-got-eof",
    "incorrect-cr-newline-entity", "unknown-named-character-reference",
])
# errors about the character just read: placed one character back (not those html5lib
# reports after putting the character back: "unexpected-character-after-attribute-value"...)
_CHARACTER_ERRORS = frozenset([
    "invalid-character-in-attribute-name", "unexpected-character-in-attribute-name",
    "equals-in-unquoted-attribute-value", "unexpected-character-in-unquoted-attribute-value",
    "expected-tag-name", "expected-tag-name-but-got-right-bracket",
    "expected-tag-name-but-got-question-mark", "expected-closing-tag-but-got-char",
    "expected-closing-tag-but-got-right-bracket", "invalid-codepoint", "unexpected-char-in-comment",
    "unexpected-dash-after-double-dash-in-comment", "unexpected-bang-after-double-dash-in-comment",
    "incorrect-comment", "expected-attribute-name-but-got-right-bracket",
    "expected-end-of-tag-but-got-eof",
])
# the WHATWG error codes html5lib 1.1 does not have: their text
_DESCRIPTIONS = {
    "unknown-named-character-reference": "'&' and a name that is no character reference, then ';'",
}
_EOF_CLOSED = frozenset(["dd", "dt", "li", "p", "tbody", "td", "tfoot", "th", "thead", "tr", "body", "html",
                         "head", "colgroup", "caption", "option", "optgroup", "rb", "rp", "rt", "rtc"])
# the context a fragment needs for its first element (a template's contents: the mode it switches to)
_CONTAINERS = {
    "tr": "tbody", "td": "tr", "th": "tr", "tbody": "table", "thead": "table", "tfoot": "table",
    "caption": "table", "colgroup": "table", "col": "colgroup", "option": "select", "optgroup": "select",
    "head": "html", "body": "html",
}
# the start tags "in template" reads by the "in head" rules, staying in its mode
_IN_HEAD = frozenset(["base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template",
                      "title"])


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    run = _parsed(strings, slots)
    joined = run.joined
    findings = run.findings
    findings.extend(hole_findings(joined, run.placeholders, run.states, run.tags, run.foreign_raw,
                                  opt_in=options.html_opt_in))
    if options.html_strict:
        findings.extend(strict_findings(joined, run.tags))
    return sorted(findings, key=lambda f: (run.order(f), f.kind))


def requirements(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> dict[int, str]:
    """The holes standing alone where an attribute goes (``<div {attrs}>``): a mapping of attributes."""
    run = _parsed(strings, slots)
    return {hole: ATTRIBUTES for hole in spreads(run.joined, run.placeholders, run.states)}


def _parsed(strings: Sequence[str], slots: Sequence[Slot]) -> _Run:
    # "\r" would be folded by the input stream and shift every later position: a space keeps them
    strings = [s.replace("\r", " ") for s in strings]
    placeholders = Placeholders(strings, slots)
    run = _Run(Joined(strings, placeholders.of), placeholders)
    run.parse()
    return run


_START_TAG = constants.tokenTypes["StartTag"]
_SVG = constants.namespaces["svg"]


class _Parser(html5parser.HTMLParser):  # type: ignore[misc]
    """One parser for every template (building html5lib's phases costs more than a small parse)."""

    run: _Run

    def __init__(self) -> None:
        super().__init__(tree=_Builder, namespaceHTMLElements=False)

    def _parse(self, stream: Any, innerHTML: bool = False, container: str = "div", scripting: bool = False,
               **kwargs: Any) -> None:
        self.innerHTMLMode = innerHTML
        self.container = container
        self.scripting = scripting
        self.tokenizer = _Tokenizer(stream, self.run, parser=self, **kwargs)
        self.reset()
        self.mainLoop()  # no _ReparseException: the text is str, no encoding to change

    def parseError(self, errorcode: str = "XXX-undefined-error", datavars: Any = None) -> None:
        self.run.tree_error(errorcode, datavars or {}, self)


class _Builder(treebuilders.getTreeBuilder("etree")):  # type: ignore[misc]
    """html5lib's tree builder, recording where each element's start tag is, and which text
    goes into an SVG ``<script>`` or ``<style>`` (raw text for its holes, not markup's)."""

    run: _Run

    def insertElementNormal(self, token: dict[str, Any]) -> Any:
        element = super().insertElementNormal(token)
        self.run.element_starts[id(element)] = self.run.token_start
        return element

    def insertElementTable(self, token: dict[str, Any]) -> Any:
        element = super().insertElementTable(token)
        self.run.element_starts[id(element)] = self.run.token_start
        return element

    def insertText(self, data: str, parent: Any = None) -> None:
        node = parent if parent is not None else self.openElements[-1]
        if node.namespace == _SVG and node.name in ("script", "style") and _has_placeholder(data):
            self.run.foreign_raw.append((self.run.token_start, node.name))
        super().insertText(data, parent)


_PARSER: _Parser | None = None


class _Run:
    """One parse of a template (or of a ``<template>``'s contents, ``base`` characters into
    it): the errors found, tag tokens and the tokenizer's states."""

    def __init__(self, joined: Joined, placeholders: Placeholders, text: str | None = None, base: int = 0,
                 root: _Run | None = None) -> None:
        self.joined = joined
        self.placeholders = placeholders
        self.text = joined.text if text is None else text
        self.base = base
        self.root = root
        self.findings: list[Finding] = []
        self.tree_findings: list[tuple[int, Finding | None]] = []  # (token start, finding) of the tree builder
        self.states: list[tuple[int, str]] = []
        self.tags: list[tuple[int, int, dict[str, Any]]] = []  # (start, end, token)
        self.element_starts: dict[int, int] = {}
        self.foreign_raw: list[tuple[int, str]] = []  # (token start, element) of text in SVG <script>, <style>
        self.token_start = 0
        self.self_closed: set[int] = set()  # start tags of non-void elements written <div/>: one report
        self._lines: list[int] | None = None

    def offset(self, position: tuple[int, int]) -> int:
        if self._lines is None:
            self._lines = [0, *(i + 1 for i, c in enumerate(self.text) if c == "\n")]
        line, col = position
        return self._lines[min(line, len(self._lines)) - 1] + col

    def stream_offset(self, stream: Any) -> Any:
        """How many characters ``stream`` has consumed: a function of the stream, called often."""
        size = len(self.text)
        if size >= ONE_CHUNK:  # several chunks: through (line, column)
            return lambda s: self.offset(s.position())

        def offset(s: Any) -> int:  # one chunk holds the whole text: its offset is ours
            if s.chunk:
                return int(s.chunkOffset)
            return size if (s.prevNumLines or s.prevNumCols) else 0  # after the end, or before the start

        return offset

    def order(self, finding: Finding) -> int:
        if finding.hole is not None:
            return self.joined.holes[finding.hole][0]
        return self.joined.starts[finding.part] + finding.offset

    def parse(self) -> None:
        global _PARSER
        text = self.text
        parser = _PARSER = _PARSER or _Parser()
        parser.run = self
        parser.tree.run = self
        document, container = _mode(text) if self.root is None else (False, self._template_container())
        if document:
            parser.parse(text)
        else:
            parser.parseFragment(text, container=container)
        self._templates()

    # <template> ---------------------------------------------------------------------------

    def _templates(self) -> None:
        """Each outermost ``<template>``'s contents parsed again in the mode the spec gives them
        (html5lib has no template insertion mode): its tree errors replace the first parse's."""
        # (start tag's start and end, end tag's start and end)
        ranges: list[tuple[int, int, int, int]] = []
        opened: list[tuple[int, int]] = []
        for start, end, token in self.tags:
            if token["name"] != "template":
                continue
            if token["type"] == _START_TAG:
                opened.append((start, end))
            elif opened:
                tag, content = opened.pop()
                if not opened:
                    ranges.append((tag, content, start, end))
        if opened:
            ranges.append((*opened[0], len(self.text), len(self.text)))
        # where html5lib misplaces them (a <template> in a table: "in head" rules in the spec)
        kept = [finding for at, finding in self.tree_findings
                if not any(tag <= at < close for tag, _, _, close in ranges)]
        for _, content, end, _ in ranges:
            inner = _Run(self.joined, self.placeholders, self.text[content:end], self.base + content,
                         self.root or self)
            inner.parse()
            kept.extend(inner.findings)
        self.findings.extend(finding for finding in kept if finding is not None)

    def _template_container(self) -> str:
        """The container of a template's contents: by the first start tag in them (the mode
        the spec's "in template" insertion mode switches to)."""
        tags = self.root.tags if self.root is not None else []
        nested = 0
        for start, _, token in tags:
            if not self.base <= start < self.base + len(self.text):
                continue
            name: str = token["name"]
            if name == "template":  # a nested template is read by "in head" rules: no switch
                nested += 1 if token["type"] == _START_TAG else -1
            elif token["type"] == _START_TAG and nested <= 0 and name not in _IN_HEAD:
                return _CONTAINERS.get(name, "div") if name not in ("head", "body") else "div"
        return "div"

    # errors ---------------------------------------------------------------------------

    def _finding(self, kind: str, index: int, **args: str) -> Finding | None:
        """A finding at ``index`` of this run's text, or None if it falls in a placeholder (a
        fault inside a placeholder is the hole's: judged on its own)."""
        finding = self.joined.finding(kind, index + self.base, **args)
        return finding if finding.hole is None else None

    def _tokenizer_report(self, kind: str, index: int, **args: str) -> None:
        if self.root is not None:  # a template's contents: the first parse tokenized them
            return
        finding = self._finding(kind, index, **args)
        if finding is not None:
            self.findings.append(finding)

    def _tree_report(self, kind: str, index: int, **args: str) -> None:
        if any(at == index and (f is None or f.kind == kind) for at, f in self.tree_findings[-3:]):
            return  # one token, two reports (an end tag in a table, handled again in the body)
        self.tree_findings.append((index, self._finding(kind, index, **args)))

    def tokenizer_error(self, token: dict[str, Any], tokenizer: Any, now: int, start: int) -> None:
        code: str = token["data"]
        text = self.text
        if code == "duplicate-attribute":
            name = tokenizer.currentToken["data"][-1][0]
            if _has_placeholder(name):
                return
            at = text.lower().rfind(name, start, now)
            self._tokenizer_report("html.duplicate-attribute", at if at >= 0 else now, name=name)
        elif code in _REFERENCE_ERRORS:
            at = text.rfind("&", start, now)
            self._tokenizer_report("html.reference", at if at >= 0 else max(now - 1, 0),
                                   detail=_describe(code, token.get("datavars")))
        elif code.startswith("eof-in-") or code.endswith("-but-got-eof"):
            self._tokenizer_report("html.syntax", len(text), detail=_describe(code, token.get("datavars")))
        else:
            at = now - 1 if code in _CHARACTER_ERRORS else now
            self._tokenizer_report("html.syntax", max(at, 0), detail=_describe(code, token.get("datavars")))

    def tree_error(self, code: str, datavars: dict[str, Any], parser: Any) -> None:
        at = self.token_start
        name = datavars.get("name") or ""
        if isinstance(name, str) and _has_placeholder(name):
            return  # a hole as a tag name: reported as such
        if code == "expected-closing-tag-but-got-eof" or code in ("eof-in-table", "eof-in-select"):
            self._unclosed(parser)
        elif code in _END_TAG_ERRORS:
            detail, fix = _end_tag_detail(code, name, parser)
            self._tree_report("html.end-tag", at, detail=detail, fix=fix)
        elif code in ("expected-doctype-but-got-start-tag", "expected-doctype-but-got-chars"):
            self._tree_report("html.syntax", at, detail="no <!DOCTYPE html> before the document",
                              fix="start the document with <!DOCTYPE html>")
        elif code == "non-void-element-with-trailing-solidus":
            self.self_closed.add(at)
            self._tree_report("html.syntax", at, detail=_describe(code, datavars),
                              fix=f"write <{name}></{name}>: the '/' does not close it")
        elif code == "XXX-undefined-error":  # html5lib names none: the token is out of place
            self._tree_report("html.syntax", at, detail=f"unexpected {_token_text(self.text, at)!r} here")
        else:
            self._tree_report("html.syntax", at, detail=_describe(code, datavars))

    def _unclosed(self, parser: Any) -> None:
        for element in parser.tree.openElements:
            name = element.name
            if name in _EOF_CLOSED or _has_placeholder(name) or id(element) not in self.element_starts:
                continue
            if self.element_starts[id(element)] in self.self_closed:  # reported as <name/>
                continue
            self._tree_report("html.unclosed", self.element_starts[id(element)], name=name)


def _mode(text: str) -> tuple[bool, str]:
    """Whether ``text`` is a document, else the context element its first tag needs (``<head>``
    and ``<body>``: the ``<html>`` element's, a part of a document)."""
    stripped = text.lstrip()
    head = stripped[:9].lower()
    if head.startswith(("<!doctype", "<html")):
        return True, ""
    if stripped.startswith("<") and len(stripped) > 1 and stripped[1].isalpha():
        name = []
        for char in stripped[1:]:
            if not char.isalnum():
                break
            name.append(char)
        return False, _CONTAINERS.get("".join(name).lower(), "div")
    return False, "div"


def _token_text(text: str, at: int) -> str:
    end = text.find(">", at)
    return text[at:end + 1] if 0 <= at < end else text[at:at + 10]


def _describe(code: str, datavars: Any) -> str:
    template = _DESCRIPTIONS.get(code) or constants.E.get(code, code)
    try:
        text = template % (datavars or {})
    except (KeyError, TypeError, ValueError):
        text = template
    return str(text).rstrip(".")


def _end_tag_detail(code: str, name: str, parser: Any) -> tuple[str, str]:
    """What is wrong with an end tag, and what to do."""
    open_names = [e.name for e in parser.tree.openElements if e.name not in ("html", "body")]
    if code.startswith("end-tag-too-early") and name in open_names:
        inner = open_names[-1]
        return f"</{name}> ends <{name}> while <{inner}> is still open", f"close <{inner}> first"
    if code.startswith("adoption-agency"):
        return f"</{name}> is misnested", f"close the elements opened inside <{name}> first"
    return f"</{name}> has no open <{name}> to close", "remove it, or add the start tag"
