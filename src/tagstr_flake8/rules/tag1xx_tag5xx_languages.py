"""TAG101-TAG503, TAG901: the embedded languages' codes, one check per code, made from the registry.

Every language code reports the findings of one analysis per file
(``lint.language_checks``); the check of a code only keeps that code's
messages.  ``check_tagNNN`` and the message classes (``lint.messages``) are
found as ``RULES`` looks them up, for each code of the language registry, so a
new language adds no rule module.
"""

from __future__ import annotations

from typing import Callable, Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.language_checks import messages_of
from tagstr_flake8.lint.messages import LANGUAGE_MESSAGES, TagMessage

__all__ = ["check_code"]


def check_code(message: type[TagMessage]) -> Callable[[FileContext], Iterator[TagMessage]]:
    """The check of ``message``'s code: the file's messages of that class."""

    def check(ctx: FileContext) -> Iterator[TagMessage]:
        return messages_of(ctx, message)

    check.__name__ = f"check_{message.code.lower()}"
    return check


_NAMES: dict[str, object] = {
    **{f"check_{message.code.lower()}": check_code(message) for message in LANGUAGE_MESSAGES},
    **{message.__name__: message for message in LANGUAGE_MESSAGES},
}


def __getattr__(name: str) -> object:
    found = _NAMES.get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found
