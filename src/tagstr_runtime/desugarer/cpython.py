"""CPython's parse of a text that stands for the source, its errors moved back onto the source.

The desugarer shows CPython texts that keep every line and every UTF-8
column of the source (the placeholder text; the stand-ins of
``desugarer.first_error``), so that CPython's positions are the source's.  Only its
character columns need converting back, and an error inside a tag string
gets the tag-string wording (SPEC 5).

A large text is parsed a piece at a time (``_parse_in_pieces``): CPython's
parser holds every token and its own tree of the whole text until it has
built the ``ast`` one, twice the memory of the tree it returns
(docs/decisions/0228-a-large-module-parsed-in-pieces.md; inside one huge
statement: docs/decisions/0231-a-huge-statement-is-parsed-in-pieces-too.md).
"""

from __future__ import annotations

import ast
import builtins
import re
import warnings
from bisect import bisect_left
from collections import Counter
from typing import Callable

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
#: the blanks that indent a line
_INDENT = re.compile(r"[ \t]+")
#: the statements with handlers
_TRY = (ast.Try, ast.TryStar)


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
    as it reports it).  Inside one statement longer than a piece (a huge function, class or
    block), a piece may start at an indented line: it is parsed under a wrapper ``if 1:``
    on the line before it, and its statements continue the block the pieces before it leave
    open (``_graft``), or the piece fails as above.  CPython's warnings are shown as its parse
    of the whole text shows them: each once, in order.  One statement changes how the ones after it parse, from 3.14:
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
                    (start, line, indent), (end, _, _) = starts[first], starts[last]
                    head = "\n" * (line - 1) + "if 1:\n" if indent else "\n" * line
                    try:
                        piece = compile_text(head + text[start:end], filename, "exec", flags, feature_version)
                        assert isinstance(piece, ast.Module)
                        statements = _graft(piece, body, line) if indent else piece.body
                        break
                    except SyntaxError:
                        del shown[mark:]  # shown again by the next try
                        if last - first > _MERGED or last == len(starts) - 1:
                            raise
                        last += 1
                body += statements
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


def _graft(piece: ast.Module, body: list[ast.stmt], line: int) -> list[ast.stmt]:
    """The statements of a piece parsed under its wrapper ``if 1:`` (on ``line``) appended to the
    block they continue; the statements after the wrapper returned, for ``body``.  That block is the
    innermost one open at the end of ``body`` (each statement's last clause: ``_open_block``)
    whose statements stand where the wrapper's do, as the tokenizer's indentation stack finds
    it; each node around it ends where the wrapper ends.  A ``SyntaxError`` (the piece fails)
    when there is none, or when the wrapper has a clause of its own (an ``else`` at column 0
    that belongs to a statement of an earlier piece)."""
    wrapper = piece.body[0] if piece.body else None
    if not (isinstance(wrapper, ast.If) and wrapper.lineno == line and not wrapper.orelse and body):
        raise SyntaxError("the piece does not continue a block")
    column = wrapper.body[0].col_offset
    around: list[ast.AST] = []
    node: ast.AST = body[-1]
    while True:
        opened = _open_block(node)
        if opened is None:
            raise SyntaxError("the piece does not continue a block")
        holder, block = opened
        around += [node, holder] if holder is not node else [node]
        if block[-1].col_offset >= column:
            break
        node = block[-1]
    if block[-1].col_offset != column:
        raise SyntaxError("the piece does not continue a block")
    block += wrapper.body
    for each in around:
        each.end_lineno, each.end_col_offset = wrapper.end_lineno, wrapper.end_col_offset  # type: ignore[attr-defined]
    return piece.body[1:]


def _open_block(node: ast.AST) -> tuple[ast.AST, list[ast.stmt]] | None:
    """The statements of ``node``'s last clause, where the lines after it may continue, and the
    node that holds them (an ``except`` clause's handler, else ``node``); None for a simple
    statement."""
    if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        return node, node.orelse or node.body
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith)):
        return node, node.body
    if isinstance(node, _TRY):
        if node.finalbody or node.orelse or not node.handlers:
            return node, node.finalbody or node.orelse or node.body
        return node.handlers[-1], node.handlers[-1].body
    if isinstance(node, ast.Match):
        return node, node.cases[-1].body
    return None


