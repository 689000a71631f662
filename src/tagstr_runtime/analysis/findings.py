"""Hazards of lazy interpolations, as data: each check yields ``Finding`` records, written once.

An interpolation is a closure that runs when (and each time) the tag calls
``getvalue``, where its f-string twin runs in place.  Where the two differ
in what the code means, a check yields a finding: what (``code``), where
(``span``, source offsets) and the values a message names (``args``).  The
flake8 plugin turns a finding into a ``TAG`` message, the migration into a
``MIG`` reason to keep a tag string (a t-string evaluates in place):

==========================  ==========  ========  ==========================
finding                     flake8      migrate   the closure...
==========================  ==========  ========  ==========================
``CLASS_VARIABLE``          TAG005      MIG004    cannot see the class body
``ASSIGNMENT_EXPRESSION``   TAG007      MIG005    binds the name inside itself
``ARGUMENTLESS_SUPER``      TAG011      MIG006    has no ``super()`` arguments
``OWN_SCOPE``               (none)      MIG019    has a frame of its own
==========================  ==========  ========  ==========================

Only the fields of the body are concerned: a format spec is formatted in
place, eagerly, in both forms (SPEC 3).
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, NamedTuple

from tagstr_runtime.syntax.model import Field, Span
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.desugarer.sites import Hole, Site

__all__ = [
    "ARGUMENTLESS_SUPER", "ASSIGNMENT_EXPRESSION", "CLASS_VARIABLE", "IMPLICIT_CLASS_NAMES", "OWN_SCOPE", "Finding",
    "argumentless_super", "assignment_expressions", "class_variables", "expression_nodes", "hole_nodes",
    "in_same_scope", "own_scope_reads", "reads",
]

CLASS_VARIABLE = "class-variable"
ASSIGNMENT_EXPRESSION = "assignment-expression"
ARGUMENTLESS_SUPER = "argumentless-super"
OWN_SCOPE = "own-scope"

#: names a class body binds before its first statement: a closure in it cannot see them either
IMPLICIT_CLASS_NAMES = frozenset(["__module__", "__qualname__"])
#: builtins that read the frame that calls them, and how many arguments leave them doing so
_FRAME_BUILTINS = {"locals": 0, "vars": 0, "dir": 0, "eval": 1, "exec": 1, "breakpoint": None}
#: functions and attributes that reach the calling frame (``sys._getframe()``, ``inspect.currentframe()``...)
_FRAME_ATTRIBUTES = frozenset([
    "_getframe", "currentframe", "stack", "getouterframes", "extract_stack", "print_stack", "format_stack",
    "getframeinfo",
])

#: the nodes whose body is a scope of its own (a generated lambda is not one)
SCOPE_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Module)


class Finding(NamedTuple):
    code: str  # one of the constants above
    span: Span  # source offsets of the node it is about
    args: dict[str, str]  # the values a message names
    site: Site  # the tag string


def _finding(module: ModuleAnalysis, code: str, node: ast.AST, site: Site, **args: str) -> Finding:
    return Finding(code, Span(module.offset(node), module.end_offset(node)), args, site)


# -- what the checks share ---------------------------------------------------------------


def in_same_scope(site: Site, generated: Callable[[ast.AST], bool]) -> Iterator[tuple[ast.AST, ast.AST]]:
    """``(ancestor, child)`` pairs of a tag string, innermost first, up to its scope's boundary.

    ``child`` is the ancestor's child on the way to the tag string.  Generated
    lambdas (an enclosing tag string's interpolation) and tag calls are
    crossed: they bind no name.  Comprehensions are crossed too: what they
    read from outside is the enclosing scope's.  The boundary (def, class,
    user lambda, module) comes last.
    """
    assert site.call is not None
    chain = site.chain
    path = (*chain, site.call)
    for index in range(len(chain) - 1, -1, -1):
        node = path[index]
        yield node, path[index + 1]
        if isinstance(node, SCOPE_NODES) and not generated(node):
            return


def in_body(node: ast.AST, child: ast.AST) -> bool:
    """``child`` is one of the statements of ``node.body`` (not its header, not its else)."""
    return any(stmt is child for stmt in getattr(node, "body", ()))


def hole_nodes(
    hole: Hole, generated: Callable[[ast.AST], bool], into: Callable[[ast.AST], bool] = lambda node: True
) -> Iterator[ast.AST]:
    """The nodes of an interpolation's expression (``expression_nodes``)."""
    return expression_nodes(hole.node, generated, into)


def expression_nodes(
    root: ast.AST, generated: Callable[[ast.AST], bool], into: Callable[[ast.AST], bool] = lambda node: True
) -> Iterator[ast.AST]:
    """The nodes of an interpolation's expression ``root``, not entering nested tag strings'
    lambdas (``generated``), nor the nodes for which ``into`` is false."""
    todo: list[ast.AST] = [root]
    while todo:
        node = todo.pop()
        yield node
        if not into(node):
            continue
        for child in ast.iter_child_nodes(node):
            if not generated(child):
                todo.append(child)


def reads(hole: Hole, generated: Callable[[ast.AST], bool]) -> Iterator[ast.Name]:
    """Names an interpolation's expression reads (its nested tag strings are sites of their own)."""
    for node in hole_nodes(hole, generated):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node


# -- the checks ----------------------------------------------------------------------------


