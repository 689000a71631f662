"""The TAG rules: one module per code, all listed once in ``RULES``.

A check takes the ``FileContext`` of one file and yields message objects
(``_messages``); their text is rendered on the way out.  ``RULES`` is the one
place that says which rule reports which message class and whether it also
runs on files without tag strings: no registration by import, no package
scanning, so reading this file tells what runs.
"""

from __future__ import annotations

from typing import Callable, Final, Iterable, NamedTuple

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import (
    ArgumentlessSuper, AssignmentExpression, BuiltinTag, ClassVariable, ExceptTarget, KeywordString, LoopCapture,
    NamedEscape, PrefixBinding, PythonTwo, TagMessage, TemplatePrefix, UnderLock, WithTarget,
)
from tagstr_flake8._rules import (
    builtin_tag, class_scope, except_target, keyword_string, lock, loop_capture, named_escape, prefix_binding,
    python_two, super_call, template_prefix, walrus, with_target,
)

__all__ = ["Check", "RULES", "Rule"]

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
)
