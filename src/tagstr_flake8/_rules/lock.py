"""TAG010 (off by default): an interpolation inside a ``with`` block that holds a lock.

``with self._lock: snapshot = log"{self._items}"``: the lock guards the read
only if the tag reads at once; a tag that calls ``getvalue`` later reads the
shared state unguarded.  A context manager counts as a lock when its
expression's last name says so (``lock``, ``mutex``, ``semaphore``,
``condition``, ``cond``, any case, e.g. ``self._rlock``, ``Lock()``).
"""

from __future__ import annotations

import ast
import re
from typing import Iterator

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import TagMessage, UnderLock
from tagstr_flake8._rules._common import enclosing_with_items, reads

_LOCKISH = re.compile(r"(?i)(lock|mutex|sem(aphore)?|cond(ition)?)s?$")


def _last_name(expr: ast.expr) -> str:
    if isinstance(expr, ast.Call):
        return _last_name(expr.func)
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


def check_tag010(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    for site in tagfile.sites():
        locks = [
            item.context_expr
            for item in enclosing_with_items(tagfile, site)
            if _LOCKISH.search(_last_name(item.context_expr))
        ]
        if not locks:
            continue
        held = ast.unparse(locks[0])
        for interp in site.interpolations():
            if next(reads(tagfile, interp), None) is not None:
                yield UnderLock.at(interp.func.body, expr=interp.field.expr, lock=held)
