"""The TAG code table: one message class per code, and which codes are off by default.

As in pyflakes, a diagnostic is a small object: where it is, plus the values
its class's template names (``TemplatePrefix(line, col, tag="t")``); the text
is rendered only when printed.  Each class carries its ``code``, so a rule
never spells a code, and its ``template`` names its fields, so a rule passes
each value once.  Grepping a code finds its class here, its rule in
``rules/``, its example file in ``tests/tagstr_flake8/examples/`` and its entry in
``docs/flake8.md``.

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

__all__ = [
    "ArgumentlessSuper", "AssignmentExpression", "BACKSLASH_N_FIX", "BuiltinTag", "ClassVariable", "CODES",
    "ExceptTarget", "HOOK_CODES", "KeywordString", "LANGUAGE_FIXES", "LANGUAGE_MESSAGE_OF", "LANGUAGE_MESSAGES",
    "LoopCapture", "MESSAGES", "NAMED_ESCAPE_FIX", "NamedEscape", "OFF_BY_DEFAULT", "PluginFailure", "PrefixBinding",
    "PrefixedString", "PYTHON_TWO", "PythonTwo", "TagMessage", "TemplatePrefix", "UnderLock", "WithTarget",
]


class TagMessage:
    """One TAG diagnostic: position, code (from the class) and the values of its template's fields."""

    code: ClassVar[str]
    template: ClassVar[str]  # str.format template with named fields; the text follows the code
    field_names: ClassVar[frozenset[str]]

    __slots__ = ("line", "col", "args")

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.field_names = frozenset(name for _, name, _, _ in Formatter().parse(cls.template) if name)

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


class TemplatePrefix(TagMessage):
    code = "TAG001"
    template = (
        "tag {tag!r} is a template-string prefix on Python 3.14: there {tag}\"...\" is a t-string, "
        "not a call of {tag!r}; rename the tag"
    )


class NamedEscape(TagMessage):
    code = "TAG002"
    template = (
        "'\\N{{' in a tag string starts an interpolation of {name!r}, not a named character; {fix}"
    )


class PrefixBinding(TagMessage):
    code = "TAG003"
    template = (
        "{name!r} is a tag but is named like a string prefix: {name}\"...\" is a string literal, "
        "never a call of the tag; rename it"
    )


class BuiltinTag(TagMessage):
    code = "TAG004"
    template = (
        "builtin {tag!r} is not a tag function: {tag}\"...\" calls it with Decoded and "
        "Interpolation arguments; call it on an f-string: {tag}(f\"...\")"
    )


class ClassVariable(TagMessage):
    code = "TAG005"
    template = (
        "interpolation reads class variable {name!r}: the lazy closure cannot see the class "
        "body (it reads a global of that name or raises NameError); use a module constant, "
        "or self.{name} in a method"
    )


class LoopCapture(TagMessage):
    code = "TAG006"
    template = (
        "interpolation captures loop variable {name!r}: a tag that reads it later sees the "
        "value of a later iteration; build the tag string in a function taking {name}"
    )


class AssignmentExpression(TagMessage):
    code = "TAG007"
    template = (
        "assignment expression in an interpolation binds {name!r} inside the lazy closure, "
        "not in the enclosing scope; assign it before the tag string"
    )


class KeywordString(TagMessage):
    code = "TAG008"
    template = (
        "keyword {keyword!r} immediately followed by a string reads like a tag string but is "
        "not one; add a space"
    )


class WithTarget(TagMessage):
    code = "TAG009"
    template = (
        "interpolation reads {name!r}, bound by the enclosing 'with': a tag that reads it "
        "later may find it closed; read it in the block and interpolate the result"
    )


class UnderLock(TagMessage):
    code = "TAG010"
    template = (
        "interpolation {expr!r} inside 'with {lock}': a tag that reads it later does so after "
        "the lock is released; copy it under the lock and interpolate the copy"
    )


class ArgumentlessSuper(TagMessage):
    code = "TAG011"
    template = (
        "interpolation {expr!r} calls super() without arguments: the lazy closure has no "
        "arguments, so reading it raises RuntimeError; write super({owner}, self) or bind it "
        "before the tag string"
    )


class PythonTwo(TagMessage):
    code = "TAG012"
    template = "Python 2 syntax: {tag!r} before a string {what}; {fix}"


#: The Python 2 forms TAG012 knows: tag name (lower case) -> what it was, what to write.
PYTHON_TWO: Final[Mapping[str, tuple[str, str]]] = {
    "print": ("is the print statement of Python 2, here a tag string calling print()",
              "write print(\"...\")"),
    "exec": ("is the exec statement of Python 2, here a tag string calling exec()",
             "write exec(\"...\")"),
    "ur": ("is the raw unicode prefix of Python 2, here a tag named 'ur' (a NameError)",
           "write r\"...\": every string is unicode"),
}

#: TAG002's fix: with the name of a real character, or (any other name) for a backslash and N.
NAMED_ESCAPE_FIX: Final = "write '\\N{{{{{name}}}}}' for the character"
BACKSLASH_N_FIX: Final = "write '\\\\N' for a backslash and N before it"


class ExceptTarget(TagMessage):
    code = "TAG013"
    template = (
        "interpolation reads {name!r}, the name of the enclosing 'except ... as', which Python "
        "deletes when the clause ends: a tag that reads it later gets NameError; bind it to "
        "another name first"
    )


class PrefixedString(TagMessage):
    code = "TAG014"
    template = (
        "{name}\"...\" is {kind}, not a call of the tag {name!r} ({where}); rename the tag"
    )


# embedded languages (docs/languages.md): HTML 1xx, SQL 2xx, CSS 3xx, JavaScript 4xx, JSON/YAML/TOML 5xx,
# a failed check TAG901; their codes, texts and default fixes are the language registry's
# (tagstr_runtime's ``LANGUAGE_REGISTRY``): one class per finding kind, made from its entry


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


#: The code table: code -> message class, in code order.
CODES: Final[Mapping[str, type[TagMessage]]] = {
    cls.code: cls
    for cls in (
        TemplatePrefix, NamedEscape, PrefixBinding, BuiltinTag, ClassVariable,
        LoopCapture, AssignmentExpression, KeywordString, WithTarget, UnderLock,
        ArgumentlessSuper, PythonTwo, ExceptTarget, PrefixedString,
    )
} | {cls.code: cls for cls in LANGUAGE_MESSAGES}

#: code -> its text with ``{field}`` holes (as printed, code first).
MESSAGES: Final[Mapping[str, str]] = {code: f"{code} {cls.template}" for code, cls in CODES.items()}

#: Codes the hooks report about other plugins, not rules: always on, no rule to run.
HOOK_CODES: Final[Mapping[str, type[TagMessage]]] = {PluginFailure.code: PluginFailure}

# Taste and "may be a hazard, depending on the tag" rules: enabled with --extend-select.
# The lazy-evaluation rules fire only if the tag keeps an Interpolation and calls
# getvalue() later; most tags (html, sql...) read every value at once, so by
# default they would report nearly every tag string written in a loop.
OFF_BY_DEFAULT: Final[tuple[str, ...]] = tuple(
    cls.code for cls in (LoopCapture, KeywordString, WithTarget, UnderLock, ExceptTarget)
) + tuple(report.code for report in language_reports().values() if not report.on_by_default)
