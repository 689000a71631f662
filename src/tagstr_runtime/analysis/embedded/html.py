"""HTML, by HTML5 rules: html5lib's tokenizer and tree builder, every parse error at its token.

html5lib implements the WHATWG parsing algorithm, so void elements, optional
end tags and case-insensitive names are correct, as browsers take them.  Its
errors carry the position the tokenizer had reached; ours are placed at the
start of the offending token (tracked as the tokenizer goes), or at the
character it names.  A hole becomes ``x`` plus a private-use character of its
own, which every tokenizer state accepts: the state that consumes it tells
the hole's context (text, quoted or unquoted attribute value, name, raw text,
comment).  See ``docs/languages.md`` for the checks.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterator, Sequence

from html5lib import constants, html5parser, treebuilders
from html5lib._tokenizer import HTMLTokenizer

from tagstr_runtime.analysis.embedded import ATTRIBUTES, Finding, Options, Slot
from tagstr_runtime.analysis.embedded.html_contexts import (
    has_placeholder as _has_placeholder,
    hole_findings,
    placeholder as _placeholder,
    spreads,
    strict_findings,
)
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
    "incorrect-cr-newline-entity",
])
# errors about the character just read: placed one character back
_CHARACTER_ERRORS = frozenset([
    "invalid-character-in-attribute-name", "unexpected-character-in-attribute-name",
    "equals-in-unquoted-attribute-value", "unexpected-character-in-unquoted-attribute-value",
    "unexpected-character-after-attribute-value", "unexpected-character-after-solidus-in-tag",
    "expected-tag-name", "expected-tag-name-but-got-right-bracket",
    "expected-tag-name-but-got-question-mark", "expected-closing-tag-but-got-char",
    "expected-closing-tag-but-got-right-bracket", "invalid-codepoint", "unexpected-char-in-comment",
    "unexpected-dash-after-double-dash-in-comment", "unexpected-bang-after-double-dash-in-comment",
    "incorrect-comment", "expected-attribute-name-but-got-right-bracket",
    "expected-end-of-tag-but-got-eof",
])
_EOF_CLOSED = frozenset(["dd", "dt", "li", "p", "tbody", "td", "tfoot", "th", "thead", "tr", "body", "html",
                         "head", "colgroup", "caption", "option", "optgroup", "rb", "rp", "rt", "rtc"])
_CONTAINERS = {
    "tr": "tbody", "td": "tr", "th": "tr", "tbody": "table", "thead": "table", "tfoot": "table",
    "caption": "table", "colgroup": "table", "col": "colgroup", "option": "select", "optgroup": "select",
}


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    run = _parsed(strings)
    joined = run.joined
    findings = run.findings
    findings.extend(hole_findings(joined, run.states, run.tags))
    if options.html_strict:
        findings.extend(strict_findings(joined, run.tags))
    return sorted(findings, key=lambda f: (run.order(f), f.kind))


def requirements(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> dict[int, str]:
    """The holes standing alone where an attribute goes (``<div {attrs}>``): a mapping of attributes."""
    run = _parsed(strings)
    return {hole: ATTRIBUTES for hole in spreads(run.joined, run.states)}


def _parsed(strings: Sequence[str]) -> _Run:
    # "\r" would be folded by the input stream and shift every later position: a space keeps them
    run = _Run(Joined([s.replace("\r", " ") for s in strings], _placeholder))
    run.parse()
    return run


class _Tokenizer(HTMLTokenizer):  # type: ignore[misc]
    """html5lib's tokenizer, recording where each token starts and which state read what."""

    def __init__(self, stream: Any, run: _Run, **kwargs: Any) -> None:
        super().__init__(stream, **kwargs)
        self.run = run

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self.tokenQueue: deque[dict[str, Any]] = deque([])
        run = self.run
        stream = self.stream
        offset = run.stream_offset(stream)
        log = run.states
        start = 0  # where the token being read started
        data_states = _DATA_STATES
        previous = ""
        while True:
            state = self.state
            before = offset(stream)
            name = state.__name__
            if name in data_states:
                start = before
            if name != previous:  # the state at an offset is the last one logged before it
                log.append((before, name))
                previous = name
            if not state():
                break
            while stream.errors:  # handled here, not yielded: the tree builder would report it again
                run.tokenizer_error({"data": stream.errors.pop(0)}, self, offset(stream), start)
            while self.tokenQueue:
                token = self.tokenQueue.popleft()
                kind = token["type"]
                if kind == _PARSE_ERROR:
                    run.tokenizer_error(token, self, offset(stream), start)
                    continue
                run.token_start = start
                if kind in _TAG_TOKENS:
                    run.tags.append((start, offset(stream), token))
                yield token
        run.token_start = len(run.joined.text)


