"""flake8 support for tag strings: every check runs on files with tag strings, plus the TAG lints.

Registered as the ``flake8.extension`` entry point ``TAG`` (no configuration
needed).  Importing this package changes nothing in flake8: the hooks of
``host.patch`` are installed when flake8 activates the plugin (see
``lint.flake8_plugin``); see ``docs/flake8.md``.  ``check_source`` runs the TAG rules
on a string in-process (tests, tools).

What flake8 loads with the entry point is small (the checker class, the code
table, the hooks' wrappers): the desugarer, the analysis and each rule are
imported when a file first needs them, so a run over files without tag
strings never loads them (issue 28; ``tests/tagstr_flake8/test_lazy_imports.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tagstr_flake8.lint.flake8_plugin import TagstrChecker
from tagstr_flake8.lint.messages import CODES, MESSAGES, OFF_BY_DEFAULT, TagMessage

if TYPE_CHECKING:
    from tagstr_flake8.lint.check_source import check_source, source_messages

__all__ = ["CODES", "MESSAGES", "OFF_BY_DEFAULT", "TagMessage", "TagstrChecker", "check_source", "source_messages"]


def __getattr__(name: str) -> Any:
    if name in ("check_source", "source_messages"):  # the desugarer and every rule: on first use
        from tagstr_flake8.lint import check_source as _check_source

        value = getattr(_check_source, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
