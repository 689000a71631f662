"""TAG001: a tag named like a Python 3.14 template-string prefix (``t``, ``tr``, ``rt``, any case).

On 3.14 ``t"..."`` is a t-string (PEP 750 final), so the same code stops
calling the tag: it changes meaning without an error (SPEC 1.4).
"""

from __future__ import annotations

from typing import Iterator

from tagstr_runtime.frontend import TEMPLATE_PREFIXES

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


class TemplatePrefix(RuleMessage):
    template = (
        "tag {tag!r} is a template-string prefix on Python 3.14: there {tag}\"...\" is a t-string, "
        "not a call of {tag!r}; rename the tag"
    )


def check_tag001(ctx: FileContext) -> Iterator[TagMessage]:
    assert ctx.tagfile is not None
    for tag in ctx.tagfile.tags:
        if tag.tag.lower() in TEMPLATE_PREFIXES:
            line, col = ctx.tagfile.position(tag.span.start)
            yield TemplatePrefix(line, col, tag=tag.tag)
