"""Which names a scope binds, from the lint tree alone (no libcst).

TAG004 must know whether a tag's name is the builtin or a binding the user
made *in scope* (a parameter of an unrelated function does not count), and
TAG010 whether an interpolation reads a function's own locals (not shared
with other threads) or shared state.  Both need only the names each enclosing
scope binds, which one walk of that scope's own statements gives: cheap
enough for rules that are on by default.
"""

from __future__ import annotations

import ast
from typing import Iterator, NamedTuple

from tagstr_flake8._analysis import TagFile, TagSite

__all__ = ["COMPREHENSIONS", "FUNCTIONS", "ScopeLookup", "ScopeNames", "enclosing_scopes", "scope_names"]

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class ScopeNames(NamedTuple):
    bound: frozenset[str]  # bound in this scope (parameters, targets, defs, imports...)
    free: frozenset[str]  # declared global or nonlocal here: bound elsewhere


def _arguments(args: ast.arguments) -> Iterator[str]:
    for arg in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg):
        if arg is not None:
            yield arg.arg


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes evaluated in ``scope`` itself: nested scopes are entered only
    for what their header evaluates outside (defaults, decorators, bases,
    a comprehension's first iterable) and for the name a def or class binds."""
    if isinstance(scope, ast.Lambda):
        todo: list[ast.AST] = [scope.body]
    else:
        todo = list(getattr(scope, "body", ()))
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, FUNCTIONS):
            todo.extend(d for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None)
            if not isinstance(node, ast.Lambda):
                todo.extend(node.decorator_list)
        elif isinstance(node, ast.ClassDef):
            todo.extend((*node.decorator_list, *node.bases, *node.keywords))
        elif isinstance(node, COMPREHENSIONS):
            todo.append(node.generators[0].iter)
            # an assignment expression in a comprehension binds in this scope
            todo.extend(n for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
        else:
            todo.extend(ast.iter_child_nodes(node))


def scope_names(scope: ast.AST) -> ScopeNames:
    """The names ``scope`` (a module, class, def or lambda) binds, and those it declares free."""
    bound: set[str] = set()
    free: set[str] = set()
    if isinstance(scope, COMPREHENSIONS):
        targets = (gen.target for gen in scope.generators)
        names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        return ScopeNames(frozenset(names), frozenset())
    if isinstance(scope, FUNCTIONS):
        bound.update(_arguments(scope.args))
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            free.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    if isinstance(scope, ast.Module):  # `global x` in a function binds x here
        free_declared = {n for node in ast.walk(scope) if isinstance(node, ast.Global) for n in node.names}
        bound.update(free_declared)
    return ScopeNames(frozenset(bound - free), frozenset(free))


def enclosing_scopes(tagfile: TagFile, site: TagSite) -> Iterator[ast.AST]:
    """The scopes a tag string's *tag name* is looked up in, innermost first.

    The name is evaluated eagerly where the tag string stands, so: the
    enclosing functions and user lambdas whose body holds it, the class body
    only if the tag string is directly in it (a function or an enclosing
    tag string's interpolation hides it, as any closure hides a class), and
    comprehensions (but not from their first iterable, evaluated outside), and
    the module.  Generated lambdas bind nothing and are crossed.
    """
    path = (*site.chain, site.call)
    hidden_class = False
    for index in range(len(site.chain) - 1, -1, -1):
        node, child = path[index], path[index + 1]
        if isinstance(node, ast.Lambda):
            if tagfile.is_generated(node):
                hidden_class = True
            elif child is node.body:
                yield node
                hidden_class = True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(stmt is child for stmt in node.body):
                yield node
                hidden_class = True
        elif isinstance(node, ast.ClassDef):
            if not hidden_class and any(stmt is child for stmt in node.body):
                yield node
            hidden_class = True
        elif isinstance(node, COMPREHENSIONS):
            first_iter = child is node.generators[0] and index + 2 < len(path) and (
                path[index + 2] is node.generators[0].iter
            )
            if not first_iter:  # the first iterable is evaluated outside
                yield node
        elif isinstance(node, ast.Module):
            yield node


class ScopeLookup:
    """Whether a tag's name is bound by a scope visible where the tag string stands
    (each scope's names computed once per file)."""

    def __init__(self, tagfile: TagFile) -> None:
        self._tagfile = tagfile
        self._names: dict[int, ScopeNames] = {}

    def _of(self, scope: ast.AST) -> ScopeNames:
        names = self._names.get(id(scope))
        if names is None:
            names = self._names[id(scope)] = scope_names(scope)
        return names

    def is_bound(self, site: TagSite, name: str) -> bool:
        for scope in enclosing_scopes(self._tagfile, site):
            names = self._of(scope)
            if name in names.bound:  # (a name declared global or nonlocal is not bound here)
                return True
        return False
