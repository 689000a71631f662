"""TAG201-TAG207: SQL in tags that declare it (the analysis: ``lint.language_checks``, ``analysis.embedded.sql``)."""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.language_checks import messages_of
from tagstr_flake8.lint.messages import (
    SqlAdjacentHoles, SqlHoleComment, SqlHoleIdentifier, SqlHoleKeyword, SqlHoleLiteral,
    SqlStatements, SqlSyntax, TagMessage,
)


def check_tag201(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlSyntax)


def check_tag202(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlHoleIdentifier)


def check_tag203(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlHoleKeyword)


def check_tag204(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlHoleLiteral)


def check_tag205(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlHoleComment)


def check_tag206(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlAdjacentHoles)


def check_tag207(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, SqlStatements)
