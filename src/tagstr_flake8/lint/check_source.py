"""``check_source``: the TAG rules on a source string, in-process, without the flake8 CLI.

For tests of a rule (assert ``(line, col, code)``, not prose) and for tools
that want the TAG diagnostics of a text.  It builds what flake8's hooks build
for a file: ``ast.parse`` first, and only if that fails the desugarer's lint
tree (``lint.tag_file.analyse``).
"""

from __future__ import annotations

import ast
import sys
from typing import Iterable

from tagstr_flake8.lint.tag_file import analyse, physical_lines
from tagstr_flake8.lint.flake8_plugin import run_rules
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import DEFAULT_CODES, RULE_CODES

__all__ = ["check_source", "source_messages"]

DEFAULT_SELECT = DEFAULT_CODES


def source_messages(
    source: str, select: Iterable[str] = DEFAULT_SELECT, *, filename: str = "<string>"
) -> list[TagMessage]:
    """The TAG messages of ``source``, in line and column order.

    ``select`` holds codes or code prefixes, as flake8's ``--select``
    (``"TAG"`` or ``("TAG",)`` runs every rule; the default, the rules on by default).
    A source that is not valid Python (with or without tag strings) raises
    the ``SyntaxError`` flake8 reports as E999.  A rule that raises is not
    skipped, as it is by flake8: the exception propagates.  ``filename``: where
    the source is (its imports are read from there: tags imported from the
    file's package keep their language), or ``<string>``.
    """
    prefixes = (select,) if isinstance(select, str) else tuple(select)  # "TAG006" is one code
    enabled = frozenset(code for code in RULE_CODES if code.startswith(prefixes))
    lines = physical_lines(source)
    try:
        tree: ast.AST = ast.parse(source, filename)
        tagfile = None
    except SyntaxError as exc:
        tagfile = analyse(lines, filename, exc)
        tree = tagfile.tree
    languages = sys.modules.get("tagstr_flake8.lint.language_checks")
    if languages is not None:  # the imported modules as they are now
        languages.forget_modules()
    found = run_rules(tree, lines, tagfile, enabled, strict=True, filename=filename)
    return sorted(found, key=lambda m: (m.line, m.col, m.code))


def check_source(
    source: str, select: Iterable[str] = DEFAULT_SELECT, *, filename: str = "<string>"
) -> list[tuple[int, int, str]]:
    """``(line, col, code)`` of each TAG diagnostic of ``source``; ``col`` is 0-based UTF-8 bytes.

    flake8 prints ``col + 1``.  See ``source_messages`` for ``select``.
    """
    return [(m.line, m.col, m.code) for m in source_messages(source, select, filename=filename)]
