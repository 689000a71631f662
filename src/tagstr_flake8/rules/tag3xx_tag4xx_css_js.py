"""TAG301-TAG402: CSS and JavaScript in tags that declare them (the analysis: ``lint.language_checks``)."""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.language_checks import messages_of
from tagstr_flake8.lint.messages import (
    CssHoleSelector, CssSyntax, JsHoleString, JsSyntax, TagMessage,
)


def check_tag301(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, CssSyntax)


def check_tag302(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, CssHoleSelector)


def check_tag401(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, JsSyntax)


def check_tag402(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, JsHoleString)
