"""TAG008 (off by default): a keyword immediately followed by a string (``return"x"``).

It reads like a tag string named ``return`` but is the keyword and a plain
string (SPEC 1.3 keeps every valid keyword+string form standard).  The
project's lexer records each one wherever it stands, inside f-string and
tag-string fields too, where Python 3.11's tokenizer sees one string token
(so a tokenizer-based check differed between 3.11 and 3.12).  A file without
tag strings is lexed only when a regular expression finds a candidate.
"""

from __future__ import annotations

import re
from typing import Iterator

from tagstr_runtime.frontend import KEYWORDS_BEFORE_STRING

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


class KeywordString(RuleMessage):
    template = (
        "keyword {keyword!r} immediately followed by a string reads like a tag string but is "
        "not one; add a space"
    )


_CANDIDATE = re.compile(
    r"(?<![\w.])(?:" + "|".join(sorted(KEYWORDS_BEFORE_STRING)) + r")(?=['\"])"
)


def check_tag008(ctx: FileContext) -> Iterator[TagMessage]:
    if ctx.tagfile is not None:
        spans = ctx.tagfile.desugaring.result.keyword_strings
    else:
        if _CANDIDATE.search(ctx.text) is None:
            return
        from tagstr_runtime.frontend import TagSyntaxError, parse  # the lexer: only for a candidate

        try:
            spans = parse(ctx.source.text).keyword_strings
        except TagSyntaxError:  # not expected in a file CPython parsed: nothing to report
            return
    text = ctx.source.text
    for span in spans:
        line, col = ctx.source.line_col_byte(span.start)
        yield KeywordString(line, col, keyword=text[span.start : span.end])
