"""TAG010 (off by default): an interpolation reading shared state inside a ``with`` block holding a lock.

``with self._lock: snapshot = log"{self._items}"``: the lock guards the read
only if the tag reads at once; a tag that calls ``getvalue`` later reads the
shared state unguarded.

A context manager counts as a lock when a whole word of its expression's last
name says so (snake_case and camelCase words: ``self._lock``,
``threading.RLock()``, ``write_mutex``, ``self.stateSemaphore``, ``cond``),
never a mere substring (``clock``, ``code_block``, ``second``).

Only what the lock plausibly guards is reported: state other threads can
reach.  That is a name the enclosing function does not bind (a global, a
closure variable; every name at module level), or an attribute or item of
one, or the object of a method (its first parameter: ``self._items``, ``cls.cache``).
The function's own parameters and locals, and what is read through them
(``key``, ``total``, ``key.upper()``), are the caller's or the call's own:
not reported.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import Iterator

from tagstr_flake8.lint.tag_file import Interp, TagFile, TagSite
from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage
from tagstr_flake8.rules.common import enclosing_with_items, in_same_scope, reads
from tagstr_flake8.lint.scope_index import ScopeIndex


class UnderLock(RuleMessage):
    template = (
        "interpolation {expr!r} inside 'with {lock}': a tag that reads it later does so after "
        "the lock is released; copy it under the lock and interpolate the copy"
    )


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
LOCK_WORDS = frozenset(
    "lock locks rlock rlocks mutex mutexes sem sems semaphore semaphores cond conds condition conditions".split()
)
_BUILTINS = frozenset(dir(builtins))


def _last_name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Call):
        return _last_name(expr.func)
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


def is_lock(expr: ast.expr) -> bool:
    return any(word.lower() in LOCK_WORDS for word in _WORD.findall(_last_name(expr)))


def _unshared_names(tagfile: TagFile, site: TagSite, scopes: ScopeIndex) -> frozenset[str]:
    """Names that are the enclosing function's own: its parameters and locals,
    but not the first parameter of a method (``self``: the shared object)."""
    *_, (scope, _) = in_same_scope(tagfile, site)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return frozenset()
    names = scopes.function_locals(scope)
    path = site.chain
    index = path.index(scope)
    parent = path[index - 1] if index else None
    positional = [*scope.args.posonlyargs, *scope.args.args]
    if isinstance(parent, ast.ClassDef) and positional:
        names -= {positional[0].arg}
    return names


def _shared_read(tagfile: TagFile, interp: Interp, unshared: frozenset[str]) -> bool:
    for name in reads(tagfile, interp):
        if name.id not in unshared and name.id not in _BUILTINS:
            return True
    return False


def check_tag010(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    for site in tagfile.sites():
        locks = [item.context_expr for item in enclosing_with_items(tagfile, site) if is_lock(item.context_expr)]
        if not locks:
            continue
        held = ast.unparse(locks[0])
        assert ctx.scopes is not None
        unshared = _unshared_names(tagfile, site, ctx.scopes)
        for interp in site.interpolations():
            if _shared_read(tagfile, interp, unshared):
                yield UnderLock.at(interp.func.body, expr=interp.field.expr, lock=held)
