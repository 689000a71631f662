"""The lint tree as the f-string twin shapes it, for plugins that measure how code is nested.

In the lint tree each interpolation is a lambda (``lint.tag_file``): that is what
the code does, and what pyflakes and bugbear must see.  A plugin that scores
structure counts it as a function the user nested, and its number for the
enclosing function is then one the f-string twin does not get
(flake8-cognitive-complexity: ``{a if b else c}`` costs one more inside a
lambda; 36 against 28 for click's ``termui.py``).  A report caused only by
code the desugaring generated is wrong, as B023 on our closures is
(``host.closure_reports``); so such plugins get this copy of the tree, where each
interpolation's expression stands in place of its lambda, as in the twin.

``STRUCTURE_PLUGINS`` names them by distribution: a plugin whose numbers
count lambdas belongs there.
"""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary

from tagstr_flake8.lint.tag_file import TagFile

__all__ = ["STRUCTURE_PLUGINS", "eager_tree"]

STRUCTURE_PLUGINS = frozenset(["flake8-cognitive-complexity"])

_TREES: WeakKeyDictionary[TagFile, ast.AST] = WeakKeyDictionary()


def eager_tree(tagfile: TagFile) -> ast.AST:
    """A copy of the lint tree with every generated lambda replaced by its body (once per file)."""
    known = _TREES.get(tagfile)
    if known is None:
        known = _TREES[tagfile] = _copy(tagfile)
    return known


def _copy(tagfile: TagFile) -> ast.AST:
    """The copy, built with a stack of its own: an expression may nest deeper than
    Python's recursion limit allows a recursive walk."""

    def unwrapped(node: ast.AST) -> ast.AST:
        while tagfile.is_generated(node):
            node = node.body  # type: ignore[attr-defined]
        return node

    def fresh(node: ast.AST) -> ast.AST:
        made = type(node).__new__(type(node))
        for attribute in node._attributes:
            if hasattr(node, attribute):
                setattr(made, attribute, getattr(node, attribute))
        todo.append((node, made))
        return made

    todo: list[tuple[ast.AST, ast.AST]] = []
    root = fresh(unwrapped(tagfile.tree))
    while todo:
        node, made = todo.pop()
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                value = fresh(unwrapped(value))
            elif isinstance(value, list):
                value = [fresh(unwrapped(item)) if isinstance(item, ast.AST) else item for item in value]
            setattr(made, field, value)
    return root
