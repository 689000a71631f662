"""Where a tag's name is written in a module, to tell cheaply that a statement does not bind it.

A module has hundreds of ``html"..."`` in functions; asking the scope index
which binding each reads costs more than every other check of a file that
declares no language (issue 27).  Whatever binds a name writes it, from a
parameter to ``global``: a module-level statement that does not write the
tag's name (other than as a tag, an attribute, or in a tag string's literal
text) binds it in none of its scopes, so a tag string in a function's body
there reads the module's binding of it (``TagResolver.site_definition``).
"""

from __future__ import annotations

import ast
import weakref
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Callable, Generic, Iterator, Mapping, Sequence, TypeVar

from tagstr_runtime.syntax.model import Literal, TagString
from tagstr_runtime.analysis.module import ModuleAnalysis

if TYPE_CHECKING:
    from tagstr_runtime.desugarer.sites import Site

__all__ = ["SiteAnswers", "WrittenNames", "function_statement"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: what the resolver answers (``definitions.TagDefinition``: a type variable, as ``definitions``
#: imports this module)
D = TypeVar("D")


class WrittenNames:
    """Where each name asked about is written in one module (with its source)."""

    def __init__(self, module: ModuleAnalysis) -> None:
        assert module.source is not None
        self.source = module.source
        self.tags = {site.tag.body_span.start: site.tag for site in module.sites if site.parent is None}
        self.bodies = sorted((tag.body_span.start, tag.body_span.end) for tag in self.tags.values())
        self._written: dict[str, list[int]] = {}

    def binds(self, statement: ast.stmt, name: str) -> bool:
        """Whether ``name`` may be bound in ``statement`` (an over-estimate: a read counts too)."""
        written = self._written.get(name)
        if written is None:
            written = self._written[name] = [
                at for at in _words(self.source.text, name) if not _in_literal(self.tags, self.bodies, at)
            ]
        source = self.source
        index = bisect_left(written, source.offset(statement.lineno, statement.col_offset))
        return index < len(written) and written[index] < source.offset(
            statement.end_lineno, statement.end_col_offset)  # type: ignore[arg-type]


def _words(text: str, name: str) -> Iterator[int]:
    """Where ``name`` is written in ``text`` as a word, not as an attribute (``.name``) nor a tag
    (``name"...``).  (``str.find``: a regular expression with word boundaries is ten times slower.)"""
    size = len(name)
    at = text.find(name)
    while at >= 0:
        before = text[at - 1:at] if at else ""
        after = text[at + size:at + size + 1]
        if not (before.isidentifier() or before.isdigit() or before == "." or after.isidentifier()
                or after.isdigit() or after in ("'", '"')):
            yield at
        at = text.find(name, at + size)


def _in_literal(tags: Mapping[int, TagString], bodies: Sequence[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` is in the literal text of one of the outermost tag strings ``tags``
    (by the start of their bodies; ``bodies``: their spans, sorted)."""
    index = bisect_right(bodies, (offset, offset)) - 1
    if index < 0 or not bodies[index][0] <= offset < bodies[index][1]:
        return False
    return any(isinstance(part, Literal) and part.span.start <= offset < part.span.end
               for part in tags[bodies[index][0]].parts)


def function_statement(chain: Sequence[ast.AST], generated: Callable[[ast.AST], bool]) -> ast.stmt | None:
    """The module-level statement holding the tag string whose enclosing nodes are ``chain``
    (the module first), when the tag string is in the body of a function (runs when called,
    after the module has bound its names); else None."""
    if len(chain) < 2 or not isinstance(chain[0], ast.Module) or not isinstance(chain[1], ast.stmt):
        return None
    for node, child in zip(chain[1:], chain[2:]):
        if isinstance(node, _FUNCTIONS) and isinstance(child, ast.stmt):  # (its body: its only statements)
            return chain[1]
        if isinstance(node, ast.Lambda) and child is node.body and not generated(node):
            return chain[1]
    return None


class SiteAnswers(Generic[D]):
    """``TagResolver.site_definition``'s answers for one module.  Asking the scope index
    which binding each tag string reads costs more than every other check of a file
    (issue 27): a tag string in a function's body whose module-level statement binds no
    name like its tag's (``WrittenNames``) reads the module's binding of it, resolved
    once (``shared``, by name); ``sites``: each site's answer, by id."""

    def __init__(self, module: ModuleAnalysis) -> None:
        self._module = weakref.ref(module)
        self._written: WrittenNames | None = None
        self.shared: dict[str, D | None] = {}
        self.sites: dict[int, tuple[Site, D]] = {}

    def written(self) -> WrittenNames:
        if self._written is None:
            module = self._module()
            assert module is not None
            self._written = WrittenNames(module)
        return self._written
