"""TAG002: ``\\N{`` in a tag string starts an interpolation, not a named character (SPEC 2).

The lexer records each occurrence (in literal text and in format specs, both
raw) as a compile warning; this rule reports it with the fix: the doubled
braces when the field's text is a character's name, else an escaped
backslash (the user wanted ``\\N`` before the value).
"""

from __future__ import annotations

from typing import Final, Iterator

from tagstr_runtime.frontend import is_character_name

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


#: The fix: with the name of a real character, or (any other name) for a backslash and N.
NAMED_ESCAPE_FIX: Final = "write '\\N{{{{{name}}}}}' for the character"
BACKSLASH_N_FIX: Final = "write '\\\\N' for a backslash and N before it"


class NamedEscape(RuleMessage):
    template = (
        "'\\N{{' in a tag string starts an interpolation of {name!r}, not a named character; {fix}"
    )


def check_tag002(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    fields = {f.span.start: f for tag in tagfile.tags for f in tag.fields()}
    for warning in tagfile.desugaring.result.warnings:
        field = fields.get(warning.span.end - 1)  # the span covers '\N{'
        if field is None:
            continue
        line, col = tagfile.position(warning.span.start)
        name = field.expr
        fix = NAMED_ESCAPE_FIX.format(name=name) if is_character_name(name) else BACKSLASH_N_FIX
        yield NamedEscape(line, col, name=name, fix=fix)
