"""Semantic tokens of tag strings (LSP ``textDocument/semanticTokens``): what an editor colours.

Each tag string gives its tag's name, its literal text, its holes' braces,
conversions and format-spec syntax, and the Python tokens of each hole's
expression (``tokenize``, the standard library's tokenizer).  Where the tag
declares a language (the analysis layer's ``LanguageResolver``, as the
flake8 checks find it), the literal text is coloured as that language by its
own tokenizer: SQL by sqlglot's, HTML by the standard library's
``html.parser`` (tags, attribute names and values, comments); a language
without a tokenizer installed is plain string text.  Positions are source
offsets; ``encode_tokens`` writes LSP's relative, UTF-16 form for a legend.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Sequence

from tagstr_runtime.editing.utf16 import Lines
from tagstr_runtime.syntax.model import Field, Literal, TagString

if TYPE_CHECKING:
    from tagstr_runtime.analysis.embedded.joined import Joined
    from tagstr_runtime.analysis.embedded.templates import Template

__all__ = ["TOKEN_MODIFIERS", "TOKEN_TYPES", "Token", "encode_tokens", "semantic_tokens"]

#: the token types and modifiers these tokens use (a server appends them to its legend)
TOKEN_TYPES = ("function", "string", "operator", "variable", "keyword", "number", "property", "comment", "type")
TOKEN_MODIFIERS = ("tagString", "interpolation", "embedded")
_TAG, _HOLE, _EMBEDDED = 1, 2, 4


class Token(NamedTuple):
    start: int  # source offsets, on one line
    end: int
    type: str
    modifiers: int = 0  # bits of TOKEN_MODIFIERS


def semantic_tokens(text: str, tags: Sequence[TagString], path: str | None = None, *,
                    languages: bool = True) -> list[Token]:
    """The tokens of ``tags`` (the outermost of ``text``, which must parse) in source order;
    ``languages``: colour the literal text of tags that declare a language as that language
    (``path``: the module's file, for its imports)."""
    templates = _declared(text, path) if languages and tags else {}
    out: list[Token] = []
    for outer in tags:
        for tag in outer.walk():
            template, language = templates.get(tag.span.start, (None, None))
            out += _tag_tokens(text, tag, template, language)
    out.sort()
    return _split_lines(text, out)


def _declared(text: str, path: str | None) -> dict[int, tuple[Template, str]]:
    """By a tag string's start: its template and declared language (tags that declare one)."""
    import os

    from tagstr_runtime.analysis.definitions import TagResolver
    from tagstr_runtime.analysis.embedded import canonical
    from tagstr_runtime.analysis.embedded.declared import LanguageResolver
    from tagstr_runtime.analysis.embedded.templates import template_of_site
    from tagstr_runtime.analysis.imports import ModuleFinder
    from tagstr_runtime.analysis.module import ModuleAnalysis

    try:
        module = ModuleAnalysis.read(text, path or "<unknown>", path=path)
    except SyntaxError:
        return {}
    root = os.path.dirname(path) if path else os.getcwd()
    resolver = LanguageResolver(TagResolver(ModuleFinder([root])))
    out: dict[int, tuple[Template, str]] = {}
    for site in module.sites:
        declared = resolver.site_language(module, site)
        language = canonical(declared) if declared else None
        if language in ("sql", "html"):
            out[site.tag.span.start] = (template_of_site(site), language)
    return out


def _tag_tokens(text: str, tag: TagString, template: Template | None, language: str | None) -> Iterator[Token]:
    yield Token(tag.tag_span.start, tag.tag_span.end, "function", _TAG)
    embedded = list(_embedded(template, language)) if template is not None and language else []
    covered = sorted((t.start, t.end) for t in embedded)
    yield from embedded
    for part in tag.parts:
        if isinstance(part, Literal):
            yield from _uncovered(part.span.start, part.span.end, covered)
        else:
            yield from _field_tokens(text, part)
    yield Token(tag.tag_span.end, tag.body_span.start, "string", _TAG)  # the opening quote
    yield Token(tag.body_span.end, tag.span.end, "string", _TAG)


def _uncovered(start: int, end: int, covered: list[tuple[int, int]]) -> Iterator[Token]:
    """String tokens for ``[start, end)`` outside the embedded language's tokens."""
    at = start
    for a, b in covered:
        if b <= at or a >= end:
            continue
        if a > at:
            yield Token(at, a, "string", _TAG)
        at = max(at, b)
    if at < end:
        yield Token(at, end, "string", _TAG)


def _field_tokens(text: str, field: Field) -> Iterator[Token]:
    nested = [(inner.span.start, inner.span.end) for inner in field.nested]
    yield Token(field.span.start, field.span.start + 1, "operator", _HOLE)
    for token in _python_tokens(text, field.expr_span.start, field.expr_span.end):
        if not any(a <= token.start < b for a, b in nested):
            yield token
    after = field.expr_span.end
    if field.conv_span is not None:
        yield Token(field.conv_span.start - 1, field.conv_span.end, "operator", _HOLE)
    if field.spec_span is not None:
        yield Token(field.spec_span.start - 1, field.spec_span.start, "operator", _HOLE)
        for part in field.spec or ():
            if isinstance(part, Literal):
                yield Token(part.span.start, part.span.end, "string", _HOLE)
            else:
                yield from _field_tokens(text, part)
    del after
    yield Token(field.span.end - 1, field.span.end, "operator", _HOLE)


def _python_tokens(text: str, start: int, end: int) -> Iterator[Token]:
    source = text[start:end]
    lines = Lines(source)
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind = _PYTHON.get(token.type)
            if token.type == tokenize.NAME:
                kind = "keyword" if keyword.iskeyword(token.string) else "variable"
            if kind is None or not token.string:
                continue
            a = start + lines.offset(token.start[0] - 1, token.start[1])
            b = start + lines.offset(token.end[0] - 1, token.end[1])
            yield Token(a, b, kind, _HOLE)
    except (tokenize.TokenError, SyntaxError):
        return


_TAG_NAME: Any = None
_ATTRIBUTE: Any = None
_PYTHON = {tokenize.NUMBER: "number", tokenize.STRING: "string", tokenize.OP: "operator",
           tokenize.COMMENT: "comment"}


def _embedded(template: Template, language: str) -> Iterator[Token]:
    """The embedded language's tokens in the literal text, at their source offsets."""
    from tagstr_runtime.analysis.embedded.joined import Joined

    strings = template.strings
    joined = Joined(strings, lambda index: "x")
    spans = {"sql": _sql_tokens, "html": _html_tokens}.get(language)
    if spans is None:
        return
    for a, b, kind in spans(joined.text):
        part = _part(joined, a, b)
        if part is None:
            continue
        base = joined.starts[part]
        yield Token(template.string_offset(part, a - base), template.string_offset(part, b - base), kind,
                    _TAG | _EMBEDDED)


def _part(joined: Joined, a: int, b: int) -> int | None:
    """The string part holding all of ``[a, b)``, or None (a token over a hole)."""
    from bisect import bisect_right

    part = bisect_right(joined.starts, a) - 1
    limit = joined.holes[part][0] if part < len(joined.holes) else len(joined.text)
    return part if b <= limit and b > a else None


def _sql_tokens(text: str) -> Iterator[tuple[int, int, str]]:
    try:
        from sqlglot.tokens import Tokenizer
        from sqlglot.tokenizer_core import TokenType
    except ImportError:
        return
    try:
        tokens = Tokenizer().tokenize(text)
    except Exception:  # sqlglot's TokenError: an unfinished string being typed
        return
    for token in tokens:
        kind = token.token_type
        if kind in (TokenType.STRING, TokenType.NATIONAL_STRING):
            name = "string"
        elif kind == TokenType.NUMBER:
            name = "number"
        elif kind in (TokenType.VAR, TokenType.IDENTIFIER):
            name = "variable"
        elif token.text[:1].isalpha():
            name = "keyword"
        else:
            name = "operator"
        end = token.end + 1
        start = end - len(token.text) if kind not in (TokenType.STRING, TokenType.IDENTIFIER) else token.start
        yield max(0, start), end, name


def _html_tokens(text: str) -> Iterator[tuple[int, int, str]]:
    from html import parser

    global _TAG_NAME, _ATTRIBUTE
    _TAG_NAME = getattr(parser, "tagfind_tolerant")  # noqa: B009 (the parser's own patterns, not in its stubs)
    _ATTRIBUTE = getattr(parser, "attrfind_tolerant")  # noqa: B009

    lines = Lines(text)
    found: list[tuple[int, int, str]] = []

    class Reader(parser.HTMLParser):
        def _at(self) -> int:
            line, column = self.getpos()
            return lines.offset(line - 1, column)

        def handle_starttag(self, tag: str, attrs: object) -> None:
            start = self._at()
            raw = self.get_starttag_text() or ""
            name = _TAG_NAME.match(raw, 1)
            if name is None:
                return
            found.append((start + 1, start + name.end(1), "type"))
            for attr in _ATTRIBUTE.finditer(raw, name.end()):
                if attr.group(1):
                    found.append((start + attr.start(1), start + attr.end(1), "property"))
                if attr.group(3):
                    found.append((start + attr.start(3), start + attr.end(3), "string"))

        def handle_endtag(self, tag: str) -> None:
            start = self._at()
            found.append((start + 2, start + 2 + len(tag), "type"))

        def handle_comment(self, data: str) -> None:
            start = self._at()
            found.append((start, start + len(data) + 7, "comment"))

    reader = Reader(convert_charrefs=False)
    try:
        reader.feed(text)
        reader.close()
    except Exception:  # the standard library's parser is tolerant; a failure keeps what it found
        pass
    yield from found


def _split_lines(text: str, tokens: list[Token]) -> list[Token]:
    """Tokens cut at newlines (LSP tokens lie on one line), empty ones dropped."""
    out: list[Token] = []
    for token in tokens:
        start = token.start
        while start < token.end:
            newline = text.find("\n", start, token.end)
            end = token.end if newline < 0 else newline
            if end > start:
                out.append(Token(start, end, token.type, token.modifiers))
            start = end + 1 if newline >= 0 else token.end
    return out


def encode_tokens(tokens: Sequence[Token], lines: Lines, types: Sequence[str],
                  modifiers: Sequence[str] = TOKEN_MODIFIERS) -> list[int]:
    """LSP's ``data``: five integers per token, relative to the previous one, in UTF-16 units;
    ``types`` and ``modifiers``: the legend (a token of a type it lacks is left out)."""
    kind_index = {name: i for i, name in enumerate(types)}
    bits = {1 << i: 1 << modifiers.index(name) for i, name in enumerate(TOKEN_MODIFIERS) if name in modifiers}
    data: list[int] = []
    last_line = last_col = 0
    for token in tokens:
        kind = kind_index.get(token.type)
        if kind is None:
            continue
        line, col = lines.position(token.start)
        start16 = lines.to_utf16(line, col)
        length = lines.to_utf16(line, col + token.end - token.start) - start16
        mods = sum(bit for mine, bit in bits.items() if token.modifiers & mine)
        data += [line - last_line, start16 - (last_col if line == last_line else 0), length, kind, mods]
        last_line, last_col = line, start16
    return data
