"""The TAG rules: one module per code, all listed once in ``RULES``.

A check takes the ``FileContext`` of one file and yields message objects
(``_messages``); their text is rendered on the way out.  ``RULES`` is the one
place that says which rule reports which message class and whether it also
runs on files without tag strings: no registration by import, no package
scanning, so reading this file tells what runs.
"""

from __future__ import annotations

import sys
from typing import Callable, Final, Iterable, NamedTuple

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import (
    ArgumentlessSuper, AssignmentExpression, BuiltinTag, ClassVariable, CssHoleSelector, CssSyntax,
    DataDuplicateKey, DataHoleKey, DataSyntax, ExceptTarget, HtmlDuplicateAttribute, HtmlEndTag, HtmlHoleComment,
    HtmlHoleEvent, HtmlHoleName, HtmlHoleRawText, HtmlHoleScriptUrl, HtmlHoleUnquoted, HtmlReference, HtmlStrict,
    HtmlSyntax, HtmlUnclosed, JsHoleString, JsSyntax, KeywordString, LoopCapture, NamedEscape, PrefixBinding,
    PythonTwo, SqlAdjacentHoles, SqlHoleComment, SqlHoleIdentifier, SqlHoleKeyword, SqlHoleLiteral, SqlStatements,
    SqlSyntax, TagMessage, TemplatePrefix, UnderLock, WithTarget,
)
from tagstr_flake8._rules import (
    builtin_tag, class_scope, data_checks, except_target, html_checks, keyword_string, lock, loop_capture,
    named_escape, prefix_binding, python_two, script_checks, sql_checks, super_call, template_prefix, walrus,
    with_target,
)

__all__ = ["Check", "RULES", "Rule"]

#: Python parses t-strings: ``tag(t"...")`` can be checked in files without tag strings.
TSTRINGS: Final = sys.version_info >= (3, 14)

Check = Callable[[FileContext], Iterable[TagMessage]]


class Rule(NamedTuple):
    message: type[TagMessage]  # what the check reports: its code decides whether the rule runs
    check: Check
    standard_files: bool = False  # also runs on files without tag strings

    @property
    def code(self) -> str:
        return self.message.code


RULES: Final[tuple[Rule, ...]] = (
    Rule(TemplatePrefix, template_prefix.check_tag001),
    Rule(NamedEscape, named_escape.check_tag002),
    Rule(PrefixBinding, prefix_binding.check_tag003, standard_files=True),
    Rule(BuiltinTag, builtin_tag.check_tag004),
    Rule(ClassVariable, class_scope.check_tag005),
    Rule(LoopCapture, loop_capture.check_tag006),
    Rule(AssignmentExpression, walrus.check_tag007),
    Rule(KeywordString, keyword_string.check_tag008, standard_files=True),
    Rule(WithTarget, with_target.check_tag009),
    Rule(UnderLock, lock.check_tag010),
    Rule(ArgumentlessSuper, super_call.check_tag011),
    Rule(PythonTwo, python_two.check_tag012),
    Rule(ExceptTarget, except_target.check_tag013),
    # embedded languages (docs/languages.md): one analysis per file, shared; on 3.14 also
    # for files without tag strings (tag(t"..."))
    Rule(HtmlEndTag, html_checks.check_tag101, standard_files=TSTRINGS),
    Rule(HtmlUnclosed, html_checks.check_tag102, standard_files=TSTRINGS),
    Rule(HtmlDuplicateAttribute, html_checks.check_tag103, standard_files=TSTRINGS),
    Rule(HtmlSyntax, html_checks.check_tag104, standard_files=TSTRINGS),
    Rule(HtmlReference, html_checks.check_tag105, standard_files=TSTRINGS),
    Rule(HtmlStrict, html_checks.check_tag106, standard_files=TSTRINGS),
    Rule(HtmlHoleUnquoted, html_checks.check_tag110, standard_files=TSTRINGS),
    Rule(HtmlHoleName, html_checks.check_tag111, standard_files=TSTRINGS),
    Rule(HtmlHoleRawText, html_checks.check_tag112, standard_files=TSTRINGS),
    Rule(HtmlHoleComment, html_checks.check_tag113, standard_files=TSTRINGS),
    Rule(HtmlHoleEvent, html_checks.check_tag114, standard_files=TSTRINGS),
    Rule(HtmlHoleScriptUrl, html_checks.check_tag115, standard_files=TSTRINGS),
    Rule(SqlSyntax, sql_checks.check_tag201, standard_files=TSTRINGS),
    Rule(SqlHoleIdentifier, sql_checks.check_tag202, standard_files=TSTRINGS),
    Rule(SqlHoleKeyword, sql_checks.check_tag203, standard_files=TSTRINGS),
    Rule(SqlHoleLiteral, sql_checks.check_tag204, standard_files=TSTRINGS),
    Rule(SqlHoleComment, sql_checks.check_tag205, standard_files=TSTRINGS),
    Rule(SqlAdjacentHoles, sql_checks.check_tag206, standard_files=TSTRINGS),
    Rule(SqlStatements, sql_checks.check_tag207, standard_files=TSTRINGS),
    Rule(CssSyntax, script_checks.check_tag301, standard_files=TSTRINGS),
    Rule(CssHoleSelector, script_checks.check_tag302, standard_files=TSTRINGS),
    Rule(JsSyntax, script_checks.check_tag401, standard_files=TSTRINGS),
    Rule(JsHoleString, script_checks.check_tag402, standard_files=TSTRINGS),
    Rule(DataSyntax, data_checks.check_tag501, standard_files=TSTRINGS),
    Rule(DataDuplicateKey, data_checks.check_tag502, standard_files=TSTRINGS),
    Rule(DataHoleKey, data_checks.check_tag503, standard_files=TSTRINGS),
)
