"""Reports other plugins make about the closures the desugaring generated, not about the user's code.

An interpolation is a lambda in the lint tree, so plugins that reason about
closures see one where the f-string twin of the file has none.  Two such
reports are dropped by the hooks (``host.patch``) at the positions found here,
and a TAG rule reports the real hazard in tag-string terms instead:
bugbear's B023 (late-bound loop variables: TAG006) and pyflakes' F821/F841
for the name of an ``except ... as`` (TAG013).  Where a function the user
wrote makes the closure (``lambda: lazy"{x}"``), the report is the user's
and stays, as in the twin.
"""

from __future__ import annotations

import ast
from typing import Iterator
from weakref import WeakKeyDictionary

from tagstr_flake8.lint.tag_file import TagFile, TagSite, walk_interpolation
from tagstr_flake8.lint.scope_index import ScopeIndex, scope_index

__all__ = ["closure_only_reads", "handler_closure_reads", "twin_reports_b023"]

Positions = frozenset[tuple[int, int]]
# once per file, and no longer than flake8 keeps the file
_CLOSURE_ONLY: WeakKeyDictionary[TagFile, tuple[Positions, Positions]] = WeakKeyDictionary()
_TWIN_B023: WeakKeyDictionary[TagFile, Positions | None] = WeakKeyDictionary()
_HANDLERS: WeakKeyDictionary[TagFile, tuple[Positions, Positions]] = WeakKeyDictionary()


def closure_only_reads(tagfile: TagFile) -> tuple[Positions, Positions]:
    """(line, byte column) of the names whose late binding only our closures make, and of
    those a function the user wrote reads as well (``twin_reports_b023`` says for those).

    An interpolation's lambda makes every name it reads late-bound, and
    bugbear's B023 says so at the user's name when a loop around the lambda
    assigns it (a ``for`` target, or ``label = row.upper()`` in the body).
    The f-string twin of the file has that hazard only where a function the
    *user* wrote reads the name as a free variable (``lambda: lazy"{x}"``, a
    ``def`` in the loop, a lambda inside the field): there B023 is the user's
    and stays.  Elsewhere, a name local to the scope the tag string is in
    (the scope analysis, ``lint.scope_index``), it is about our closure: TAG006
    reports it in tag-string terms.  Whether the user's function makes it in the twin
    is bugbear's to say (it leaves out a function called in the iteration, a ``key=``
    function...): the twin's reports decide (``twin_reports_b023``).
    """
    known = _CLOSURE_ONLY.get(tagfile)
    if known is not None:
        return known
    found, users = set(), set()
    scopes: ScopeIndex | None = None
    for site in tagfile.sites():
        for interp in site.interpolations():
            for name in _names_outside_user_functions(tagfile, interp.func):
                function = _users_function_around(tagfile, site)
                if function is not None:
                    scopes = scopes or scope_index(tagfile)
                if function is None or scopes is None or not _free_in(function, scopes, name):
                    found.add((name.lineno, name.col_offset))
                else:
                    users.add((name.lineno, name.col_offset))
    _CLOSURE_ONLY[tagfile] = result = (frozenset(found), frozenset(users))
    return result


def twin_reports_b023(tagfile: TagFile, line: int, column: int) -> bool:
    """Whether bugbear reports B023 at (line, byte column) on the f-string twin of the file
    (the lint tree with each interpolation in place: ``host.eager_tree``); True when bugbear
    cannot be asked (the report stands, as before).  Run once per file, only for a report
    at a name a function of the user's reads in an interpolation."""
    if tagfile not in _TWIN_B023:
        _TWIN_B023[tagfile] = _bugbear_b023(tagfile)
    found = _TWIN_B023[tagfile]
    return found is None or (line, column) in found


def _bugbear_b023(tagfile: TagFile) -> Positions | None:
    try:
        from bugbear import BugBearChecker
    except ImportError:  # (another plugin's B023)
        return None
    from tagstr_flake8.host.eager_tree import eager_tree

    try:
        checker = BugBearChecker(tree=eager_tree(tagfile), filename="<twin>", lines=tagfile.lines)
        return frozenset((line, column) for line, column, message, _ in checker.run() if message.startswith("B023"))
    except Exception:  # an interface of bugbear's that changed: its report stands
        return None


def handler_closure_reads(tagfile: TagFile) -> tuple[Positions, Positions]:
    """Where pyflakes blames our closures for the name of an ``except ... as``.

    pyflakes checks a lambda's body after the handler has deleted its
    name, so ``except E as err: html"{err}"`` gets F821 at ``err`` and
    F841 at the clause, where the f-string twin reads ``err`` in place
    and gets neither.  Returns (the reads, the clauses' positions), for
    reads outside any function the user wrote (a user's lambda gets
    pyflakes' reports as in the twin).  TAG013 reports the real hazard,
    for the tags that read later.
    """
    known = _HANDLERS.get(tagfile)
    if known is not None:
        return known
    reads, clauses = set(), set()
    for site in tagfile.sites():
        for interp in site.interpolations():
            for name in _names_outside_user_functions(tagfile, interp.func):
                handler = _handler_binding(tagfile, site, name.id)
                if handler is not None:
                    reads.add((name.lineno, name.col_offset))
                    clauses.add((handler.lineno, handler.col_offset))
    _HANDLERS[tagfile] = result = (frozenset(reads), frozenset(clauses))
    return result


def _handler_binding(tagfile: TagFile, site: TagSite, name: str) -> ast.ExceptHandler | None:
    """Walking out of the tag string, the ``except ... as name`` whose body holds it, unless a
    function the user wrote comes first."""
    path = (*site.chain, site.call)
    for index in range(len(site.chain) - 1, -1, -1):
        node, child = path[index], path[index + 1]
        if isinstance(node, _USER_FUNCTIONS) and not tagfile.is_generated(node):
            return None
        if isinstance(node, ast.ExceptHandler) and node.name == name and any(s is child for s in node.body):
            return node
    return None


_USER_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _users_function_around(tagfile: TagFile, site: TagSite) -> ast.AST | None:
    """The innermost function the user wrote around the tag string (only functions
    make closures, for bugbear as for Python: not comprehensions, not class bodies)."""
    for node in reversed(site.chain):
        if isinstance(node, _USER_FUNCTIONS) and not tagfile.is_generated(node):
            return node
    return None


def _free_in(function: ast.AST, scopes: ScopeIndex, name: ast.Name) -> bool:
    """Whether ``function`` reads ``name`` as a free variable: the bindings it refers to
    (the scope analysis, with our lambdas transparent) all lie outside the function.

    One inside (the function's own local, a comprehension's target within it, a
    ``nonlocal`` assignment it makes) means the f-string twin's function binds it:
    bugbear reports nothing there.
    """
    bindings = scopes.bindings(name.lineno, name.col_offset)
    start = (function.lineno, function.col_offset)  # type: ignore[attr-defined]
    end = (function.end_lineno, function.end_col_offset)  # type: ignore[attr-defined]
    return bool(bindings) and not any(start <= (b.line, b.col) < end for b in bindings)


def _names_outside_user_functions(tagfile: TagFile, func: ast.Lambda) -> Iterator[ast.Name]:
    """The names of an interpolation's expression that no lambda of the user's encloses."""
    for node in walk_interpolation(tagfile, func, into=lambda n: not isinstance(n, ast.Lambda)):
        if isinstance(node, ast.Name):
            yield node
