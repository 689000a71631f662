"""The TAG rules: one module per code, each registering its check with ``@rule``.

A check takes the ``FileContext`` of one file and yields ``Report`` records;
the text is formatted once, on the way out (``_checker``).  Adding a rule
means adding a module here, its message to ``_messages.MESSAGES``, an example
file under ``tests/flake8/examples/`` and an entry in ``docs/flake8.md``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from functools import cached_property
from typing import Callable, Iterable, NamedTuple

from tagstr_flake8._analysis import TagFile

__all__ = ["FileContext", "RULES", "Report", "Rule", "load_rules", "rule"]


class Report(NamedTuple):
    line: int
    col: int  # 0-based UTF-8 bytes: the unit of ast col_offset, as every AST plugin reports
    code: str
    args: tuple[object, ...]


class FileContext:
    """What a rule may look at: the tree, the lines, the tag strings, what is enabled."""

    def __init__(
        self, tree: ast.AST, lines: list[str], tagfile: TagFile | None, enabled: frozenset[str]
    ) -> None:
        self.tree = tree
        self.lines = lines
        self.tagfile = tagfile
        self.enabled = enabled

    @cached_property
    def text(self) -> str:
        return "".join(self.lines)

    @cached_property
    def scopes(self):  # type: ignore[no-untyped-def]
        """libcst's scope analysis of this file (``_scopes.ScopeIndex``), or None if unavailable."""
        from tagstr_flake8._scopes import scope_index

        assert self.tagfile is not None
        return scope_index(self.tagfile)


Check = Callable[[FileContext], Iterable[Report]]


class Rule(NamedTuple):
    code: str
    check: Check
    standard_files: bool  # also runs on files without tag strings


RULES: list[Rule] = []


def rule(code: str, *, standard_files: bool = False) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        RULES.append(Rule(code, check, standard_files))
        return check

    return register


def load_rules() -> list[Rule]:
    """Import every module of this package (each registers its rules), once."""
    if not RULES:
        for info in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{info.name}")
        RULES.sort(key=lambda r: r.code)
    return RULES
