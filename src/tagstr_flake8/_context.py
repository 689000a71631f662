"""``FileContext``: what a TAG rule may look at in one file, each costly part computed once."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a file without tag strings needs neither: imported when a rule asks
    from tagstr_runtime.frontend import SourceText

    from tagstr_flake8._analysis import TagFile
    from tagstr_flake8._scopes import ScopeIndex

__all__ = ["FileContext"]


class FileContext:
    """The tree, the lines, the tag strings (``tagfile``, None in a file without any)."""

    def __init__(self, tree: ast.AST, lines: list[str], tagfile: TagFile | None) -> None:
        self.tree = tree
        self.lines = lines
        self.tagfile = tagfile

    @cached_property
    def text(self) -> str:
        return "".join(self.lines)

    @cached_property
    def source(self) -> SourceText:
        """The lines as one text, for column conversions (``col_byte``)."""
        from tagstr_runtime.frontend import SourceText

        return SourceText(self.text)

    @cached_property
    def scopes(self) -> ScopeIndex | None:
        """Which binding each name refers to (``_scopes``), or None in a file without tag strings."""
        if self.tagfile is None:
            return None
        from tagstr_flake8._scopes import scope_index

        return scope_index(self.tagfile)
