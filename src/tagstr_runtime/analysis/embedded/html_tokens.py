"""html5lib's tokenizer as the HTML check runs it: where each token starts, which state read
what, and character references as today's WHATWG spec reads them.

The check (``html._Run``) is told each token's start, each tag token, each state change and each
tokenizer error as the tokenizer goes; html5lib 1.1 predates the ambiguous-ampersand rule, so
its reading of ``&`` is replaced here.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterator

from html5lib import constants
from html5lib._tokenizer import HTMLTokenizer, entitiesTrie

__all__ = ["ONE_CHUNK", "Tokenizer"]

ONE_CHUNK = 10240  # html5lib's chunk size (HTMLUnicodeInputStream._defaultChunkSize)

_ALPHANUMERIC = frozenset(constants.asciiLetters) | frozenset(constants.digits)


class Tokenizer(HTMLTokenizer):  # type: ignore[misc]
    """html5lib's tokenizer, recording where each token starts and which state read what."""

    def __init__(self, stream: Any, run: Any, **kwargs: Any) -> None:  # run: html._Run
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
        run.token_start = len(run.text)

    def consumeEntity(self, allowedChar: str | None = None, fromAttribute: bool = False) -> None:
        """A character reference as today's WHATWG spec reads it (html5lib 1.1 predates the
        ambiguous-ampersand rule): ``&`` before anything but a letter, a digit or ``#`` is
        text; a name that is no reference is text unless ``;`` follows it; a reference without
        ``;`` in an attribute value, before ``=`` or a letter or digit, is text."""
        stream = self.stream
        first = stream.char()
        if first == "#" or first not in _ALPHANUMERIC:  # numeric: html5lib's is the spec's
            stream.unget(first)
            if first == "#":
                super().consumeEntity(allowedChar, fromAttribute)
            else:
                self._emit_reference("&", fromAttribute)
            return
        name = first
        while True:  # the longest run of characters that some reference's name starts with
            char = stream.char()
            if char is constants.EOF:
                break
            if not entitiesTrie.has_keys_with_prefix(name + char):
                stream.unget(char)
                break
            name += char
        try:
            matched: str | None = entitiesTrie.longest_prefix(name)
        except KeyError:
            matched = None
        if matched is None:  # the ambiguous ampersand: an error only before ';'
            self._emit_reference("&" + name, fromAttribute)
            while True:
                char = stream.char()
                if char is constants.EOF or char not in _ALPHANUMERIC:
                    break
                self._emit_reference(char, fromAttribute)
            if char == ";":
                self.tokenQueue.append({"type": _PARSE_ERROR, "data": "unknown-named-character-reference"})
            stream.unget(char)
            return
        for char in reversed(name[len(matched):]):
            stream.unget(char)
        if matched[-1] != ";":
            after = stream.char()
            stream.unget(after)
            if fromAttribute and (after == "=" or after in _ALPHANUMERIC):  # historical: as written
                self._emit_reference("&" + matched, fromAttribute)
                return
            self.tokenQueue.append({"type": _PARSE_ERROR, "data": "named-entity-without-semicolon"})
        self._emit_reference(constants.entities[matched], fromAttribute)

    def _emit_reference(self, text: str, attribute: bool) -> None:
        if attribute:
            self.currentToken["data"][-1][1] += text
        else:
            kind = "SpaceCharacters" if text in constants.spaceCharacters else "Characters"
            self.tokenQueue.append({"type": constants.tokenTypes[kind], "data": text})


_DATA_STATES = frozenset(["dataState", "rcdataState", "rawtextState", "scriptDataState", "plaintextState"])
_PARSE_ERROR = constants.tokenTypes["ParseError"]
_TAG_TOKENS = frozenset([constants.tokenTypes["StartTag"], constants.tokenTypes["EndTag"]])
