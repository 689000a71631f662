"""flake8 support for tag strings: every check runs on files with tag strings, plus the TAG lints.

Registered as the ``flake8.extension`` entry point ``TAG`` (no configuration
needed).  Importing this package installs the hooks of ``_patch`` into
flake8; see ``docs/flake8.md``.  ``check_source`` runs the TAG rules on a
string in-process (tests, tools).
"""

from __future__ import annotations

from tagstr_flake8._patch import install as _install

_install()

from tagstr_flake8._check_source import check_source, source_messages  # noqa: E402
from tagstr_flake8._checker import TagstrChecker  # noqa: E402  (after the hooks, on purpose)
from tagstr_flake8._messages import CODES, MESSAGES, OFF_BY_DEFAULT, TagMessage  # noqa: E402

__all__ = ["CODES", "MESSAGES", "OFF_BY_DEFAULT", "TagMessage", "TagstrChecker", "check_source", "source_messages"]
