"""The embedded languages, one entry each: every other table of a language is derived from here.

An entry names the language (and the names a declaration may use), its marker
class in ``tagstr_runtime.languages``, the modules its checker imports (its
parser) and the extra that installs them, whether its holes may ask a type of
their value (the mypy plugin), and each kind of finding its checker reports
with the TAG code, message and default fix that report it.  The checker is
the module of ``analysis.embedded`` named as the language.  Derived from here:
the declared names (``LANGUAGES``), the extras, the markers, the flake8 message
classes and rules, the missing-parser notes, the mypy plugin's languages;
``tests/tagstr_runtime/test_language_registry.py`` checks that each part
(checker, example file, docs) is there.  See docs/languages.md, "Adding a
language", and, for why one registry, docs/decisions/0177-one-registry-entry-per-language.md.
"""

from __future__ import annotations

from typing import Final, Mapping, NamedTuple

__all__ = ["CHECK_FAILED", "FAILURE", "Language", "REGISTRY", "Report", "by_name", "reports"]


class Report(NamedTuple):
    """How a kind of finding is reported: its code, its message (``str.format`` fields that
    the finding's values fill; ``{expr}``: the hole's expression), the fix a ``{fix}`` field
    names when the finding gives none, and whether the code is on by default."""

    code: str
    template: str
    fix: str | None = None
    on_by_default: bool = True


class Language(NamedTuple):
    name: str  # the checked language, and its checker's module (``analysis.embedded.<name>``)
    names: tuple[str, ...]  # what a declaration may say (t-linter's names), lower case
    marker: str  # its marker class in ``tagstr_runtime.languages`` (``tstring_language = name``)
    parsers: tuple[str, ...]  # the modules its checker imports: present means checkable
    extra: str | None  # the extra of tagstr-toolkit that installs them (None: the standard library)
    reports: Mapping[str, Report]  # finding kind -> its report
    typed: bool = False  # its holes may ask a type of their value (``requirements``)


#: The finding of a check that failed (a parser's or our bug): reported at the template,
#: never silently dropped (``check`` in the flake8 plugin; TAGSTR_STRICT=1 re-raises).
CHECK_FAILED: Final = "check.failed"

_SYNTAX_FIX = "browsers repair it each in their own way: write what you mean"

