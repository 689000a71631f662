"""The TAG rules: one module per code, all listed once in ``RULES``.

A check takes the ``FileContext`` of one file and yields message objects
(``_messages``); their text is rendered on the way out.  ``RULES`` is the one
place that says which rule reports which message class, in which module of
this package its ``check_tagNNN`` is, and whether it also runs on files
without tag strings: no registration by import, no package scanning, so
reading this file tells what runs.  A rule's module is imported the first
time the rule runs: a run over files without tag strings loads only the
rules that run on those (issue 28).
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Callable, Final, Iterable, NamedTuple

from tagstr_flake8._messages import (
    ArgumentlessSuper, AssignmentExpression, BuiltinTag, ClassVariable, CssHoleSelector, CssSyntax,
    DataDuplicateKey, DataHoleKey, DataSyntax, ExceptTarget, HtmlDuplicateAttribute, HtmlEndTag, HtmlHoleComment,
    HtmlHoleEvent, HtmlHoleName, HtmlHoleRawText, HtmlHoleScriptUrl, HtmlHoleUnquoted, HtmlReference, HtmlStrict,
    HtmlSyntax, HtmlUnclosed, JsHoleString, JsSyntax, KeywordString, LoopCapture, NamedEscape, PrefixBinding,
    PrefixedString, PythonTwo, SqlAdjacentHoles, SqlHoleComment, SqlHoleIdentifier, SqlHoleKeyword, SqlHoleLiteral,
    SqlStatements, SqlSyntax, TagMessage, TemplatePrefix, UnderLock, WithTarget,
)

if TYPE_CHECKING:
    from tagstr_flake8._context import FileContext

__all__ = ["Check", "RULES", "Rule"]

#: Python parses t-strings: ``tag(t"...")`` can be checked in files without tag strings.
TSTRINGS: Final = sys.version_info >= (3, 14)

Check = Callable[["FileContext"], Iterable[TagMessage]]


class Rule(NamedTuple):
    message: type[TagMessage]  # what the check reports: its code decides whether the rule runs
    module: str  # the module of this package that defines ``check_<code>``
    standard_files: bool = False  # also runs on files without tag strings

    @property
    def code(self) -> str:
        return self.message.code

    @property
    def check(self) -> Check:
        """``check_tagNNN`` of the rule's module (imported now if it is not yet)."""
        check = _CHECKS.get(self.code)
        if check is None:
            module = import_module(f"{__name__}.{self.module}")
            check = _CHECKS[self.code] = getattr(module, f"check_{self.code.lower()}")
        return check


_CHECKS: dict[str, Check] = {}  # code -> its check, once imported


RULES: Final[tuple[Rule, ...]] = (
    Rule(TemplatePrefix, "template_prefix"),
    Rule(NamedEscape, "named_escape"),
    Rule(PrefixBinding, "prefix_binding", standard_files=True),
    Rule(BuiltinTag, "builtin_tag"),
    Rule(ClassVariable, "class_scope"),
    Rule(LoopCapture, "loop_capture"),
    Rule(AssignmentExpression, "walrus"),
    Rule(KeywordString, "keyword_string", standard_files=True),
    Rule(WithTarget, "with_target"),
    Rule(UnderLock, "lock"),
    Rule(ArgumentlessSuper, "super_call"),
    Rule(PythonTwo, "python_two"),
    Rule(ExceptTarget, "except_target"),
    Rule(PrefixedString, "prefix_binding", standard_files=True),
    # embedded languages (docs/languages.md): one analysis per file, shared; on 3.14 also
    # for files without tag strings (tag(t"..."))
    Rule(HtmlEndTag, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlUnclosed, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlDuplicateAttribute, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlSyntax, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlReference, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlStrict, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleUnquoted, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleName, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleRawText, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleComment, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleEvent, "html_checks", standard_files=TSTRINGS),
    Rule(HtmlHoleScriptUrl, "html_checks", standard_files=TSTRINGS),
    Rule(SqlSyntax, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlHoleIdentifier, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlHoleKeyword, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlHoleLiteral, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlHoleComment, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlAdjacentHoles, "sql_checks", standard_files=TSTRINGS),
    Rule(SqlStatements, "sql_checks", standard_files=TSTRINGS),
    Rule(CssSyntax, "script_checks", standard_files=TSTRINGS),
    Rule(CssHoleSelector, "script_checks", standard_files=TSTRINGS),
    Rule(JsSyntax, "script_checks", standard_files=TSTRINGS),
    Rule(JsHoleString, "script_checks", standard_files=TSTRINGS),
    Rule(DataSyntax, "data_checks", standard_files=TSTRINGS),
    Rule(DataDuplicateKey, "data_checks", standard_files=TSTRINGS),
    Rule(DataHoleKey, "data_checks", standard_files=TSTRINGS),
)
