"""CPython's parse of a text that stands for the source, its errors moved back onto the source.

The desugarer shows CPython texts that keep every line and every UTF-8
column of the source (the placeholder text; the stand-ins of
``desugarer.first_error``), so that CPython's positions are the source's.  Only its
character columns need converting back, and an error inside a tag string
gets the tag-string wording (SPEC 5).

A large text is parsed a piece at a time (``_parse_in_pieces``): CPython's
parser holds every token and its own tree of the whole text until it has
built the ``ast`` one, twice the memory of the tree it returns.
"""

from __future__ import annotations

import ast
import builtins
import re
import warnings
from bisect import bisect_left
from collections import Counter

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.source import SourceText

__all__ = ["compile_text", "parse_text", "restore"]

_builtin_compile = builtins.compile

#: characters of a large text parsed at once (CPython's parse peaks at ~75 bytes per character)
_PIECE = 1 << 17
#: what a line starting a piece must not start with: it continues the statement before it, or may
_CONTINUES = re.compile(r"[ \t\f#\n\\)\]}]|(?:else|elif|except|finally)(?!\w)")
#: how many pieces after a piece that fails are parsed with it, before the whole text is
_MERGED = 2


def compile_text(
    text: str | bytes, filename: str, mode: str, flags: int, feature_version: tuple[int, int] | None
) -> ast.AST:
    """``ast`` tree of ``text`` for ``flags`` (``PyCF_ONLY_AST`` included), as the target version reads it."""
    # compile() rather than ast.parse(): the mypy plugin wraps ast.parse for
    # mypy's own parser and must not see its own calls come back
    minor = -1 if feature_version is None else feature_version[1]
    tree: ast.AST = _builtin_compile(text, filename, mode, flags, dont_inherit=True, _feature_version=minor)
    return tree


def parse_text(
    text: str | bytes,
    filename: str,
    mode: str,
    flags: int,
    feature_version: tuple[int, int] | None,
    original: SourceText,
    tags: tuple[TagString, ...],
) -> ast.AST:
    """``compile_text``; a ``SyntaxError`` is ``restore``d unless ``text`` is the source itself (no ``tags``)."""
    try:
        if tags and mode == "exec" and isinstance(text, str) and len(text) > 2 * _PIECE:
            return _parse_in_pieces(text, filename, flags, feature_version, original, tags)
        return compile_text(text, filename, mode, flags, feature_version)
    except SyntaxError as exc:
        if not tags:  # the source as given: CPython's own error, untouched
            raise
        assert isinstance(text, str)
        raise restore(exc, text, original, tags) from None


def restore(
    exc: SyntaxError, placeholder: str, original: SourceText, tags: tuple[TagString, ...]
) -> SyntaxError:
    """CPython's error on the placeholder text, moved back onto the original text.

    Inside a tag string it becomes a ``TagSyntaxError`` worded like CPython's
    f-string errors (``tag string: invalid syntax``).
    """
    if exc.lineno is None or exc.text is None or original.text == placeholder:
        return exc
    shown = SourceText(placeholder)

    def char_col(line: int | None, offset: int | None) -> int | None:
        if line is None or offset is None or line > original.line_count:
            return offset
        # CPython turned its byte column into characters with the line it had
        # at hand: the file's own line when the file exists on disk (exc.text),
        # the parsed placeholder's otherwise
        if line == exc.lineno and exc.text is not None:
            byte_col = SourceText(exc.text).col_byte(1, max(offset - 1, 0))
        else:
            byte_col = shown.col_byte(line, max(offset - 1, 0))
        return original.offset(line, byte_col) - original.line_start(line) + 1

    offset = char_col(exc.lineno, exc.offset)
    end_offset = char_col(exc.end_lineno, exc.end_offset)
    text = original.line_text(exc.lineno) if exc.lineno <= original.line_count else exc.text
    details = (exc.filename, exc.lineno, offset, text, exc.end_lineno, end_offset)
    if offset is not None and type(exc) is SyntaxError:
        where = original.line_start(exc.lineno) + offset - 1
        if any(tag.span.start <= where < tag.span.end for tag in tags):
            return TagSyntaxError(f"tag string: {exc.msg}", details)
    return type(exc)(exc.msg, details)


