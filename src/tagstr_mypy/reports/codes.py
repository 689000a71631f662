"""The plugin's error codes, each with its one ``fail_*`` helper.

Each can be disabled, enabled or ignored like mypy's own codes
(``--disable-error-code tagstr-interpolation``, ``# type: ignore[tagstr-signature]``).
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode
from mypy.errors import ErrorInfo
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface

__all__ = [
    "TAG_NOT_CALLABLE",
    "TAG_SIGNATURE",
    "TAG_INTERPOLATION",
    "fail_not_callable",
    "fail_signature",
    "fail_interpolation",
    "fail_together",
]

TAG_NOT_CALLABLE: Final = ErrorCode(
    "tagstr-not-callable", "The tag of a tag string is not callable", "tagstr"
)
TAG_SIGNATURE: Final = ErrorCode(
    "tagstr-signature", 'The tag cannot take "*args: Decoded | Interpolation"', "tagstr"
)
TAG_INTERPOLATION: Final = ErrorCode(
    "tagstr-interpolation", "An interpolation's value is not one the tag accepts", "tagstr"
)

ACCEPTED: Final = '"*args: Decoded | Interpolation"'
# when the tag's own types share those names (the PEP draft's Protocols, copied)
ACCEPTED_IN_FULL: Final = '"*args: tagstr_runtime.Decoded | tagstr_runtime.Interpolation"'


def fail_not_callable(api: CheckerPluginInterface, ctx: Context, tag: str, typ: str) -> ErrorInfo | None:
    return api.fail(f'Tag "{tag}" is not callable (its type is {typ})', ctx, code=TAG_NOT_CALLABLE)


def fail_signature(
    api: CheckerPluginInterface, ctx: Context, tag: str, typ: str, in_full: bool = False
) -> ErrorInfo | None:
    accepted = ACCEPTED_IN_FULL if in_full else ACCEPTED
    return api.fail(
        f'Tag "{tag}" cannot be called with tag-string arguments: a tag must accept {accepted},'
        f" and it is {typ}",
        ctx,
        code=TAG_SIGNATURE,
    )


def fail_interpolation(
    api: CheckerPluginInterface, ctx: Context, expr: str, typ: str, tag: str, accepted: str
) -> None:
    api.fail(
        f'Interpolation "{shown_field(expr)}" has type {typ}; tag "{tag}" accepts {accepted}',
        ctx,
        code=TAG_INTERPOLATION,
    )


def fail_together(
    api: CheckerPluginInterface, ctx: Context, tag: str, values: list[tuple[str, str]]
) -> None:
    """Each value fits alone, not all at once (one type variable, two types): the
    interpolations by their text, never by an argument number counting literal parts."""
    shown = ", ".join(f'"{shown_field(expr)}" has type {typ}' for expr, typ in values)
    api.fail(
        f'Tag "{tag}" cannot take these interpolations together: {shown}', ctx, code=TAG_INTERPOLATION
    )


def shown_field(expr: str) -> str:
    """The field as a message shows it: on one line (one error per line, also in
    JSON output), and with a space inside braces that would read as escaped
    ones (``{ {'a': 1} }``, not ``{{'a': 1}}``)."""
    lines = expr.split("\n")
    text = lines[0].rstrip() + (" ..." if len(lines) > 1 else "")
    if text.startswith("{") or text.endswith("}"):
        return "{ " + text + " }"
    return "{" + text + "}"