_ONE_CHUNK = 10240  # html5lib's chunk size (HTMLUnicodeInputStream._defaultChunkSize)
_DATA_STATES = frozenset(["dataState", "rcdataState", "rawtextState", "scriptDataState", "plaintextState"])
_PARSE_ERROR = constants.tokenTypes["ParseError"]
_TAG_TOKENS = frozenset([constants.tokenTypes["StartTag"], constants.tokenTypes["EndTag"]])


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
    """html5lib's tree builder, recording where each element's start tag is."""

    run: _Run

    def insertElementNormal(self, token: dict[str, Any]) -> Any:
        element = super().insertElementNormal(token)
        self.run.element_starts[id(element)] = self.run.token_start
        return element

    def insertElementTable(self, token: dict[str, Any]) -> Any:
        element = super().insertElementTable(token)
        self.run.element_starts[id(element)] = self.run.token_start
        return element


_PARSER: _Parser | None = None


class _Run:
    """One parse of a template: the errors found, tag tokens and the tokenizer's states."""

    def __init__(self, joined: Joined) -> None:
        self.joined = joined
        self.findings: list[Finding] = []
        self.states: list[tuple[int, str]] = []
        self.tags: list[tuple[int, int, dict[str, Any]]] = []  # (start, end, token)
        self.element_starts: dict[int, int] = {}
        self.token_start = 0
        self._lines = joined.line_starts()

    def offset(self, position: tuple[int, int]) -> int:
        line, col = position
        return self._lines[min(line, len(self._lines)) - 1] + col

    def stream_offset(self, stream: Any) -> Any:
        """How many characters ``stream`` has consumed: a function of the stream, called often."""
        size = len(self.joined.text)
        if size >= _ONE_CHUNK:  # several chunks: through (line, column)
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
        text = self.joined.text
        parser = _PARSER = _PARSER or _Parser()
        parser.run = self
        parser.tree.run = self
        document, container = _mode(text)
        if document:
            parser.parse(text)
        else:
            parser.parseFragment(text, container=container)

    # errors ---------------------------------------------------------------------------

    def _report(self, kind: str, index: int, **args: str) -> None:
        finding = self.joined.finding(kind, index, **args)
        if finding.hole is None:  # a fault inside a placeholder is the hole's: judged on its own
            self.findings.append(finding)

    def tokenizer_error(self, token: dict[str, Any], tokenizer: Any, now: int, start: int) -> None:
        code: str = token["data"]
        text = self.joined.text
        if code == "duplicate-attribute":
            name = tokenizer.currentToken["data"][-1][0]
            if _has_placeholder(name):
                return
            at = text.lower().rfind(name, start, now)
            self._report("html.duplicate-attribute", at if at >= 0 else now, name=name)
        elif code in _REFERENCE_ERRORS:
            at = text.rfind("&", start, now)
            self._report("html.reference", at if at >= 0 else max(now - 1, 0),
                         detail=_describe(code, token.get("datavars")))
        elif code.startswith("eof-in-") or code.endswith("-but-got-eof"):
            self._report("html.syntax", len(text), detail=_describe(code, token.get("datavars")))
        else:
            at = now - 1 if code in _CHARACTER_ERRORS else now
            self._report("html.syntax", max(at, 0), detail=_describe(code, token.get("datavars")))

    def tree_error(self, code: str, datavars: dict[str, Any], parser: Any) -> None:
        at = self.token_start
        name = datavars.get("name") or ""
        if isinstance(name, str) and _has_placeholder(name):
            return  # a hole as a tag name: reported as such
        if code == "expected-closing-tag-but-got-eof" or code in ("eof-in-table", "eof-in-select"):
            self._unclosed(parser)
        elif code in _END_TAG_ERRORS:
            detail, fix = _end_tag_detail(code, name, parser)
            self._report("html.end-tag", at, detail=detail, fix=fix)
        elif code in ("expected-doctype-but-got-start-tag", "expected-doctype-but-got-chars"):
            self._report("html.syntax", at, detail="no <!DOCTYPE html> before the document",
                         fix="start the document with <!DOCTYPE html>")
        else:
            self._report("html.syntax", at, detail=_describe(code, datavars))

    def _unclosed(self, parser: Any) -> None:
        for element in parser.tree.openElements:
            name = element.name
            if name in _EOF_CLOSED or _has_placeholder(name) or id(element) not in self.element_starts:
                continue
            self._report("html.unclosed", self.element_starts[id(element)], name=name)


def _mode(text: str) -> tuple[bool, str]:
    """Whether ``text`` is a document, else the context element its first tag needs."""
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


def _describe(code: str, datavars: Any) -> str:
    template = constants.E.get(code, code)
    try:
        text = template % (datavars or {})
    except (KeyError, TypeError, ValueError):
        text = template
    return str(text).rstrip(".")


def _end_tag_detail(code: str, name: str, parser: Any) -> tuple[str, str]:
    """What is wrong with an end tag, and what to do."""
    open_names = [e.name for e in parser.tree.openElements if e.name not in ("html", "body")]
    if code.startswith("end-tag-too-early") and open_names:
        inner = open_names[-1]
        return f"</{name}> ends <{name}> while <{inner}> is still open", f"close <{inner}> first"
    if code.startswith("adoption-agency"):
        return f"</{name}> is misnested", f"close the elements opened inside <{name}> first"
    return f"</{name}> has no open <{name}> to close", "remove it, or add the start tag"