def _class_body_names(node: ast.ClassDef) -> set[str]:
    """The names a class body may bind (a quick filter: the scope index decides): assignment
    targets, defs, imports, ``except ... as`` and ``match`` captures, and the names every class
    body starts with (``__module__``, ``__qualname__``)."""
    names: set[str] = set(IMPLICIT_CLASS_NAMES)
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        else:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
                    names.add(sub.id)
                elif isinstance(sub, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and sub.name:
                    names.add(sub.name)
                elif isinstance(sub, ast.MatchMapping) and sub.rest:
                    names.add(sub.rest)
    return names


def class_variables(module: ModuleAnalysis) -> Iterator[Finding]:
    """An interpolation in a class body naming a variable of that class body (``name``).

    No function defined in a class body sees the class's names, and an
    interpolation is one: it reads a global of that name, or raises
    ``NameError``.  The name must refer to a binding of that very class body.
    """
    generated = module.generated
    candidates: list[tuple[ast.Name, Site]] = []
    for site in module.sites:
        *_, (scope, child) = in_same_scope(site, generated)
        if not isinstance(scope, ast.ClassDef) or not in_body(scope, child):
            continue
        names = _class_body_names(scope)
        for hole in site.holes:
            candidates.extend((name, site) for name in reads(hole, generated) if name.id in names)
    if not candidates:
        return
    scopes = module.scopes
    for name, site in candidates:
        if name.id in IMPLICIT_CLASS_NAMES or any(
            b.in_class and b.same_scope for b in scopes.bindings(name.lineno, name.col_offset)
        ):
            yield _finding(module, CLASS_VARIABLE, name, site, name=name.id)


def assignment_expressions(module: ModuleAnalysis) -> Iterator[Finding]:
    """An assignment expression in an interpolation (``name``: its target).

    It runs inside the interpolation's lambda: the name is bound in the
    closure, when the tag calls ``getvalue``, never in the enclosing scope.
    """
    generated = module.generated
    for site in module.sites:
        if not _mentions(site, ":="):  # the model's text tells, without building the holes
            continue
        for hole in site.holes:
            if ":=" not in hole.text:  # the text tells, without a walk
                continue
            for node in hole_nodes(hole, generated):
                if isinstance(node, ast.NamedExpr):
                    yield _finding(module, ASSIGNMENT_EXPRESSION, node, site, name=node.target.id)


def _bare_super_calls(hole: Hole) -> Iterator[ast.Call]:
    """Calls of ``super()`` evaluated by the interpolation's own lambda (not in a lambda
    written inside it, nor in a nested tag string: a site of its own)."""
    todo: list[ast.AST] = [hole.node]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "super"
            and not node.args
            and not node.keywords
        ):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _class_name(site: Site) -> str:
    for node in reversed(site.chain):
        if isinstance(node, ast.ClassDef):
            return node.name
    return "Cls"


def argumentless_super(module: ModuleAnalysis) -> Iterator[Finding]:
    """``super()`` without arguments in an interpolation (``expr``: the interpolation's text,
    ``owner``: the enclosing class's name).

    Zero-argument ``super()`` finds its arguments in the frame of the function
    that calls it; the interpolation's lambda has none, so reading the value
    raises ``RuntimeError``.  Not where ``super`` is a name of the file's own.
    """
    for site in module.sites:
        if not _mentions(site, "super"):
            continue
        for hole in site.holes:
            if "super" not in hole.text:  # the text tells, without a walk
                continue
            for call in _bare_super_calls(hole):
                assert isinstance(call.func, ast.Name)
                if not module.scopes.is_bound(call.func):
                    yield _finding(module, ARGUMENTLESS_SUPER, call, site, expr=hole.text, owner=_class_name(site))


def own_scope_reads(module: ModuleAnalysis) -> Iterator[Finding]:
    """An interpolation that reads the frame it runs in (``call``: what it calls): ``locals()``,
    ``vars()``, ``dir()``, ``eval``/``exec`` without namespaces, ``sys._getframe()``,
    ``inspect.currentframe()``..., or that yields or awaits.

    The interpolation's lambda is a frame of its own, with none of the enclosing
    function's locals; a t-string evaluates in the enclosing frame.
    """
    generated = module.generated
    words = (*_FRAME_BUILTINS, *_FRAME_ATTRIBUTES, "yield", "await")
    for site in module.sites:
        if not any(_mentions(site, word) for word in words):
            continue
        for hole in site.holes:
            for node in hole_nodes(hole, generated, lambda n: not isinstance(n, ast.Lambda)):
                call = _frame_read(module, node)
                if call:
                    yield _finding(module, OWN_SCOPE, node, site, call=call, expr=hole.text)


def _mentions(site: Site, word: str) -> bool:
    """Some field of the tag string (spec fields aside) has ``word`` in its text: a check
    without it needs no walk, nor the site's arguments built."""
    return any(word in part.expr for part in site.tag.parts if isinstance(part, Field))


def _frame_read(module: ModuleAnalysis, node: ast.AST) -> str:
    """What ``node`` does that reads its frame ("" for nothing)."""
    if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
        return {ast.Yield: "yield", ast.YieldFrom: "yield from", ast.Await: "await"}[type(node)]
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    if isinstance(func, ast.Name) and func.id in _FRAME_BUILTINS:
        most = _FRAME_BUILTINS[func.id]
        count = len(node.args) if (site := module.site_of_call(node)) is None else len(site.args)
        if (most is None or count <= most) and not node.keywords and not module.scopes.is_bound(func):
            return f"{func.id}()"
    if isinstance(func, ast.Attribute) and func.attr in _FRAME_ATTRIBUTES:
        return f"{ast.unparse(func)}()"
    return ""
