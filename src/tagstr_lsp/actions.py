"""The TAG quick fixes as LSP code actions, for the pylsp plugin and the proxy alike.

The fixes are ``editing.quick_fixes``'s; text edits (TAG002, TAG011) become the
action's edit here, and a tag's rename (TAG001) is left to the caller, which asks
its language server's rename so that every use is reached.
"""

from __future__ import annotations

from typing import Any

from tagstr_runtime.frontend import Lines, PlaceholderView, QuickFix, RenameFix, quick_fixes

__all__ = ["fix_actions", "lsp_position"]


def lsp_position(lines: Lines, offset: int, utf16: bool) -> dict[str, int]:
    line, column = lines.position(offset)
    return {"line": line, "character": lines.to_utf16(line, column) if utf16 else column}


def _offset(lines: Lines, position: dict[str, Any], utf16: bool) -> int:
    line, column = int(position["line"]), int(position["character"])
    return lines.offset(line, lines.from_utf16(line, column) if utf16 and 0 <= line < len(lines) else column)


def fix_actions(view: PlaceholderView, path: str | None, uri: str, requested: dict[str, Any],
                diagnostics: list[Any], utf16: bool) -> list[tuple[QuickFix | RenameFix, dict[str, Any]]]:
    """Each fix of the ``view``'s source that meets the ``requested`` range, with its action (a
    rename's has no edit yet); ``utf16``: columns in UTF-16 code units (LSP's default) rather
    than characters.  The view's parse is read, not made again: editors ask at each move."""
    if not view.has_tag_strings or view.error is not None:
        return []
    lines = view.source_lines
    start, end = _offset(lines, requested["start"], utf16), _offset(lines, requested["end"], utf16)
    out: list[tuple[QuickFix | RenameFix, dict[str, Any]]] = []
    for fix in quick_fixes(view.text, view.tags, view.warnings, path or "<unknown>"):
        if fix.span[1] < start or fix.span[0] > end:
            continue
        action: dict[str, Any] = {"title": fix.title, "kind": "quickfix", "diagnostics": [
            d for d in diagnostics if isinstance(d, dict) and str(d.get("code")) == fix.code]}
        if isinstance(fix, QuickFix):
            action["edit"] = {"changes": {uri: [
                {"range": {"start": lsp_position(lines, e.start, utf16), "end": lsp_position(lines, e.end, utf16)},
                 "newText": e.content} for e in fix.edits]}}
        out.append((fix, action))
    return out
