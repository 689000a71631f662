"""Which binding a name in an interpolation refers to: the desugarer's scope index
(``tagstr_runtime.desugarer.scopes``, CPython's rules) on the lint tree."""

from __future__ import annotations

from tagstr_runtime.frontend import Binding, ScopeIndex

from tagstr_flake8.lint.tag_file import TagFile

__all__ = ["Binding", "ScopeIndex", "scope_index"]


def scope_index(tagfile: TagFile) -> ScopeIndex:
    """The file's index; nothing is resolved before a rule asks."""
    return ScopeIndex(tagfile.tree, tagfile.source, tagfile.is_generated)
