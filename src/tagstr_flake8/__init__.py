"""flake8 support for tag strings: every check runs on files with tag strings, plus the TAG lints.

Registered as the ``flake8.extension`` entry point ``TAG`` (no configuration
needed).  Importing this package changes nothing in flake8: the hooks of
``host.patch`` are installed when flake8 activates the plugin (see
``lint.flake8_plugin``); see ``docs/flake8.md``.  ``check_source`` runs the TAG rules
on a string in-process (tests, tools).

What flake8 loads with the entry point is small (the checker class, the rule
registry, the hooks' wrappers): the desugarer, the analysis and each rule are
imported when a file first needs them, so a run over files without tag
strings never loads them (issue 28; ``tests/tagstr_flake8/test_lazy_imports.py``).
Importing the package itself loads no flake8: the checker class is imported
when asked for (flake8 asks for it by name), so ``OFF_BY_DEFAULT`` is read
without flake8 (the doctor).  ``CODES`` and ``MESSAGES`` import every rule's
module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import OFF_BY_DEFAULT, message_classes

if TYPE_CHECKING:
    from tagstr_flake8.lint.check_source import check_source, source_messages
    from tagstr_flake8.lint.flake8_plugin import TagstrChecker

    #: code -> its rule's message class, in code order
    CODES: Mapping[str, type[TagMessage]]
    #: code -> its text with ``{field}`` holes (as printed, code first)
    MESSAGES: Mapping[str, str]

__all__ = ["CODES", "MESSAGES", "OFF_BY_DEFAULT", "TagMessage", "TagstrChecker", "check_source", "source_messages"]


def __getattr__(name: str) -> Any:
    value: Any
    if name == "TagstrChecker":  # flake8 and its hooks: when flake8 loads the entry point
        from tagstr_flake8.lint import flake8_plugin

        value = flake8_plugin.TagstrChecker
    elif name in ("check_source", "source_messages"):  # the desugarer and every rule: on first use
        from tagstr_flake8.lint import check_source as _check_source

        value = getattr(_check_source, name)
    elif name == "CODES":
        value = message_classes()
    elif name == "MESSAGES":
        value = {code: f"{code} {cls.template}" for code, cls in message_classes().items()}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
