"""TAG008 (off by default): a keyword immediately followed by a string (``return"x"``).

It reads like a tag string named ``return`` but is the keyword and a plain
string (SPEC 1.3 keeps every valid keyword+string form standard).  A regular
expression finds candidates; the tokenizer confirms them (so strings and
comments that merely contain ``return"`` are not reported).
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Iterator

from tagstr_runtime.frontend import KEYWORDS_BEFORE_STRING

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import KeywordString, TagMessage

_CANDIDATE = re.compile(
    r"(?<![\w.])(?:" + "|".join(sorted(KEYWORDS_BEFORE_STRING)) + r")(?=['\"])"
)
_STRING_STARTS = frozenset(
    getattr(tokenize, name) for name in ("STRING", "FSTRING_START", "TSTRING_START") if hasattr(tokenize, name)
)


def check_tag008(ctx: FileContext) -> Iterator[TagMessage]:
    if _CANDIDATE.search(ctx.text) is None:
        return
    lines = ctx.lines
    if ctx.tagfile is not None and ctx.tagfile.masked_lines is not None:
        lines = ctx.tagfile.masked_lines
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("".join(lines)).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    for token, following in zip(tokens, tokens[1:]):
        if (
            token.type == tokenize.NAME
            and token.string in KEYWORDS_BEFORE_STRING
            and following.type in _STRING_STARTS
            and following.start == token.end
        ):
            line, col = token.start
            yield KeywordString(line, ctx.source.col_byte(line, col), keyword=token.string)
