"""Which bindings of a name may reach a read of it at run time: every one a program may run.

``ScopeIndex`` says where a name is found; the tag resolver followed one
binding there.  What a tag string calls may come from several: both
branches of ``if ...: def html`` / ``else: def html``, a ``try`` import and
its ``except ImportError`` fallback, a star import, a later rebinding that a
loop or a function run later sees.  ``reaching`` keeps every binding a run
may reach the read with, and drops only those it can prove are replaced
first:

- read in the scope that binds the name: the bindings written before the
  read, and those later in a loop around it; one is dropped when a statement
  that always binds the name stands after it, in a statement list on the way
  to the read (``def html`` then ``html = accepts_template(html)``);
- read from a nested function (a global read in a def, a closure), when that
  function runs: every binding, except one followed at the scope's top level
  by an unconditional binding with only inert statements in between (defs,
  classes of defs, constants: nothing that could call the function before);
- once a module has run (``from module import name``): every binding but
  those an unconditional top-level binding follows.

A star import (``from x import *``) counts as a binding of every name, at
its statement; ``exported`` says whether the imported module binds it.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import Iterable, Iterator

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.desugarer.scope_tables import FUNCTION, MODULE, end, start
from tagstr_runtime.desugarer.scopes import Binding, ReadScope

__all__ = ["at_module_end", "exported", "is_star_import", "reaching"]

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_STATEMENT_LISTS = ("body", "orelse", "finalbody")
#: decorators and wrapping calls that only mark or wrap a function when the module runs
_INERT_CALLS = frozenset([
    "accepts_template", "template_tag", "staticmethod", "classmethod", "property", "dataclass", "wraps",
    "overload", "final", "cache", "lru_cache", "cached_property", "total_ordering", "runtime_checkable",
])


def is_star_import(node: ast.AST) -> bool:
    return isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)


def reaching(module: ModuleAnalysis, line: int, col_byte: int, name: str | None = None) -> tuple[Binding, ...]:
    """The bindings that may give the name read at (line, byte column) its value, in source
    order; star imports among them.  ``name``: read by the expression there (a string
    prefix's name).  Empty: a builtin, or nothing."""
    scope = module.scopes.read_scope(line, col_byte, name)
    if scope is None:  # bound nowhere in the file: a builtin, or a star import's
        return tuple(_star_imports(module, False))
    found = list(scope.bindings)
    visible = {id(b): seen for b, seen in zip(scope.bindings, scope.visible)}
    if scope.kind == MODULE:
        stars = list(_star_imports(module, scope.same_scope))
        visible.update((id(b), end(b.node)) for b in stars)
        found = sorted([*found, *stars], key=_position)
    if not scope.same_scope:
        return tuple(_at_call_time(scope, found))
    read = (line, col_byte)
    within = scope.path[_index(scope.path, scope.scope):]
    loops = [node for node, child in zip(within, within[1:]) if isinstance(node, _LOOPS) and _in_loop(node, child)]
    found = [
        b for b in found
        if visible.get(id(b), _position(b)) <= read or id(b.node) in scope.moved
        or any(_inside(b, loop) for loop in loops)
    ]
    for statements, index in _lists_on_the_way(module, within):
        binders = _binders(module, statements, scope.name)
        last = bisect_left(binders, (index, (0, 0))) - 1
        if last >= 0:
            first = binders[last][1]
            found = [b for b in found if id(b.node) in scope.moved or _position(b) >= first]
    return tuple(found)


def at_module_end(module: ModuleAnalysis, name: str) -> tuple[Binding, ...]:
    """The bindings of ``name`` that may hold once the module has run: its last unconditional
    top-level binding, the conditional ones after it, those made by functions (``global``),
    star imports not followed by one."""
    scope = module.scopes.module_scope(name)
    found = sorted([*scope.bindings, *_star_imports(module, False)], key=_position)
    body: list[ast.stmt] = getattr(module.tree, "body", [])
    for statement in reversed(body):
        if _binds_always(statement, name):
            first = start(statement)
            return tuple(b for b in found if id(b.node) in scope.moved or _position(b) >= first)
    return tuple(found)


def exported(module: ModuleAnalysis, name: str) -> bool | None:
    """Whether ``from module import *`` may bind ``name``: listed in a literal ``__all__``, or
    (without one) bound at the top level and not private.  None: ``__all__`` is computed, or a
    star import of the module's own may bring it."""
    body: list[ast.stmt] = getattr(module.tree, "body", [])
    listed: set[str] | None = None
    for statement in body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                names = _literal_strings(statement.value)
                if names is None:
                    return None
                listed = names if listed is None or not isinstance(statement, ast.AugAssign) else listed | names
    if listed is not None:
        return name in listed
    if name.startswith("_"):
        return False
    if module.scopes.module_bindings(name):
        return True
    return None if any(is_star_import(s) for s in module.statements) else False


# -- the parts ------------------------------------------------------------------------------


def _index(path: tuple[ast.AST, ...], node: ast.AST) -> int:
    return next((i for i, item in enumerate(path) if item is node), 0)


def _position(binding: Binding) -> tuple[int, int]:
    return binding.line, binding.col


def _star_imports(module: ModuleAnalysis, same_scope: bool) -> Iterator[Binding]:
    key = ("stars",)
    stars = module.reaching_cache.get(key)
    if stars is None:
        has_star = "*" in (module.source.text if module.source is not None else "*")
        stars = module.reaching_cache[key] = [s for s in module.statements if has_star and is_star_import(s)]
    for statement in stars:  # type: ignore[attr-defined]
        yield Binding(statement.lineno, statement.col_offset, False, same_scope, statement, True)


def _binders(module: ModuleAnalysis, statements: list[ast.stmt], name: str) -> list[tuple[int, tuple[int, int]]]:
    """(index, start) of each statement of the list that always binds ``name``, in order."""
    key = ("binders", id(statements), name)
    found = module.reaching_cache.get(key)
    if found is None:
        found = module.reaching_cache[key] = [
            (index, start(statement)) for index, statement in enumerate(statements) if _binds_always(statement, name)
        ]
    return found  # type: ignore[return-value]


def _in_loop(loop: ast.AST, child: ast.AST) -> bool:
    """``child`` runs on each pass of ``loop`` (its body, or a ``while`` test)."""
    return any(child is s for s in getattr(loop, "body", ())) or (isinstance(loop, ast.While) and child is loop.test)


def _inside(binding: Binding, node: ast.AST) -> bool:
    return start(node) <= _position(binding) <= end(node)


def _lists_on_the_way(module: ModuleAnalysis, path: Iterable[ast.AST]) -> Iterator[tuple[list[ast.stmt], int]]:
    """Each statement list the path goes through, with the index of the statement it enters."""
    nodes = list(path)
    for parent, child in zip(nodes, nodes[1:]):
        if not isinstance(child, ast.stmt):
            continue
        for field in _STATEMENT_LISTS:
            statements = getattr(parent, field, None)
            if isinstance(statements, list):
                key = ("index", id(statements))
                indexes = module.reaching_cache.get(key)
                if indexes is None:
                    indexes = module.reaching_cache[key] = {id(s): i for i, s in enumerate(statements)}
                index = indexes.get(id(child))  # type: ignore[attr-defined]
                if index is not None:
                    yield statements, index


def _binds_always(statement: ast.stmt, name: str) -> bool:
    """The statement binds ``name`` whenever it runs to its end."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name == name
    if isinstance(statement, ast.Assign):
        return any(_stores(target, name) for target in statement.targets)
    if isinstance(statement, ast.AnnAssign):
        return statement.value is not None and _stores(statement.target, name)
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name).partition(".")[0] == name for alias in statement.names
                   if alias.name != "*")
    return False


def _stores(target: ast.expr, name: str) -> bool:
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_stores(t, name) for t in target.elts)
    if isinstance(target, ast.Starred):
        return _stores(target.value, name)
    return False


def _at_call_time(scope: ReadScope, found: list[Binding]) -> Iterator[Binding]:
    """The bindings a read from a nested function may see when it runs (module or closure)."""
    body: list[ast.stmt] = getattr(scope.scope, "body", []) if scope.kind in (MODULE, FUNCTION) else []
    starts = [start(statement) for statement in body]
    killed: set[int] = set()
    for index, statement in enumerate(body):
        if not (_binds_always(statement, scope.name) and _inert(statement)):
            continue
        # the bindings in the inert statements right before it: nothing could run the function
        first = index
        while first > 0 and _inert(body[first - 1]):
            first -= 1
        for binding in found:
            if id(binding.node) not in scope.moved and starts[first] <= _position(binding) < starts[index]:
                killed.add(id(binding))
    return (b for b in found if id(b) not in killed)


def _inert(statement: ast.stmt) -> bool:
    """Running ``statement`` calls nothing of the program's, but known wrappers and decorators."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return all(_inert_call(d, decorator=True) for d in statement.decorator_list) and not _calls_any(
            statement.args
        )
    if isinstance(statement, ast.ClassDef):
        return (
            all(_inert_call(d, decorator=True) for d in statement.decorator_list)
            and all(isinstance(b, (ast.Name, ast.Attribute)) for b in statement.bases)
            and not statement.keywords
            and all(_inert(s) for s in statement.body)
        )
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        return statement.value is None or _inert_call(statement.value)
    if isinstance(statement, ast.If):
        return not _calls_any(statement.test) and all(_inert(s) for s in (*statement.body, *statement.orelse))
    if isinstance(statement, ast.Try):
        handlers = [s for h in statement.handlers for s in h.body]
        return all(_inert(s) for s in (*statement.body, *handlers, *statement.orelse, *statement.finalbody))
    return isinstance(statement, (ast.Pass, ast.Import, ast.ImportFrom)) or (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
    )


def _inert_call(node: ast.expr, decorator: bool = False) -> bool:
    """A known wrapper called with inert arguments, or an expression that calls nothing (a
    ``decorator`` is called: only a known one is inert)."""
    if isinstance(node, ast.Call):
        func = node.func
    elif decorator:
        func = node
    else:
        return not _calls_any(node)
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name not in _INERT_CALLS:
        return False
    return not isinstance(node, ast.Call) or not any(
        _calls_any(a) for a in (*node.args, *(k.value for k in node.keywords))
    )


def _calls_any(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(node))


def _literal_strings(node: ast.expr | None) -> set[str] | None:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return {e.value for e in node.elts}  # type: ignore[attr-defined]
    return None