_HTML: Final = {
    "html.end-tag": Report("TAG101", "HTML: {detail}; {fix}"),
    "html.unclosed": Report("TAG102", (
        "HTML: element {name!r} is never closed; add its end tag (only elements such as <p>, <li> and "
        "<td> may leave it out)")),
    "html.duplicate-attribute": Report(
        "TAG103", "HTML: duplicate attribute {name!r}: browsers keep only the first one; remove one of them"),
    "html.syntax": Report("TAG104", "HTML: {detail}; {fix}", _SYNTAX_FIX),
    "html.reference": Report("TAG105", "HTML: bad character reference: {detail}; write &amp; for a literal '&'"),
    "html.strict": Report("TAG106", "HTML (strict): {detail}; {fix}", on_by_default=False),
    "html.hole-unquoted": Report("TAG110", (
        "interpolation {expr!r} is the unquoted value of attribute {name!r}: a space in the value "
        "ends it and starts another attribute; quote it: {name}=\"{{{expr}}}\"")),
    "html.hole-name": Report("TAG111", (
        "interpolation {expr!r} stands for {what}: escaping cannot make a value a safe name; "
        "write the name, or spread a mapping of attributes on its own: <div {{attrs}}>")),
    "html.hole-raw-text": Report("TAG112", (
        "interpolation {expr!r} inside <{element}>: HTML escaping does not make a value safe there; "
        "pass it in a data- attribute or a <script type=\"application/json\"> block")),
    "html.hole-comment": Report("TAG113", (
        "interpolation {expr!r} inside an HTML comment: a '-->' in the value ends the comment; "
        "leave values out of comments")),
    "html.hole-event": Report("TAG114", (
        "interpolation {expr!r} in event handler attribute {name!r}: the value runs as JavaScript; "
        "add the handler in a script and pass the value in a data- attribute")),
    "html.hole-script-url": Report("TAG115", (
        "interpolation {expr!r} in a javascript: URL of attribute {name!r}: the value runs as "
        "JavaScript; link to a real URL, or add an event listener in a script")),
    "html.hole-framework-script": Report("TAG116", (
        "interpolation {expr!r} in attribute {name!r}, which {framework} runs as JavaScript: HTML "
        "escaping does not make a value safe there; pass it in a data- attribute and read it in the "
        "expression"), on_by_default=False),
    "html.hole-whole-url": Report("TAG117", (
        "interpolation {expr!r} is the whole URL of attribute {name!r}: a value such as "
        "'javascript:...' runs as a script; start the URL with a fixed scheme or path, or check "
        "the value's scheme"), on_by_default=False),
}
_SQL: Final = {
    "sql.syntax": Report("TAG201", "SQL: {detail}; {fix}", "check the statement there"),
    "sql.hole-identifier": Report("TAG202", (
        "interpolation {expr!r} stands for {what}: a bound parameter can only be a value; "
        "declare an identifier, {{{expr}:i}}, and check it against the names you allow")),
    "sql.hole-keyword": Report("TAG203", (
        "interpolation {expr!r} stands where SQL expects a keyword or an operator: a bound "
        "parameter can only be a value; choose between fixed SQL texts in Python")),
    "sql.hole-literal": Report("TAG204", (
        "interpolation {expr!r} inside {what}: the value is pasted into the quoted text, not "
        "bound; remove the quotes around it (a LIKE pattern: put the wildcards in the value)")),
    "sql.hole-comment": Report("TAG205", (
        "interpolation {expr!r} inside an SQL comment: a newline or '*/' in the value ends the "
        "comment; leave values out of comments")),
    "sql.adjacent": Report("TAG206", (
        "interpolation {expr!r} directly follows another one: two parameters side by side are not "
        "SQL; put an operator between them, or build the value in Python")),
    "sql.statements": Report("TAG207", (
        "SQL: {count} statements in one tag string (the second starts with {start!r}): drivers run "
        "only the first or all of them (which injections rely on); write one tag string per statement")),
}
_CSS: Final = {
    "css.syntax": Report("TAG301", "CSS: {detail}; {fix}", "check the rule there"),
    "css.hole-selector": Report("TAG302", (
        "interpolation {expr!r} in a CSS selector: escaping a value does not make it a selector; "
        "build the selector from fixed names")),
}
_JAVASCRIPT: Final = {
    "js.syntax": Report("TAG401", "JavaScript: {detail}; {fix}", "check the code there"),
    "js.hole-string": Report("TAG402", (
        "interpolation {expr!r} inside {what}: a quote or backslash in the value ends it; "
        "interpolate a JSON-encoded value outside the quotes")),
}
#: JSON, YAML and TOML share their codes (``{language}`` names which)
_DATA: Final = {
    "data.syntax": Report("TAG501", "{language}: {detail}; {fix}", "check the text there"),
    "data.duplicate-key": Report(
        "TAG502", "{language}: duplicate key {key!r}: readers keep one of the values; remove or rename one"),
    "data.hole-key": Report("TAG503", (
        "interpolation {expr!r} in a {language} key: the tag escapes values, not keys; write the "
        "key, or build the mapping in Python")),
}

#: One entry per language, in the order of their codes.
REGISTRY: Final[tuple[Language, ...]] = (
    Language("html", ("html",), "HTML", ("html5lib",), "html", _HTML, typed=True),
    Language("sql", ("sql",), "SQL", ("sqlglot",), "sql", _SQL, typed=True),
    Language("css", ("css",), "CSS", ("tinycss2",), "css", _CSS),
    Language("javascript", ("javascript", "js"), "JavaScript", ("tree_sitter", "tree_sitter_javascript"), "js",
             _JAVASCRIPT),
    Language("json", ("json",), "JSON", ("json",), None, _DATA),
    Language("yaml", ("yaml", "yml"), "YAML", ("yaml",), "yaml", _DATA),
    Language("toml", ("toml",), "TOML", ("tomllib",), None, _DATA),
)

#: Not a language's: a check that failed (always on).
FAILURE: Final = Report("TAG901", (
    "the {language} check of this tag string failed: {detail}; its other reports for this tag string "
    "may be missing (report it to tagstr's authors)"))


def by_name(name: str) -> Language | None:
    """The entry of a checked language (``"javascript"``), or None."""
    return _BY_NAME.get(name)


def reports() -> dict[str, Report]:
    """Every finding kind -> its report, each kind once (the data languages share theirs)."""
    found: dict[str, Report] = {}
    for language in REGISTRY:
        found.update(language.reports)
    found[CHECK_FAILED] = FAILURE
    return found


_BY_NAME: Final = {language.name: language for language in REGISTRY}

# the names ``tagstr_runtime.frontend`` gives them
LANGUAGE_REGISTRY = REGISTRY
LanguageReport = Report
CHECK_FAILURE = FAILURE
language_reports = reports
