"""TAG101-TAG115: HTML in tags that declare it (the analysis: ``lint.language_checks``, ``analysis.embedded.html``)."""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.language_checks import messages_of
from tagstr_flake8.lint.messages import (
    HtmlDuplicateAttribute, HtmlEndTag, HtmlHoleComment, HtmlHoleEvent, HtmlHoleName,
    HtmlHoleRawText, HtmlHoleScriptUrl, HtmlHoleUnquoted, HtmlReference, HtmlStrict, HtmlSyntax,
    HtmlUnclosed, TagMessage,
)


def check_tag101(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlEndTag)


def check_tag102(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlUnclosed)


def check_tag103(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlDuplicateAttribute)


def check_tag104(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlSyntax)


def check_tag105(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlReference)


def check_tag106(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlStrict)


def check_tag110(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleUnquoted)


def check_tag111(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleName)


def check_tag112(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleRawText)


def check_tag113(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleComment)


def check_tag114(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleEvent)


def check_tag115(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, HtmlHoleScriptUrl)
