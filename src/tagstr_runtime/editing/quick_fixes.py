"""The mechanical fixes of TAG lints, as an editor's quick fixes offer them.

* TAG001 (a tag named ``t``, ``tr`` or ``rt``): rename the tag, which a
  language server does (its rename reaches every use, holes and other
  modules included): a ``RenameFix`` says where and to what.
* TAG002 (``\\N{NAME}`` starts a hole): the doubled braces when ``NAME`` is a
  character's name, else an escaped backslash: text edits.
* TAG011 (``super()`` in a hole): ``super(Owner, self)``, with the enclosing
  class and the method's first parameter, when both are known.

The findings are the analysis layer's and the parser's, as the flake8 rules
read them; the fixes are in source offsets.
"""

from __future__ import annotations

import ast
import unicodedata
from typing import NamedTuple, Sequence

from tagstr_runtime.editing.tag_index import Edit
from tagstr_runtime.syntax.model import TagString
from tagstr_runtime.syntax.words import TEMPLATE_PREFIXES

__all__ = ["QuickFix", "RenameFix", "quick_fixes"]


class QuickFix(NamedTuple):
    code: str
    title: str
    span: tuple[int, int]  # what the lint reports (source offsets)
    edits: tuple[Edit, ...]


class RenameFix(NamedTuple):
    code: str
    title: str
    span: tuple[int, int]
    at: int  # a use of the name to rename (source offset)
    new_name: str


def _fresh_name(text: str, name: str) -> str:
    base = "tmpl" if name.lower() == "t" else f"{name}_tag"
    candidate, number = base, 2
    while candidate in text:
        candidate, number = f"{base}{number}", number + 1
    return candidate


def _is_character_name(name: str) -> bool:
    try:
        unicodedata.lookup(name)
    except KeyError:
        return False
    return True


def quick_fixes(text: str, tags: Sequence[TagString], warnings: Sequence[object] = (),
                filename: str = "<unknown>") -> list[QuickFix | RenameFix]:
    """The fixes for ``text``'s tag strings (``tags``: the outermost; ``warnings``: the
    parser's ``CompileWarning``s, which mark ``\\N{``)."""
    fixes: list[QuickFix | RenameFix] = []
    names: set[str] = set()
    for outer in tags:
        for tag in outer.walk():
            if tag.tag.lower() in TEMPLATE_PREFIXES and tag.tag not in names:
                names.add(tag.tag)
                new = _fresh_name(text, tag.tag)
                fixes.append(RenameFix("TAG001", f"Rename tag '{tag.tag}' to '{new}' (TAG001)",
                                       (tag.span.start, tag.span.start + 1), tag.tag_span.start, new))
    fields = {f.span.start: f for outer in tags for tag in outer.walk() for f in tag.fields()}
    for warning in warnings:
        span = warning.span  # type: ignore[attr-defined]
        field = fields.get(span.end - 1)
        if field is None:
            continue
        edits: tuple[Edit, ...]
        if _is_character_name(field.expr):
            edits = (Edit(field.span.start, field.span.start + 1, "{{"), Edit(field.span.end - 1, field.span.end, "}}"))
            title = f"Write '\\N{{{{{field.expr}}}}}' for the character (TAG002)"
        else:
            edits = (Edit(span.start, span.start, "\\"),)
            title = "Write '\\\\N' for a backslash and N (TAG002)"
        fixes.append(QuickFix("TAG002", title, (span.start, span.end), edits))
    if any("super" in text[f.expr_span.start : f.expr_span.end] for f in fields.values()):
        fixes += _super_fixes(text, filename)
    return fixes


def _super_fixes(text: str, filename: str) -> list[QuickFix | RenameFix]:
    from tagstr_runtime.analysis.findings import argumentless_super
    from tagstr_runtime.analysis.module import ModuleAnalysis

    try:
        module = ModuleAnalysis.read(text, filename)
    except SyntaxError:
        return []
    out: list[QuickFix | RenameFix] = []
    for finding in argumentless_super(module):
        method = next((node for node in reversed(finding.site.chain)
                       if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        owner = finding.args.get("owner")
        if method is None or not method.args.args or owner in (None, "Cls"):
            continue
        first = method.args.args[0].arg
        start, end = finding.span
        call = text[start:end]
        if not call.startswith("super") or not call.rstrip().endswith(")"):
            continue
        replaced = f"super({owner}, {first})"
        out.append(QuickFix("TAG011", f"Write {replaced} (TAG011)", (start, end), (Edit(start, end, replaced),)))
    return out
