"""TAG006 (off by default): an interpolation capturing a loop variable.

The interpolation is a closure: a tag that keeps it and calls ``getvalue``
after the loop has moved on reads the variable's *current* value, as every
lambda does (bugbear's B023, which this rule replaces on tag strings).  Most
tags read every value at once, which is why the rule is off by default.
Loops are ``for`` statements (the tag string in their body) and
comprehensions in the same scope; the file's scope analysis (``ctx.scopes``)
confirms that the name refers to the loop's own target.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tagstr_flake8.lint.tag_file import TagFile, TagSite
from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage
from tagstr_flake8.rules.common import COMPREHENSIONS, in_body, in_same_scope, reads_of_targets


class LoopCapture(RuleMessage):
    template = (
        "interpolation captures loop variable {name!r}: a tag that reads it later sees the "
        "value of a later iteration; build the tag string in a function taking {name}"
    )


def _loop_targets(tagfile: TagFile, site: TagSite) -> list[ast.AST]:
    """Targets of the loops around a tag string whose next iteration its value may see.

    A loop left by a ``return`` of (an expression holding) the value is not
    one of them: nothing iterates after it.
    """
    targets: list[ast.AST] = []
    returned = False
    for node, child in in_same_scope(tagfile, site):
        if isinstance(node, ast.Return):
            returned = True
        elif isinstance(node, COMPREHENSIONS):
            targets.extend(gen.target for gen in node.generators)
        elif isinstance(node, (ast.For, ast.AsyncFor)) and in_body(node, child) and not returned:
            targets.append(node.target)
    return targets


def check_tag006(ctx: FileContext) -> Iterator[TagMessage]:
    return reads_of_targets(ctx, LoopCapture, _loop_targets)
