"""The TAG rules: ``RULES``, the one registry of the TAG codes, over one module per code.

A rule is declared once, by its entry here: its code, the module of this
package that holds its message class and its ``check_tagnnn``, the class's
name, whether it is on by default and whether it also runs on files without
tag strings.  Every other list of the codes is derived from it: the message
classes' codes (``RuleMessage``), ``OFF_BY_DEFAULT`` (flake8's default ignore
list, the doctor's, ``check_source``'s default), ``tagstr_flake8.CODES`` and
``MESSAGES``.  No registration by import, no package scanning: reading this
file tells what runs.  A rule's module is imported the first time the rule
runs, so a run over files without tag strings loads only the rules that run
on those (issue 28), and this module stays data: the doctor reads
``OFF_BY_DEFAULT`` without flake8.  ``tests/tagstr_flake8/test_rule_registry.py``
checks each step of "Adding a rule" (docs/flake8.md).  Why one registry:
docs/decisions/0094-one-registry-entry-per-rule.md.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Final, Iterable, NamedTuple

from tagstr_runtime.frontend import language_reports

from tagstr_flake8.lint.messages import LANGUAGE_MESSAGES, TagMessage

if TYPE_CHECKING:
    from tagstr_flake8.lint.context import FileContext

__all__ = ["Check", "DEFAULT_CODES", "OFF_BY_DEFAULT", "RULES", "RULE_CODES", "Rule", "RuleMessage", "message_classes"]

#: Python parses t-strings: ``tag(t"...")`` can be checked in files without tag strings.
TSTRINGS: Final = sys.version_info >= (3, 14)

Check = Callable[["FileContext"], Iterable[TagMessage]]


class Rule(NamedTuple):
    code: str
    module: str  # the module of this package with the message class and ``check_<code>``
    message: str  # the name of the message class it reports, in ``module``
    # False: a taste rule, or a hazard only for some tags; in flake8's default ignore list
    # (``--extend-select`` turns it on)
    on_by_default: bool = True
    standard_files: bool = False  # also runs on files without tag strings

    @property
    def check(self) -> Check:
        """``check_tagnnn`` of the rule's module (imported now if it is not yet)."""
        check = _CHECKS.get(self.code)
        if check is None:
            check = _CHECKS[self.code] = getattr(self._module(), f"check_{self.code.lower()}")
        return check

    @property
    def message_class(self) -> type[TagMessage]:
        """The class of the messages the rule reports (its module imported now if it is not yet)."""
        found = getattr(self._module(), self.message)
        if not (isinstance(found, type) and issubclass(found, TagMessage) and found.code == self.code):
            raise TypeError(f"{__name__}.{self.module}.{self.message} is not the message class of {self.code}")
        return found

    def _module(self) -> ModuleType:
        return import_module(f"{__name__}.{self.module}")


_CHECKS: dict[str, Check] = {}  # code -> its check, once imported


class RuleMessage(TagMessage):
    """The message class of a rule, written in the rule's module: its code is its entry's."""

    __slots__ = ()

    def __init_subclass__(cls) -> None:
        rule = _BY_MESSAGE.get((cls.__module__, cls.__name__))
        if rule is None:
            raise TypeError(f"{cls.__module__}.{cls.__name__}: no entry of {__name__}.RULES names this "
                            "message class (docs/flake8.md, \"Adding a rule\")")
        cls.code = rule.code
        super().__init_subclass__()


# the embedded languages' codes are their registry's (its on or off included)
_LANGUAGE_ON: Final = {report.code: report.on_by_default for report in language_reports().values()}

RULES: Final[tuple[Rule, ...]] = (
    Rule("TAG001", "tag001_template_prefix", "TemplatePrefix"),
    Rule("TAG002", "tag002_named_escape", "NamedEscape"),
    Rule("TAG003", "tag003_tag014_prefix_binding", "PrefixBinding", standard_files=True),
    Rule("TAG004", "tag004_builtin_tag", "BuiltinTag"),
    Rule("TAG005", "tag005_class_scope", "ClassVariable"),
    Rule("TAG006", "tag006_loop_capture", "LoopCapture", on_by_default=False),
    Rule("TAG007", "tag007_walrus", "AssignmentExpression"),
    Rule("TAG008", "tag008_keyword_string", "KeywordString", on_by_default=False, standard_files=True),
    Rule("TAG009", "tag009_with_target", "WithTarget", on_by_default=False),
    Rule("TAG010", "tag010_lock", "UnderLock", on_by_default=False),
    Rule("TAG011", "tag011_super_call", "ArgumentlessSuper"),
    Rule("TAG012", "tag012_python_two", "PythonTwo"),
    Rule("TAG013", "tag013_except_target", "ExceptTarget", on_by_default=False),
    Rule("TAG014", "tag003_tag014_prefix_binding", "PrefixedString", standard_files=True),
    # embedded languages (docs/languages.md): one analysis per file, shared; on 3.14 also
    # for files without tag strings (tag(t"...")); a code per finding kind of the language
    # registry, and TAG901 (a check that failed)
    *(
        Rule(message.code, "tag1xx_tag5xx_languages", message.__name__, _LANGUAGE_ON[message.code],
             standard_files=TSTRINGS)
        for message in LANGUAGE_MESSAGES
    ),
)

_BY_MESSAGE: Final = {(f"{__name__}.{rule.module}", rule.message): rule for rule in RULES}

#: Every code a rule reports, in code order.
RULE_CODES: Final[tuple[str, ...]] = tuple(rule.code for rule in RULES)
#: The codes on by default.
DEFAULT_CODES: Final[tuple[str, ...]] = tuple(rule.code for rule in RULES if rule.on_by_default)
#: The codes off by default: flake8's default ignore list gets them.  The lazy-evaluation
#: rules fire only if the tag keeps an Interpolation and calls getvalue() later; most tags
#: (html, sql...) read every value at once, so on by default they would report nearly every
#: tag string written in a loop.
OFF_BY_DEFAULT: Final[tuple[str, ...]] = tuple(rule.code for rule in RULES if not rule.on_by_default)


def message_classes() -> dict[str, type[TagMessage]]:
    """code -> the message class of its rule, in code order: imports every rule's module
    (for tests and tools; a flake8 run imports a rule's module when the rule runs)."""
    return {rule.code: rule.message_class for rule in RULES}
