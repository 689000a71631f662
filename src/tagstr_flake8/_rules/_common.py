"""Helpers shared by the rules: enclosing nodes of a tag string, names an interpolation reads."""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8._analysis import Interp, TagFile, TagSite, walk_interpolation

__all__ = [
    "COMPREHENSIONS", "SCOPE_NODES", "in_body", "in_same_scope", "innermost_scope", "name_ids",
    "name_positions", "reads",
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


def innermost_scope(tagfile: TagFile, site: TagSite) -> ast.AST:
    """The def, class, user lambda or module whose scope the tag string is evaluated in."""
    node: ast.AST = site.chain[0]
    for node, _ in in_same_scope(tagfile, site):
        pass
    return node


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
