"""flake8 support for tag strings: every check runs on files with tag strings, plus the TAG lints.

Registered as the ``flake8.extension`` entry point ``TAG`` (no configuration
needed).  Importing this package changes nothing in flake8: the hooks of
``_patch`` are installed when flake8 activates the plugin (see
``_checker``); see ``docs/flake8.md``.  ``check_source`` runs the TAG rules
on a string in-process (tests, tools).
"""

from __future__ import annotations

from tagstr_flake8._check_source import check_source, source_messages
from tagstr_flake8._checker import TagstrChecker
from tagstr_flake8._messages import CODES, MESSAGES, OFF_BY_DEFAULT, TagMessage

__all__ = ["CODES", "MESSAGES", "OFF_BY_DEFAULT", "TagMessage", "TagstrChecker", "check_source", "source_messages"]
