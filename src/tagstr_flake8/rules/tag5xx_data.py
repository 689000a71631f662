"""TAG501-TAG503: JSON, YAML and TOML in tags that declare them (the analysis: ``lint.language_checks``)."""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.language_checks import messages_of
from tagstr_flake8.lint.messages import (
    DataDuplicateKey, DataHoleKey, DataSyntax, TagMessage,
)


def check_tag501(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, DataSyntax)


def check_tag502(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, DataDuplicateKey)


def check_tag503(ctx: FileContext) -> Iterator[TagMessage]:
    return messages_of(ctx, DataHoleKey)
