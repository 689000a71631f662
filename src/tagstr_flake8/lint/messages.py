"""TAG messages: the ``TagMessage`` base, the embedded-language messages and TAG900.

As in pyflakes, a diagnostic is a small object: where it is, plus the values
its class's template names (``TemplatePrefix(line, col, tag="t")``); the text
is rendered only when printed.  Each class carries its ``code``, so a rule
never spells a code, and its ``template`` names its fields, so a rule passes
each value once.  A rule's message class is written in its rule module and
gets its code from its entry of ``tagstr_flake8.rules.RULES``, the one place a
code is declared (``RuleMessage``).

The embedded-language codes (``TAG1xx``-``TAG5xx``, ``TAG901``) are made here
from the language registry's entries (``tagstr_runtime.frontend.LANGUAGE_REGISTRY``),
which holds their texts: a language is declared in one place.
"""

from __future__ import annotations

import ast
import re
from string import Formatter
from typing import Any, ClassVar, Final, Mapping, cast

from tagstr_runtime.frontend import LanguageReport, language_reports

__all__ = ["HOOK_CODES", "LANGUAGE_FIXES", "LANGUAGE_MESSAGE_OF", "LANGUAGE_MESSAGES", "PluginFailure", "TagMessage"]


class TagMessage:
    """One TAG diagnostic: position, code (from the class) and the values of its template's fields."""

    code: ClassVar[str]
    template: ClassVar[str]  # str.format template with named fields; the text follows the code
    field_names: ClassVar[frozenset[str]]

    __slots__ = ("line", "col", "args")

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        template = cls.__dict__.get("template")
        if template is not None:  # a base without a template (``RuleMessage``) has no fields
            cls.field_names = frozenset(name for _, name, _, _ in Formatter().parse(template) if name)

    def __init__(self, line: int, col: int, **args: object) -> None:
        if args.keys() != self.field_names:  # a rule passing the wrong values fails at once
            raise TypeError(f"{type(self).__name__} takes {sorted(self.field_names)}, got {sorted(args)}")
        self.line = line
        self.col = col  # 0-based UTF-8 bytes: the unit of ast col_offset, as every AST plugin reports
        self.args = args

    @classmethod
    def at(cls, node: ast.expr | ast.stmt, **args: object) -> TagMessage:
        """The message reported at the start of ``node``."""
        return cls(node.lineno, node.col_offset, **args)

    @classmethod
    def found(cls, position: tuple[int, int], args: Mapping[str, Any]) -> TagMessage:
        """The message of an analysis-layer finding: at (line, byte column), with its values."""
        return cls(*position, **args)

    @property
    def text(self) -> str:
        return f"{self.code} {self.template.format(**self.args)}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.line}, {self.col}, **{self.args!r})"


# embedded languages (docs/languages.md): HTML 1xx, SQL 2xx, CSS 3xx, JavaScript 4xx, JSON/YAML/TOML 5xx,
# a failed check TAG901; their codes, texts, default fixes and defaults on or off are the language
# registry's (tagstr_runtime's ``LANGUAGE_REGISTRY``): one class per finding kind, made from its entry


def _class_name(kind: str) -> str:
    """``"html.end-tag"`` -> ``"HtmlEndTag"``."""
    return "".join(part.capitalize() for part in re.split(r"[.-]", kind))


def _language_message(kind: str, report: LanguageReport) -> type[TagMessage]:
    made = type(_class_name(kind), (TagMessage,), {
        "__module__": __name__, "__slots__": (), "__doc__": f"{report.code}: the {kind!r} finding.",
        "code": report.code, "template": report.template,
    })
    return cast("type[TagMessage]", made)


#: A finding's kind -> the message class reporting it, in code order.
LANGUAGE_MESSAGE_OF: Final[Mapping[str, type[TagMessage]]] = {
    kind: _language_message(kind, report)
    for kind, report in sorted(language_reports().items(), key=lambda item: item[1].code)
}
#: Embedded-language codes, in code order (their rules share one analysis per file).
LANGUAGE_MESSAGES: Final[tuple[type[TagMessage], ...]] = tuple(LANGUAGE_MESSAGE_OF.values())
#: The fix a message's ``{fix}`` names when the finding gives none, by kind.
LANGUAGE_FIXES: Final[Mapping[str, str]] = {
    kind: report.fix for kind, report in language_reports().items() if report.fix
}


class PluginFailure(TagMessage):
    """Not a rule's: the hooks report it when another plugin raises on a file with tag strings."""

    code = "TAG900"
    template = (
        "plugin \"{plugin}\" failed on this file, which has tag strings: {error}; its reports for "
        "this file are incomplete (report it to the plugin's authors)"
    )


#: Codes the hooks report about other plugins, not rules: always on, no rule to run.
HOOK_CODES: Final[Mapping[str, type[TagMessage]]] = {PluginFailure.code: PluginFailure}
