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
    CHECK_FAILED, LanguageOptions, MissingParser, SourceText, check_language, language_name, strict,
)

from tagstr_flake8.lint import shared_notes as _shared_notes
from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import LANGUAGE_FIXES, LANGUAGE_MESSAGE_OF, TagMessage

__all__ = ["Settings", "configure", "configured", "forget_modules", "messages_of", "parse_mapping"]

if TYPE_CHECKING:
    from tagstr_runtime.frontend import TagResolver

LOG = logging.getLogger(__name__)

check = check_language  # a module-level name: tests replace it

# a t-string prefix (3.14): t, tr, rt in any case, right before a quote
_TSTRING = re.compile(r"(?:(?<=[\s(\[{,=:+*/%&|^<>~!-])|^)(?:[tT][rR]?|[rR][tT])['\"]", re.MULTILINE)


class Settings:
    """The flake8 options of the checks (set by ``TagstrChecker.parse_options``), and the tag
    resolver of the run: each module a tag is imported from is read once per run."""

    def __init__(self, languages: Mapping[str, str] | None = None, sql_dialect: str = "sqlite") -> None:
        self.languages = dict(languages or {})  # tag (qualified or plain name) -> language
        # every check: the rules of the codes off by default (TAG106, TAG116, TAG117) filter
        self.options = LanguageOptions(sql_dialect=sql_dialect, html_strict=True, html_opt_in=True)
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


class BadFinding(Exception):
    """A finding its message cannot report: an unknown kind, a value missing or empty."""


def _check(language: str, template: Any, source: SourceText) -> Iterator[TagMessage]:
    """The messages of one template's findings; a check that fails is reported at the template
    (TAG901, naming the failure), never dropped, and costs only that template's other reports."""
    try:
        findings = check(language, template.strings, template.slots, SETTINGS.options)
    except MissingParser as exc:
        _note(exc)
        return
    except Exception as exc:  # a parser's bug on odd input, or ours
        yield _failure(language, template, source, exc)
        return
    for finding in findings:
        try:
            yield _message(finding, template, source)
        except BadFinding as exc:
            yield _failure(language, template, source, exc)


def _message(finding: Any, template: Any, source: SourceText) -> TagMessage:
    message = LANGUAGE_MESSAGE_OF.get(finding.kind)
    if message is None or finding.kind == CHECK_FAILED:
        raise BadFinding(f"a finding of unknown kind {finding.kind!r}")
    args: dict[str, object] = dict(finding.args)
    empty = sorted(name for name, value in args.items() if value == "")
    if empty:  # fix="" would erase the default fix, detail="" print nothing
        raise BadFinding(f"a {finding.kind!r} finding with an empty {', '.join(empty)}")
    if "fix" not in args and finding.kind in LANGUAGE_FIXES:
        args["fix"] = LANGUAGE_FIXES[finding.kind]
    if finding.hole is not None:
        args["expr"] = template.slots[finding.hole].expr
    missing = sorted(message.field_names - args.keys())
    if missing:
        raise BadFinding(f"a {finding.kind!r} finding without {', '.join(missing)}")
    line, col = source.line_col_byte(template.source_offset(finding))
    return message(line, col, **{name: args[name] for name in message.field_names})


def _failure(language: str, template: Any, source: SourceText, exc: BaseException) -> TagMessage:
    """TAG901 at the template's text (under TAGSTR_STRICT=1 its traceback goes to stderr too)."""
    if strict():
        LOG.error("tagstr_flake8: the %s check failed", language, exc_info=exc)
    else:
        LOG.debug("tagstr_flake8: the %s check failed", language, exc_info=exc)
    error = f"{type(exc).__name__}: {exc}" if not isinstance(exc, BadFinding) else str(exc)
    line, col = source.line_col_byte(template.string_offset(0, 0))
    return LANGUAGE_MESSAGE_OF[CHECK_FAILED](line, col, language=language, detail=error)


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
