"""TAG002: ``\\N{`` in a tag string starts an interpolation, not a named character (SPEC 2).

The lexer records each occurrence as a compile warning; this rule reports it
with the name the user most likely meant.
"""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import NamedEscape, TagMessage


def check_tag002(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    fields = {f.span.start: f for tag in tagfile.tags for f in tag.fields()}
    for warning in tagfile.desugaring.result.warnings:
        field = fields.get(warning.span.end - 1)  # the span covers '\N{'
        if field is None:
            continue
        line, col = tagfile.position(warning.span.start)
        yield NamedEscape(line, col, name=field.expr)
