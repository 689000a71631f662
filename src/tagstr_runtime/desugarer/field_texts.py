"""The texts CPython copies from the source into an f-string or t-string, put back as written.

CPython parses the placeholder text, where each tag string is a same-shape
call (``up'x{x}'`` reads ``up(  x,)``).  Two things an f-string or t-string
keeps are source text, so they would show the placeholder: an ``=`` field's
text (``f"{up'x{x}'=}"`` prints ``up'x{x}'='XABC'``, not ``up(  x,)=...``),
and a 3.14 ``Interpolation``'s ``expression``.  ``restore_field_texts``
copies the source's text back into both, for the f-strings and t-strings
that hold a tag string in a field.  Positions are matched by line and byte
column: the placeholder keeps each line's byte length, so every position
outside a tag string is the same in both texts.
"""

from __future__ import annotations

import ast
from typing import Iterable

from tagstr_runtime.desugarer.sites import Site
from tagstr_runtime.syntax.source import SourceText

__all__ = ["restore_field_texts"]

_FIELDS = tuple(k for k in (ast.FormattedValue, getattr(ast, "Interpolation", None)) if k is not None)
_STRINGS = tuple(k for k in (ast.JoinedStr, getattr(ast, "TemplateStr", None)) if k is not None)


def restore_field_texts(sites: Iterable[Site], source: SourceText, placeholder: str) -> None:
    """Fix, in place, the ``=`` texts and expression texts of the f-strings and t-strings on the
    way to each site (``Site.path``)."""
    strings: dict[int, ast.AST] = {}
    for site in sites:
        for node in site.path:
            if isinstance(node, _STRINGS):
                strings[id(node)] = node
    if not strings:
        return
    fixer = _Fixer(source, SourceText(placeholder))
    for node in strings.values():
        fixer.fix(node)


class _Fixer:
    def __init__(self, source: SourceText, placeholder: SourceText) -> None:
        self.source = source
        self.placeholder = placeholder

    def fix(self, string: ast.AST) -> None:
        values: list[ast.AST] = getattr(string, "values", [])
        for index, field in enumerate(values):
            if not isinstance(field, _FIELDS):
                continue
            value: ast.expr = field.value
            if getattr(value, "end_lineno", None) is None:
                continue
            texts = self.texts(value)
            if texts is None:
                continue
            (written, shown), debug = texts
            if written == shown:
                continue
            if debug is not None and index > 0:
                before = values[index - 1]
                debug_written, debug_shown = debug
                if isinstance(before, ast.Constant) and isinstance(before.value, str) and before.value.endswith(
                    debug_shown
                ):
                    before.value = before.value[: len(before.value) - len(debug_shown)] + debug_written
            expression = getattr(field, "str", None)
            if isinstance(expression, str):  # 3.14's Interpolation (typeshed of older Pythons: no such field)
                vars(field)["str"] = self.expression(field, value, expression)

    def texts(self, value: ast.expr) -> tuple[tuple[str, str], tuple[str, str] | None] | None:
        """The field's text from after ``{`` to the end of the expression, as written and as the
        placeholder shows it; and its ``=`` text likewise (None without ``=``)."""
        ph = self.placeholder.text
        start = self.placeholder.offset(value.lineno, value.col_offset)
        end = self.placeholder.offset(value.end_lineno, value.end_col_offset)  # type: ignore[arg-type]
        brace = start - 1
        while brace >= 0 and ph[brace] in " \t\n\r\f(\\":
            brace -= 1
        if brace < 0 or ph[brace] != "{":
            return None
        after = end
        while after < len(ph) and ph[after] in " \t\n\r\f)":
            after += 1
        debug_end = None
        if ph.startswith("=", after) and not ph.startswith("==", after):
            debug_end = after + 1
            while debug_end < len(ph) and ph[debug_end] in " \t\n\r\f":
                debug_end += 1
        first = self._mapped(brace + 1)
        written = (self.source.text[first : self._mapped(end)], ph[brace + 1 : end])
        if debug_end is None:
            return written, None
        return written, (self.source.text[first : self._mapped(debug_end)], ph[brace + 1 : debug_end])

    def expression(self, field: ast.AST, value: ast.expr, shown: str) -> str:
        """A t-string ``Interpolation``'s expression text as written."""
        ph = self.placeholder.text
        start = self.placeholder.offset(value.lineno, value.col_offset)
        brace = start - 1
        while brace >= 0 and ph[brace] in " \t\n\r\f(\\":
            brace -= 1
        if not ph.startswith(shown, brace + 1):
            return shown
        return self.source.text[self._mapped(brace + 1) : self._mapped(brace + 1 + len(shown))]

    def _mapped(self, offset: int) -> int:
        """The source offset at the placeholder offset's line and byte column."""
        return self.source.offset(*self.placeholder.line_col_byte(offset))
