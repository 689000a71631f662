"""One module as the analysis layer reads it: its desugared tree, its sites, its scopes.

``ModuleAnalysis`` is what the findings (``findings``) and the tag resolver
(``definitions``) read.  A consumer that already desugared the module (the
flake8 plugin, with its lint tree) builds it from what it has; the others
(the migration, a module the resolver follows an import into) get it from
``ModuleAnalysis.read``, which desugars with ``AnalysisEmitter`` (``emitter``):
the tree of what the code does, ``tag('Hi ', lambda: name)``, nothing else
generated.  The desugarer is imported by ``read`` only: the tag resolver on a
file without tag strings (flake8's TAG003) needs none of it.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Sequence

from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.desugarer.scopes import ScopeIndex
from tagstr_runtime.analysis.tag_types import tag_types

if TYPE_CHECKING:
    from tagstr_runtime.desugarer.sites import Site

__all__ = ["ModuleAnalysis"]


class ModuleAnalysis:
    """A module's source, desugared tree and sites; its scope index built on first use.

    ``source``: None for a tree read only for its definitions (the findings need
    it).  ``generated``: the lambdas the desugaring made (by default: those
    ``thunk`` wrote, ``interpolation_call.is_thunk``).  ``path``: the file (None for a text without one);
    ``name``: the dotted module name, when known.
    """

    def __init__(
        self,
        source: SourceText | None,
        tree: ast.AST,
        sites: Sequence[Site] = (),
        generated: Callable[[ast.AST], bool] | None = None,
        *,
        scopes: ScopeIndex | None = None,
        path: str | None = None,
        name: str | None = None,
    ) -> None:
        self.source = source
        self.tree = tree
        self.sites = tuple(sites)
        if generated is None:
            generated = _no_lambda
            if self.sites:  # (the desugarer is imported only for a module with tag strings)
                from tagstr_runtime.desugarer.interpolation_call import is_thunk as generated
        self.generated = generated
        self.path = path
        self.name = name
        #: what ``reaching`` works out once per module (statement indexes, star imports)
        self.reaching_cache: dict[object, object] = {}
        if scopes is not None:
            self.__dict__["scopes"] = scopes

    @classmethod
    def read(
        cls,
        text: str,
        filename: str = "<unknown>",
        *,
        path: str | None = None,
        name: str | None = None,
        template_strings: bool | None = None,
    ) -> ModuleAnalysis:
        """Desugar ``text`` for analysis; raises ``TagSyntaxError`` or ``SyntaxError`` as
        ``Desugaring`` does."""
        from tagstr_runtime.desugarer.desugaring import Desugaring
        from tagstr_runtime.analysis.emitter import AnalysisEmitter

        desugaring = Desugaring(
            text, filename, emitter=AnalysisEmitter(), emit_warnings=False, template_strings=template_strings
        )
        return cls(desugaring.source, desugaring.tree, desugaring.sites, path=path, name=name)

    @cached_property
    def scopes(self) -> ScopeIndex:
        return ScopeIndex(self.tree, self.source, self.generated)

    @cached_property
    def statements(self) -> list[ast.stmt]:
        """The module's statements, those nested in compound statements too (not in expressions)."""
        body = getattr(self.tree, "body", [])
        out: list[ast.stmt] = []
        todo = [body]
        while todo:
            for stmt in todo.pop():
                out.append(stmt)
                for field in ("body", "orelse", "finalbody"):
                    nested = getattr(stmt, field, None)
                    if isinstance(nested, list):
                        todo.append(nested)
                for holder in getattr(stmt, "handlers", ()) or getattr(stmt, "cases", ()):
                    todo.append(holder.body)
        return out

    def site_of_call(self, node: ast.AST) -> Site | None:
        """The site whose generated call ``node`` is (None for any other node): what its tag
        receives is the site's ``args``, the literal runs too, which an analysis tree leaves out."""
        return self._calls.get(id(node))

    @cached_property
    def _calls(self) -> dict[int, Site]:
        return {id(site.call): site for site in self.sites}

    @cached_property
    def tag_types(self) -> frozenset[str]:
        """The names that stand for a tag's argument types here (``tag_types``)."""
        return tag_types(self.statements)

    def offset(self, node: ast.AST) -> int:
        """The source offset where ``node`` starts."""
        assert self.source is not None
        return self.source.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end_offset(self, node: ast.AST) -> int:
        assert self.source is not None
        return self.source.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]


def _no_lambda(node: ast.AST) -> bool:
    """``generated`` of a tree without tag strings: no lambda of it was generated."""
    return False
