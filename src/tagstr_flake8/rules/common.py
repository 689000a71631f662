"""Helpers shared by the rules: enclosing nodes of a tag string, names an interpolation reads."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Iterator

from tagstr_flake8.lint.tag_file import Interp, TagFile, TagSite, walk_interpolation

if TYPE_CHECKING:
    from tagstr_flake8.lint.context import FileContext
    from tagstr_flake8.lint.messages import TagMessage

__all__ = [
    "COMPREHENSIONS", "SCOPE_NODES", "enclosing_with_items", "in_body", "in_same_scope",
    "name_ids", "name_positions", "reads", "reads_of_targets",
]

SCOPE_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Module)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def in_same_scope(tagfile: TagFile, site: TagSite) -> Iterator[tuple[ast.AST, ast.AST]]:
    """``(ancestor, child)`` pairs of a tag string, innermost first, up to its scope's boundary.

    ``child`` is the ancestor's child on the way to the tag string.  Generated
    lambdas (an enclosing tag string's interpolation) and tag calls are
    crossed: they bind no name.  Comprehensions are crossed too: what they
    read from outside is the enclosing scope's.  The boundary (def, class,
    user lambda, module) comes last.
    """
    path = (*site.chain, site.call)
    for index in range(len(site.chain) - 1, -1, -1):
        node = path[index]
        yield node, path[index + 1]
        if isinstance(node, SCOPE_NODES) and not tagfile.is_generated(node):
            return


def in_body(node: ast.AST, child: ast.AST) -> bool:
    """``child`` is one of the statements of ``node.body`` (not its header, not its else)."""
    return any(stmt is child for stmt in getattr(node, "body", ()))


def name_positions(target: ast.AST) -> set[tuple[int, int]]:
    """(line, byte column) of each name a for/with/comprehension target binds."""
    return {(n.lineno, n.col_offset) for n in ast.walk(target) if isinstance(n, ast.Name)}


def name_ids(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def reads(tagfile: TagFile, interp: Interp) -> Iterator[ast.Name]:
    """Names an interpolation's expression reads (its nested tag strings are sites of their own)."""
    for node in walk_interpolation(tagfile, interp.func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node


def enclosing_with_items(tagfile: TagFile, site: TagSite) -> Iterator[ast.withitem]:
    """The items of the ``with`` blocks whose body holds the tag string, in its scope."""
    for node, child in in_same_scope(tagfile, site):
        if isinstance(node, (ast.With, ast.AsyncWith)) and in_body(node, child):
            yield from node.items


def reads_of_targets(
    ctx: FileContext,
    message: type[TagMessage],
    targets_of: Callable[[TagFile, TagSite], list[ast.AST]],
) -> Iterator[TagMessage]:
    """Report ``message`` at each name an interpolation reads that the scope
    analysis (``ctx.scopes``) resolves to a binding made by one of ``targets_of(site)``."""
    tagfile = ctx.tagfile
    assert tagfile is not None
    candidates: list[tuple[ast.Name, set[tuple[int, int]]]] = []
    for site in tagfile.sites():
        targets = targets_of(tagfile, site)
        if not targets:
            continue
        ids = set().union(*(name_ids(t) for t in targets))
        positions = set().union(*(name_positions(t) for t in targets))
        for interp in site.interpolations():
            candidates.extend((n, positions) for n in reads(tagfile, interp) if n.id in ids)
    if not candidates or ctx.scopes is None:
        return
    for name, positions in candidates:
        if any((b.line, b.col) in positions for b in ctx.scopes.bindings(name.lineno, name.col_offset)):
            yield message.at(name, name=name.id)
