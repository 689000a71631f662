"""The TAG rules: one module per code, all listed once in ``RULES``.

A check takes the ``FileContext`` of one file and yields message objects
(``lint.messages``); their text is rendered on the way out.  ``RULES`` is the one
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

from tagstr_flake8.lint.messages import (
    LANGUAGE_MESSAGES, ArgumentlessSuper, AssignmentExpression, BuiltinTag, ClassVariable, ExceptTarget,
    KeywordString, LoopCapture, NamedEscape, PrefixBinding, PrefixedString, PythonTwo, TagMessage, TemplatePrefix,
    UnderLock, WithTarget,
)

if TYPE_CHECKING:
    from tagstr_flake8.lint.context import FileContext

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
    Rule(TemplatePrefix, "tag001_template_prefix"),
    Rule(NamedEscape, "tag002_named_escape"),
    Rule(PrefixBinding, "tag003_tag014_prefix_binding", standard_files=True),
    Rule(BuiltinTag, "tag004_builtin_tag"),
    Rule(ClassVariable, "tag005_class_scope"),
    Rule(LoopCapture, "tag006_loop_capture"),
    Rule(AssignmentExpression, "tag007_walrus"),
    Rule(KeywordString, "tag008_keyword_string", standard_files=True),
    Rule(WithTarget, "tag009_with_target"),
    Rule(UnderLock, "tag010_lock"),
    Rule(ArgumentlessSuper, "tag011_super_call"),
    Rule(PythonTwo, "tag012_python_two"),
    Rule(ExceptTarget, "tag013_except_target"),
    Rule(PrefixedString, "tag003_tag014_prefix_binding", standard_files=True),
    # embedded languages (docs/languages.md): one analysis per file, shared; on 3.14 also
    # for files without tag strings (tag(t"...")); a code per finding kind of the language
    # registry, and TAG901 (a check that failed)
    *(Rule(message, "tag1xx_tag5xx_languages", standard_files=TSTRINGS) for message in LANGUAGE_MESSAGES),
)