def _parse_in_pieces(
    text: str, filename: str, flags: int, feature_version: tuple[int, int] | None, original: SourceText,
    tags: tuple[TagString, ...],
) -> ast.AST:
    """``compile_text`` of a large module, parsed a piece of about ``_PIECE`` characters at a time
    (each begins with blank lines where the text before it stands: CPython's positions are the
    text's), the pieces' statements joined in one ``Module``.

    A piece starts at a line that may start a statement at the top level (``_piece_starts``).
    A line at column 0 inside a string or brackets, or after a backslash, leaves the piece
    before it open: that piece fails, and is parsed again with the next one (``_MERGED``
    times at most: a real error fails every time), and then the whole text (CPython's error,
    as it reports it).  CPython's warnings are shown as its parse of the whole text shows
    them: each once, in order.  One statement changes how the ones after it parse, from 3.14:
    ``from __future__ import barry_as_FLUFL`` (``<>``); a text that names it is parsed whole.
    """
    if "barry_as_FLUFL" in text:
        return compile_text(text, filename, "exec", flags, feature_version)
    starts = _piece_starts(text, original, tags)
    body: list[ast.stmt] = []
    ignores: list[ast.TypeIgnore] = []
    shown: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as shown:
            first = 0
            while first < len(starts) - 1:
                mark = len(shown)
                last = first + 1
                while True:
                    (start, line), (end, _) = starts[first], starts[last]
                    try:
                        piece = compile_text("\n" * line + text[start:end], filename, "exec", flags, feature_version)
                        break
                    except SyntaxError:
                        del shown[mark:]  # shown again by the next try
                        if last - first > _MERGED or last == len(starts) - 1:
                            raise
                        last += 1
                assert isinstance(piece, ast.Module)
                body += piece.body
                ignores += piece.type_ignores
                first = last
        return ast.Module(body, ignores)
    except SyntaxError:
        body.clear()
    finally:
        _show(shown)
    # the whole text's parse: its warnings less those the pieces showed already
    already = Counter(_key(w) for w in shown)
    again: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as again:
            return compile_text(text, filename, "exec", flags, feature_version)
    finally:
        for w in again:
            if already[_key(w)]:
                already[_key(w)] -= 1
            else:
                _show([w])


def _key(w: warnings.WarningMessage) -> tuple[object, str, int]:
    return (w.category, str(w.message), w.lineno)


def _show(caught: list[warnings.WarningMessage]) -> None:
    for w in caught:
        warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)


def _piece_starts(text: str, original: SourceText, tags: tuple[TagString, ...]) -> list[tuple[int, int]]:
    """``(offset, lines before it)`` where each piece of ``text`` starts, about ``_PIECE`` characters
    apart, and the text's end.  A piece starts at column 0 of a line that continues nothing
    (``_CONTINUES``), after a line that is no decorator, and not inside a tag string of the
    ``original`` text (``tags``, the outermost, in order), whose placeholder call may have an
    argument at column 0 there.  (Lines, not offsets, are the texts' common measure: the
    placeholder's character offsets are the source's only where the source is ASCII.)"""
    starts = [(0, 0)]
    counted = lines = 0  # the newlines of text[:counted]
    n = len(text)
    newline = text.find("\n", _PIECE)
    while 0 <= newline < n - 1:
        start = newline + 1
        if not _CONTINUES.match(text, start) and text[text.rfind("\n", 0, newline) + 1] != "@":
            lines += text.count("\n", counted, start)
            counted = start
            line_start = original.line_start(lines + 1)
            before = bisect_left(tags, line_start, key=_start) - 1  # the last tag string begun before
            if before < 0 or tags[before].span.end <= line_start:
                starts.append((start, lines))
                newline = start + _PIECE
        newline = text.find("\n", newline + 1)
    starts.append((n, 0))
    return starts


def _start(tag: TagString) -> int:
    return tag.span.start
