"""The embedded-language checks of one file: which tag strings (and 3.14 t-strings) declare a
language, their findings, and the TAG message of each at its exact position.

Computed once per file and shared by the language rules (``rules/tag1xx_html``...),
each of which keeps the messages of its code.  A tag's language is what its
definition declares, found by the analysis layer's tag resolver (through
aliases, factories and imports into the tree's other modules, each read once
per run), unless ``--tag-languages`` names it.  A file whose tags declare no
language imports no parser; a parser that is not installed is named once per
process on stderr (with the extra that brings it), and its checks are skipped.
"""

from __future__ import annotations

import ast
import logging
import os
import re
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping
from weakref import WeakKeyDictionary

from tagstr_runtime.frontend import (
    LanguageOptions, MissingParser, SourceText, check_language, language_name, strict,
)

from tagstr_flake8.lint import shared_notes as _shared_notes
from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import (
    CssHoleSelector, CssSyntax, DataDuplicateKey, DataHoleKey, DataSyntax, HtmlDuplicateAttribute, HtmlEndTag,
    HtmlHoleComment, HtmlHoleEvent, HtmlHoleName, HtmlHoleRawText, HtmlHoleScriptUrl, HtmlHoleUnquoted,
    HtmlReference, HtmlStrict, HtmlSyntax, HtmlUnclosed, JsHoleString, JsSyntax, SqlAdjacentHoles,
    SqlHoleComment, SqlHoleIdentifier, SqlHoleKeyword, SqlHoleLiteral, SqlStatements, SqlSyntax, TagMessage,
)

__all__ = ["Settings", "configure", "configured", "forget_modules", "messages_of", "parse_mapping"]

if TYPE_CHECKING:
    from tagstr_runtime.frontend import TagResolver

LOG = logging.getLogger(__name__)

#: A finding's kind -> the message reporting it.
MESSAGE_OF: Mapping[str, type[TagMessage]] = {
    "html.end-tag": HtmlEndTag, "html.unclosed": HtmlUnclosed, "html.duplicate-attribute": HtmlDuplicateAttribute,
    "html.syntax": HtmlSyntax, "html.reference": HtmlReference, "html.strict": HtmlStrict,
    "html.hole-unquoted": HtmlHoleUnquoted, "html.hole-name": HtmlHoleName, "html.hole-raw-text": HtmlHoleRawText,
    "html.hole-comment": HtmlHoleComment, "html.hole-event": HtmlHoleEvent,
    "html.hole-script-url": HtmlHoleScriptUrl,
    "sql.syntax": SqlSyntax, "sql.hole-identifier": SqlHoleIdentifier, "sql.hole-keyword": SqlHoleKeyword,
    "sql.hole-literal": SqlHoleLiteral, "sql.hole-comment": SqlHoleComment, "sql.adjacent": SqlAdjacentHoles,
    "sql.statements": SqlStatements,
    "css.syntax": CssSyntax, "css.hole-selector": CssHoleSelector,
    "js.syntax": JsSyntax, "js.hole-string": JsHoleString,
    "data.syntax": DataSyntax, "data.duplicate-key": DataDuplicateKey, "data.hole-key": DataHoleKey,
}
#: The fix a syntax message names when the parser's finding has none of its own.
DEFAULT_FIX: Mapping[type[TagMessage], str] = {
    HtmlSyntax: "browsers repair it each in their own way: write what you mean",
    SqlSyntax: "check the statement there", CssSyntax: "check the rule there",
    JsSyntax: "check the code there", DataSyntax: "check the text there",
}
check = check_language  # a module-level name: tests replace it

# a t-string prefix (3.14): t, tr, rt in any case, right before a quote
_TSTRING = re.compile(r"(?:(?<=[\s(\[{,=:+*/%&|^<>~!-])|^)(?:[tT][rR]?|[rR][tT])['\"]", re.MULTILINE)


class Settings:
    """The flake8 options of the checks (set by ``TagstrChecker.parse_options``), and the tag
    resolver of the run: each module a tag is imported from is read once per run."""

    def __init__(self, languages: Mapping[str, str] | None = None, sql_dialect: str = "sqlite") -> None:
        self.languages = dict(languages or {})  # tag (qualified or plain name) -> language
        self.options = LanguageOptions(sql_dialect=sql_dialect, html_strict=True)  # TAG106's rule filters
        self._resolver: TagResolver | None = None

    def resolver(self) -> TagResolver:
        """The run's tag resolver, following imports from where flake8 runs and from each file's package."""
        if self._resolver is None:
            from tagstr_runtime.frontend import ModuleFinder, TagResolver

            self._resolver = TagResolver(ModuleFinder([os.getcwd()]))
        return self._resolver

    def forget_modules(self) -> None:
        """Read the imported modules again (``check_source``: each call sees the files as they are)."""
        self._resolver = None