def _piece_starts(
    text: str, original: SourceText, tags: tuple[TagString, ...]
) -> list[tuple[int, int, str]]:
    """``(offset, lines before it, indentation)`` where each piece of ``text`` starts, about
    ``_PIECE`` characters apart, and the text's end.  A piece starts at column 0 of a line that
    continues nothing (``_CONTINUES``), after a line that is no decorator, and not inside a tag
    string of the ``original`` text (``tags``, the outermost, in order), whose placeholder call may
    have an argument at column 0 there.  A quarter piece further with no such line (inside one
    huge statement), it may start at an indented line that does the same (``_inner_start``).
    (Lines, not offsets, are the texts' common measure: the placeholder's character offsets are
    the source's only where the source is ASCII.)"""
    starts = [(0, 0, "")]
    counted = lines = 0  # the newlines of text[:counted]

    def in_tag(line: int) -> bool:
        """The line after ``line`` lines lies inside a tag string (begun on a line before it)."""
        line_start = original.line_start(line + 1)
        before = bisect_left(tags, line_start, key=_start) - 1  # the last tag string begun before
        return before >= 0 and tags[before].span.end > line_start

    n = len(text)
    newline = text.find("\n", _PIECE)
    while 0 <= newline < n - 1:
        start = newline + 1
        if not _CONTINUES.match(text, start) and not _after_decorator(text, newline, 0):
            lines += text.count("\n", counted, start)
            counted = start
            if not in_tag(lines):
                starts.append((start, lines, ""))
                newline = text.find("\n", start + _PIECE + 1)
                continue
        elif start - starts[-1][0] > _PIECE + _PIECE // 4:
            lines += text.count("\n", counted, start)
            counted = start
            found, resume = _inner_start(text, start, lines, in_tag)
            if found is not None:
                counted, lines, _ = found
                starts.append(found)
                newline = text.find("\n", counted + _PIECE + 1)
            else:  # nothing in that quarter piece: on from its end
                newline = resume - 1
            continue
        newline = text.find("\n", newline + 1)
    starts.append((n, 0, ""))
    return starts


def _after_decorator(text: str, newline: int, indent: int) -> bool:
    """The line that ends at ``newline`` is a decorator (``@`` after ``indent`` characters)."""
    return text.startswith("@", text.rfind("\n", 0, newline) + 1 + indent)


def _inner_start(
    text: str, start: int, line: int, in_tag: Callable[[int], bool]
) -> tuple[tuple[int, int, str] | None, int]:
    """The line within a quarter piece from ``start`` (after ``line`` lines) where a piece may
    start inside a huge statement: one at column 0 as ``_piece_starts`` takes them, else the
    least indented line that continues nothing, follows no decorator nor block header and is
    in no tag string (``in_tag``): the body's statements are the least indented of a block,
    and a wrong guess fails in ``_graft``.  ``((offset, lines before it, indentation) or None,
    where the scan stopped)``: each line is looked at once."""
    best: tuple[int, int, str] | None = None
    limit = min(start + max(_PIECE // 4, 1), len(text))  # (one line at least: the scan moves on)
    while start < limit:
        indent = _INDENT.match(text, start)
        width = indent.end() - start if indent else 0
        if (not _CONTINUES.match(text, start + width) and text[start + width : start + width + 1] not in ("", "\n")
                and not _after_decorator(text, start - 1, width) and not text.endswith(":", 0, start - 1)
                and (best is None or width < len(best[2])) and not in_tag(line)):
            best = (start, line, text[start : start + width])
            if not width:
                break
        newline = text.find("\n", start)
        if newline < 0:
            return best, len(text)
        start, line = newline + 1, line + 1
    return best, start


def _start(tag: TagString) -> int:
    return tag.span.start
