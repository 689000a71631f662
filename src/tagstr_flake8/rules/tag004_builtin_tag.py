"""TAG004: a builtin that is not a tag function used as a tag (``str"x"``, ``len"x"``).

Reported only where the tag's name, looked up where the tag string stands,
finds the builtin: not where a scope it can see binds that name (a module
may define its own ``html``-like tag called ``format``; a function may take
one as a parameter), whereas a parameter of an unrelated function changes
nothing.  ``print`` and ``exec`` are left to TAG012 (Python 2 syntax).
"""

from __future__ import annotations

import ast
import builtins
from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage
from tagstr_flake8.rules.tag012_python_two import python_two_key


class BuiltinTag(RuleMessage):
    template = (
        "builtin {tag!r} is not a tag function: {tag}\"...\" calls it with Decoded and "
        "Interpolation arguments; call it on an f-string: {tag}(f\"...\")"
    )


BUILTIN_NAMES = frozenset(name for name in dir(builtins) if not name.startswith("_"))


def check_tag004(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    suspects = [
        site for site in tagfile.sites()
        if site.tag.name in BUILTIN_NAMES and python_two_key(site.tag.tag) is None
    ]
    if not suspects:
        return
    scopes = ctx.scopes
    assert scopes is not None
    for site in suspects:
        if not isinstance(site.call.func, ast.Name) or not scopes.is_bound(site.call.func):
            line, col = tagfile.position(site.tag.span.start)
            yield BuiltinTag(line, col, tag=site.tag.tag)