SETTINGS = Settings()
_NOTED: set[str] = set()
_FOUND: WeakKeyDictionary[FileContext, list[TagMessage]] = WeakKeyDictionary()


def parse_mapping(value: str | Iterable[str]) -> dict[str, str]:
    """``"db.sql=sql, web.page=html"`` (or its lines) -> ``{"db.sql": "sql", "web.page": "html"}``."""
    text = value if isinstance(value, str) else ",".join(value)
    items = re.split(r"[,\s]+", re.sub(r"\s*=\s*", "=", text))
    mapping: dict[str, str] = {}
    for item in filter(None, items):
        name, _, language = item.partition("=")
        checked = language_name(language)
        if not name or checked is None:
            raise ValueError(f"--tag-languages: {item!r} is not NAME=LANGUAGE with a known language")
        mapping[name.strip()] = checked
    return mapping


def configure(languages: Mapping[str, str], sql_dialect: str) -> None:
    global SETTINGS
    SETTINGS = Settings(languages, sql_dialect)


@contextmanager
def configured(languages: str = "", sql_dialect: str = "sqlite") -> Iterator[None]:
    """The settings of ``--tag-languages`` and ``--tag-sql-dialect`` for a while (in-process checks)."""
    global SETTINGS
    saved = SETTINGS
    SETTINGS = Settings(parse_mapping(languages), sql_dialect)
    try:
        yield
    finally:
        SETTINGS = saved


def forget_modules() -> None:
    SETTINGS.forget_modules()


def messages_of(ctx: FileContext, message: type[TagMessage]) -> Iterator[TagMessage]:
    """The messages of one code in the file (the analysis runs once per file)."""
    found = _FOUND.get(ctx)
    if found is None:
        found = _FOUND[ctx] = list(_messages(ctx))
    return (m for m in found if type(m) is message)


def _messages(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    tstrings = sys.version_info >= (3, 14) and _TSTRING.search(ctx.text) is not None
    if (tagfile is None or not tagfile.tags) and not tstrings:
        return
    from tagstr_runtime.frontend import LanguageResolver

    resolver = LanguageResolver(SETTINGS.resolver(), SETTINGS.languages)
    module = ctx.module
    if tagfile is not None:
        source = tagfile.source
        for site in tagfile.desugaring.sites:
            language = resolver.site_language(module, site)
            if language is not None:
                from tagstr_runtime.frontend import template_of_site

                yield from _check(language, template_of_site(site), source)
    if tstrings:  # pragma: >=3.14 cover
        source = tagfile.source if tagfile is not None else ctx.source
        for func, node in _tstring_calls(ctx.tree):
            language = resolver.language(module, func)
            if language is not None:
                from tagstr_runtime.frontend import template_of_tstring

                found = template_of_tstring(node, source)
                if found is not None:
                    yield from _check(language, found, source)


def _tstring_calls(tree: ast.AST) -> Iterator[tuple[ast.expr, ast.AST]]:
    """``tag(t"...")``, ``module.tag(t"...")``: the tag and the t-string, for each call whose first
    argument is one."""
    template_str = getattr(ast, "TemplateStr", None)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and node.args
                and type(node.args[0]) is template_str):
            yield node.func, node.args[0]


def _check(language: str, template: Any, source: SourceText) -> Iterator[TagMessage]:
    try:
        findings = check(language, template.strings, template.slots, SETTINGS.options)
    except MissingParser as exc:
        _note(exc)
        return
    except Exception:  # a parser's bug on odd input costs this tag string's checks, not the file's
        if strict():
            raise
        LOG.exception("tagstr_flake8: the %s check failed", language)
        return
    for finding in findings:
        message = MESSAGE_OF[finding.kind]
        line, col = source.line_col_byte(template.source_offset(finding))
        args: dict[str, object] = {"fix": DEFAULT_FIX.get(message, ""), **dict(finding.args)}
        if finding.hole is not None:
            args["expr"] = template.slots[finding.hole].expr
        yield message(line, col, **{name: args.get(name, "") for name in message.field_names})


def _note(exc: MissingParser) -> None:
    if exc.language in _NOTED:
        return
    _NOTED.add(exc.language)
    shared = _shared_notes.SHARED
    if shared is not None:
        flags, lock = shared
        index = _shared_notes.LANGUAGE_INDEX[exc.language]
        with lock:
            if flags[index]:
                return
            flags[index] = 1
    sys.stderr.write(f"tagstr_flake8: {exc} (its checks are skipped)\n")
    sys.stderr.flush()
