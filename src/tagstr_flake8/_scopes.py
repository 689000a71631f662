"""Which binding a name in an interpolation refers to: libcst's scope analysis.

libcst cannot parse tag strings, so it analyses the desugarer's *placeholder
text* (``tagstr_runtime.frontend.placeholder_text``): the same source with
each tag string written as a call whose arguments are the fields'
expressions, untouched and at their original lines and byte columns.  There
an interpolation's names are resolved as if it were evaluated eagerly, in
place: exactly the binding the user had in mind.  The rules compare that
binding with what the lazy closure will see (a class body it cannot see, a
loop variable or a ``with`` target that will have changed by then).

It is the costliest analysis of the plugin, so it runs only on files with tag
strings, only when an enabled rule has a syntactic candidate, and once.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from tagstr_runtime.frontend import SourceText, placeholder_text, strict

from tagstr_flake8._analysis import TagFile

__all__ = ["Binding", "ScopeIndex", "scope_index"]

LOG = logging.getLogger(__name__)


class Binding(NamedTuple):
    """One assignment a name may refer to."""

    line: int
    col: int  # byte column of the node that binds (the target name, the def, the import...)
    in_class: bool  # bound in a class body
    same_scope: bool  # bound in the scope the name is read in (eagerly)


class ScopeIndex:
    def __init__(self, tagfile: TagFile) -> None:
        import libcst as cst
        from libcst.metadata import ClassScope, MetadataWrapper, PositionProvider, ScopeProvider

        self._class_scope = ClassScope
        text = placeholder_text(tagfile.source.text, tagfile.outermost)
        self._text = SourceText(text)
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        self._scopes = wrapper.resolve(ScopeProvider)
        self._positions = wrapper.resolve(PositionProvider)
        self._names = {
            (pos.start.line, pos.start.column): node
            for node, pos in self._positions.items()
            if isinstance(node, cst.Name)
        }

    def bindings(self, line: int, col_byte: int) -> list[Binding]:
        """The assignments the name read at (line, byte column) may refer to."""
        node = self._names.get((line, self._text.col_char(line, col_byte)))
        if node is None:
            return []
        scope = self._scopes.get(node)
        if scope is None:
            return []
        found = []
        for access in scope.accesses[node]:
            for assignment in access.referents:
                bound = getattr(assignment, "node", None)
                pos = self._positions.get(bound) if bound is not None else None
                if pos is None:
                    continue
                found.append(
                    Binding(
                        pos.start.line,
                        self._text.col_byte(pos.start.line, pos.start.column),
                        isinstance(assignment.scope, self._class_scope),
                        assignment.scope is scope,
                    )
                )
        return found


def scope_index(tagfile: TagFile) -> ScopeIndex | None:
    """The index, or ``None`` (the scope rules are skipped) where libcst cannot parse the file."""
    try:
        from libcst import ParserSyntaxError
    except ImportError:  # libcst is an extra of flake8 support: no scope rules without it
        LOG.debug("tagstr_flake8: libcst missing, no scope analysis")
        return None
    try:
        return ScopeIndex(tagfile)
    except ParserSyntaxError:  # syntax newer than this libcst: expected, not a bug of ours
        LOG.debug("tagstr_flake8: libcst cannot parse this file", exc_info=True)
        return None
    except Exception:
        if strict():
            raise
        LOG.debug("tagstr_flake8: libcst scope analysis failed", exc_info=True)
        return None
