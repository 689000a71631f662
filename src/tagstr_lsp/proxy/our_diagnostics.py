"""What the proxy reports itself: a malformed tag string (the runtime's error) and the TAG lints.

The TAG lints are the flake8 plugin's, run in-process on the editor's text
(``tagstr_flake8.lint.check_source``); without flake8 installed only the
runtime's errors are reported.  Each at its exact position, source
``tagstr``.
"""

from __future__ import annotations

import re
from typing import Any

from tagstr_runtime.frontend import Lines, PlaceholderView, SourceText

__all__ = ["our_diagnostics"]

_WORD = re.compile(r"\w+")
ERROR, WARNING = 1, 2


def _diagnostic(lines: Lines, line: int, column: int, message: str, code: str, severity: int) -> dict[str, Any]:
    text = lines.line(line)
    word = _WORD.match(text, column)
    end = word.end() if word else min(column + 1, len(text))
    return {"range": {"start": {"line": line, "character": lines.to_utf16(line, column)},
                      "end": {"line": line, "character": lines.to_utf16(line, max(end, column))}},
            "severity": severity, "source": "tagstr", "code": code, "message": message}


def our_diagnostics(view: PlaceholderView, path: str | None) -> list[dict[str, Any]]:
    lines = view.source_lines
    if view.error is not None:
        error = view.error
        line = max((error.lineno or 1) - 1, 0)
        return [_diagnostic(lines, line, max((error.offset or 1) - 1, 0), error.msg, "E999", ERROR)]
    if not view.has_tag_strings:
        return []
    try:
        from tagstr_flake8.lint.check_source import source_messages
    except ImportError:  # flake8 is not installed: the runtime's errors only
        return _desugaring_error(view, path)
    try:
        messages = source_messages(view.text, filename=path or "<string>")
    except SyntaxError as exc:
        line = max((exc.lineno or 1) - 1, 0)
        return [_diagnostic(lines, line, max((exc.offset or 1) - 1, 0), exc.msg, "E999", ERROR)]
    source = SourceText(view.text)
    out = []
    for message in messages:
        column = source.col_char(message.line, message.col)
        text = message.text
        out.append(_diagnostic(lines, message.line - 1, column, text.split(" ", 1)[1], text.split(" ", 1)[0], WARNING))
    return out


def _desugaring_error(view: PlaceholderView, path: str | None) -> list[dict[str, Any]]:
    from tagstr_runtime.frontend import Desugaring, TagSyntaxError

    try:
        Desugaring(view.text, path or "<string>")
    except TagSyntaxError as exc:
        line = max((exc.lineno or 1) - 1, 0)
        return [_diagnostic(view.source_lines, line, max((exc.offset or 1) - 1, 0), exc.msg, "E999", ERROR)]
    except SyntaxError:  # CPython's own error: the wrapped server reports it
        pass
    return []
