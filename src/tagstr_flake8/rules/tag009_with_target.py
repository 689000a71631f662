"""TAG009 (off by default): an interpolation reading the target of an enclosing ``with``.

``with open(p) as f: msg = log"{f.read()}"``: a tag that calls ``getvalue``
after the block has exited finds ``f`` closed.  The file's scope analysis
(``ctx.scopes``) confirms that the name refers to the ``with`` statement's own target.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8.lint.tag_file import TagFile, TagSite
from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage
from tagstr_flake8.rules.common import enclosing_with_items, reads_of_targets


class WithTarget(RuleMessage):
    template = (
        "interpolation reads {name!r}, bound by the enclosing 'with': a tag that reads it "
        "later may find it closed; read it in the block and interpolate the result"
    )


def _with_targets(tagfile: TagFile, site: TagSite) -> list[ast.AST]:
    return [
        item.optional_vars
        for item in enclosing_with_items(tagfile, site)
        if item.optional_vars is not None
    ]


def check_tag009(ctx: FileContext) -> Iterator[TagMessage]:
    return reads_of_targets(ctx, WithTarget, _with_targets)
