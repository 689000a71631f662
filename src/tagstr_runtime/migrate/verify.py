"""The migrated text checked as Python 3.14 before anything is written.

On 3.14 the whole module is compiled (``tagstr_runtime`` desugaring the tag
strings left).  Before 3.14, libcst (which reads 3.14 syntax on any Python)
parses each t-string of the output, the rewritten ones among them: the rest
of the module is the text that parsed before, unchanged.  The t-strings are
parsed in batches of expressions, so a module of any size costs one short
parse per batch and little memory (a whole-module libcst tree of a large
module takes far more than the module).
"""

from __future__ import annotations

import sys
from typing import Iterator

from tagstr_runtime.syntax.model import Field, TagString
from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.syntax.words import TEMPLATE_PREFIXES

__all__ = ["Unverified", "verify"]

_BATCH = 100_000  # characters of t-strings per libcst parse


class Unverified(Exception):
    """Neither Python 3.14 nor libcst is there to check the output."""


def verify(text: str, filename: str) -> None:
    """Raise ``SyntaxError`` unless ``text`` is valid on Python 3.14 (with tagstr for what is left)."""
    if sys.version_info >= (3, 14):
        import ast
        import warnings

        from tagstr_runtime.run.compile import compile as tag_compile

        with warnings.catch_warnings():  # the command reports; compiling to check it shows nothing
            warnings.simplefilter("ignore")
            tag_compile(text, filename, "exec", ast.PyCF_ONLY_AST)
        return
    try:
        import libcst
    except ImportError:
        raise Unverified from None
    source = SourceText(text)
    batch: list[str] = []
    starts: list[tuple[int, int]] = []  # (line in the batch, offset in the text) of each t-string
    size = line = 0
    for tag in _t_strings(parse(text, filename, template_strings=False).tag_strings):
        snippet = text[tag.span.start : tag.span.end]
        if any(inner.tag.lower() not in TEMPLATE_PREFIXES or inner.tag.lower() == "tr" for inner in tag.walk()):
            snippet = _parsable(snippet, filename)
        starts.append((line + 2, tag.span.start))
        batch.append(f"(\n{snippet}\n)\n")
        line += snippet.count("\n") + 3
        size += len(snippet)
        if size > _BATCH:
            _parse_batch(libcst, batch, starts, source, filename)
            batch, starts, size, line = [], [], 0, 0
    if batch:
        _parse_batch(libcst, batch, starts, source, filename)


def _t_strings(tags: tuple[TagString, ...]) -> Iterator[TagString]:
    """The outermost t-strings: a tag string left as it is is looked into for those in its fields."""
    for tag in tags:
        if tag.tag.lower() in TEMPLATE_PREFIXES:
            yield tag
        else:
            for field in (f for part in tag.parts if isinstance(part, Field) for f in part.fields()):
                yield from _t_strings(field.nested)


def _parsable(snippet: str, filename: str) -> str:
    """The t-string as libcst (1.9) reads it: the tag strings left in it overwritten by calls of
    the same shape, ``tr"..."`` spelled ``rt"..."`` (same length and meaning)."""
    from tagstr_runtime.desugarer.placeholder import placeholder_text, splice

    swapped = sorted((t for top in parse(snippet, filename, template_strings=False).tag_strings for t in top.walk()
                      if t.tag.lower() == "tr"), key=lambda t: t.tag_span.start)
    snippet = splice(snippet, swapped, lambda t: t.tag_span, lambda t: t.tag[::-1])
    left = parse(snippet, filename, template_strings=True).tag_strings
    return placeholder_text(snippet, left) if left else snippet


def _parse_batch(libcst: object, batch: list[str], starts: list[tuple[int, int]], source: SourceText,
                 filename: str) -> None:
    try:
        libcst.parse_module("".join(batch))  # type: ignore[attr-defined]
    except libcst.ParserSyntaxError as exc:  # type: ignore[attr-defined]
        line, offset = starts[0]
        for first, where in starts:
            if first <= exc.raw_line:
                line, offset = first, where
        pos = source.pos(offset)
        error = SyntaxError(f"the migrated text does not parse as Python 3.14: {exc.message}")
        error.filename, error.lineno = filename, pos.line + exc.raw_line - line
        error.offset = (pos.col_char if exc.raw_line == line else 0) + exc.raw_column + 1
        raise error from None
