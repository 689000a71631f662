"""``TagstrChecker``: the flake8 AST plugin (code prefix ``TAG``) that runs the TAG rules.

Activation, not import, installs the hooks of ``host.patch`` (``import
tagstr_flake8`` changes nothing in flake8): ``add_options`` and
``parse_options`` both call ``install``, which is idempotent.  flake8 calls
them from ``parse_args``, which runs in every process that checks files and
before any file is parsed: the main process; each *spawned* ``--jobs`` worker,
whose initializer (``checker._mp_init``) parses the arguments again; *forked*
workers inherit the classes the parent already patched.  So no install at
import is needed, even in workers (the ``--jobs`` tests, fork and spawn, would
show otherwise).  Both hooks install, not just the first: a host that calls
only one of them still gets tag strings.
"""

from __future__ import annotations

import argparse
import ast
import logging
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from tagstr_runtime import __version__
from tagstr_runtime.frontend import strict

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.doctests import install_doctests
from tagstr_flake8.lint.language_options import add_language_options, parse_language_options
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.host.patch import install, tagfile_of
from tagstr_flake8.rules import DEFAULT_CODES, OFF_BY_DEFAULT, RULE_CODES, RULES

if TYPE_CHECKING:
    from tagstr_flake8.lint.tag_file import TagFile

__all__ = ["TagstrChecker", "run_rules"]

LOG = logging.getLogger(__name__)


def run_rules(
    tree: ast.AST, lines: list[str], tagfile: TagFile | None, enabled: frozenset[str], *, strict: bool,
    filename: str | None = None,
) -> Iterator[TagMessage]:
    """The messages of every rule whose code is ``enabled``, rule by rule (in code order).

    A rule that raises is logged and skipped, so one bug of ours costs one
    rule, not the file's other diagnostics; with ``strict`` it propagates.
    ``filename``: the file's path as flake8 names it (None, ``stdin``: a text without one).
    """
    context: FileContext | None = None
    for rule in RULES:
        if rule.code not in enabled or (tagfile is None and not rule.standard_files):
            continue
        if context is None:
            context = FileContext(tree, lines, tagfile, _path(filename))
        try:
            messages = list(rule.check(context))
            wrong = [m for m in messages if m.code != rule.code]
            if wrong:
                raise TypeError(f"rule {rule.code} reported {wrong!r}")
        except Exception:
            if strict:
                raise
            LOG.exception("tagstr_flake8: rule %s failed", rule.code)
            continue
        yield from messages


def _path(filename: str | None) -> str | None:
    """A file name that may stand for a place in a tree (not ``stdin``, ``-``, ``<string>``)."""
    if not filename or filename in ("stdin", "-") or filename.startswith("<"):
        return None
    return filename


class TagstrChecker:
    """Reports the TAG codes; the hooks of ``host.patch`` make every other check see tag strings."""

    name = "tagstr_flake8"
    version = __version__
    # Codes a rule runs for: parse_options narrows it to what the options select.
    enabled: ClassVar[frozenset[str]] = frozenset(DEFAULT_CODES)

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "") -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename  # where imported tags are looked for (the embedded-language checks)

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        install()
        install_doctests()
        option_manager.extend_default_ignore(list(OFF_BY_DEFAULT))
        add_language_options(option_manager)

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        """Run only the rules whose code the options select (cheaper: no scope analysis for nothing)."""
        install()
        install_doctests()
        parse_language_options(options)
        try:
            from flake8.style_guide import Decision, DecisionEngine

            engine = DecisionEngine(options)
            cls.enabled = frozenset(
                code for code in RULE_CODES if engine.decision_for(code) is Decision.Selected
            )
        except Exception:  # an unexpected flake8: run everything, flake8 filters the output
            if strict():
                raise
            LOG.debug("tagstr_flake8: cannot compute the selected codes", exc_info=True)
            cls.enabled = frozenset(RULE_CODES)

    def run(self) -> Iterator[tuple[int, int, str, type[Any]]]:
        tagfile = tagfile_of(self.tree)
        for message in run_rules(self.tree, self.lines, tagfile, self.enabled, strict=strict(),
                                 filename=self.filename):
            yield message.line, message.col, message.text, type(self)
