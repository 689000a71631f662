"""``FileContext``: what a TAG rule may look at in one file, each costly part computed once."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a file without tag strings needs neither: imported when a rule asks
    from tagstr_runtime.frontend import SourceText

    from tagstr_flake8.lint.tag_file import TagFile
    from tagstr_flake8.lint.scope_index import ScopeIndex

if TYPE_CHECKING:
    from tagstr_runtime.frontend import ModuleAnalysis

__all__ = ["FileContext"]


class FileContext:
    """The tree, the lines, the tag strings (``tagfile``, None in a file without any), and
    ``path``: where the file is (to find the modules it imports), None for a text without one."""

    def __init__(self, tree: ast.AST, lines: list[str], tagfile: TagFile | None, path: str | None = None) -> None:
        self.tree = tree
        self.lines = lines
        self.tagfile = tagfile
        self.path = path

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
        """Which binding each name refers to (``lint.scope_index``), or None in a file without tag strings."""
        if self.tagfile is None:
            return None
        from tagstr_flake8.lint.scope_index import scope_index

        return scope_index(self.tagfile)

    @cached_property
    def analysis(self) -> ModuleAnalysis:
        """The file as the analysis layer's findings read it (a file with tag strings only)."""
        from tagstr_runtime.frontend import ModuleAnalysis

        tagfile = self.tagfile
        assert tagfile is not None and self.scopes is not None
        return ModuleAnalysis(
            tagfile.source, tagfile.tree, tagfile.desugaring.sites, tagfile.is_generated, scopes=self.scopes,
            path=self.path,
        )

    @cached_property
    def module(self) -> ModuleAnalysis:
        """The file for the analysis layer's tag resolver: ``analysis``, or in a file without
        tag strings its standard tree (no source text: the resolver needs none)."""
        if self.tagfile is not None:
            return self.analysis
        from tagstr_runtime.frontend import ModuleAnalysis

        return ModuleAnalysis(None, self.tree, path=self.path)
