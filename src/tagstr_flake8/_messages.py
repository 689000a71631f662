"""The TAG code table: every code, its message template, and which are off by default.

Each template starts with its code and has ``{}`` holes filled with ``repr``-style
arguments when the diagnostic is printed (``format_message``).  Grepping a code
finds its text here, its rule in ``_rules/``, its example file in
``tests/flake8/examples/`` and its entry in ``docs/flake8.md``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MESSAGES", "OFF_BY_DEFAULT", "format_message"]

MESSAGES: Final[dict[str, str]] = {
    "TAG001": (
        "TAG001 tag {!r} is a template-string prefix on Python 3.14: there {}\"...\" is a t-string, "
        "not a call of {!r}; rename the tag"
    ),
    "TAG002": (
        "TAG002 '\\N{{' in a tag string starts an interpolation of {!r}, not a named character; "
        "write '\\N{{{{{}}}}}' for the character"
    ),
    "TAG003": (
        "TAG003 {!r} is written as a tag function but is named like a string prefix: "
        "{}\"...\" is a string literal, so it can never be used as a tag"
    ),
    "TAG004": (
        "TAG004 builtin {!r} is not a tag function: {}\"...\" calls it with Decoded and "
        "Interpolation arguments"
    ),
    "TAG005": (
        "TAG005 interpolation reads class variable {!r}: the lazy closure cannot see the class "
        "body (it reads a global of that name or raises NameError)"
    ),
    "TAG006": (
        "TAG006 interpolation captures loop variable {!r}: a tag that reads it later sees the "
        "value of a later iteration"
    ),
    "TAG007": (
        "TAG007 assignment expression in an interpolation binds {!r} inside the lazy closure, "
        "not in the enclosing scope"
    ),
    "TAG008": (
        "TAG008 keyword {!r} immediately followed by a string reads like a tag string but is "
        "not one; add a space"
    ),
    "TAG009": (
        "TAG009 interpolation reads {!r}, bound by the enclosing 'with': a tag that reads it "
        "later may find it closed"
    ),
    "TAG010": (
        "TAG010 interpolation {!r} inside 'with {}': a tag that reads it later does so after "
        "the lock is released"
    ),
}

# Taste and "may be a hazard, depending on the tag" rules: enabled with --extend-select.
# The lazy-evaluation rules fire only if the tag keeps an Interpolation and calls
# getvalue() later; most tags (html, sql...) read every value at once, so by
# default they would report nearly every tag string written in a loop.
OFF_BY_DEFAULT: Final[tuple[str, ...]] = ("TAG006", "TAG008", "TAG009", "TAG010")


def format_message(code: str, args: tuple[object, ...]) -> str:
    return MESSAGES[code].format(*args)
