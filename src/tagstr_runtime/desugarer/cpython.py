"""CPython's parse of a text that stands for the source, its errors moved back onto the source.

The desugarer shows CPython texts that keep every line and every UTF-8
column of the source (the placeholder text; the stand-ins of
``desugarer.first_error``), so that CPython's positions are the source's.  Only its
character columns need converting back, and an error inside a tag string
gets the tag-string wording (SPEC 5).
"""

from __future__ import annotations

import ast
import builtins

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.source import SourceText

__all__ = ["compile_text", "parse_text", "restore"]

_builtin_compile = builtins.compile


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
