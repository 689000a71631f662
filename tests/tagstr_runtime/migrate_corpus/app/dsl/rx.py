"""A regex tag: the literal parts are the pattern as written (it reads .raw), values escaped."""

from __future__ import annotations

import re

from tagstr_runtime import Decoded, Interpolation, accepts_template


def _literal(part: Decoded) -> str:
    return getattr(part, "raw")


@accepts_template
def rx(*args: Decoded | Interpolation[object]) -> re.Pattern[str]:
    return re.compile("".join(_literal(a) if isinstance(a, Decoded) else re.escape(str(a.getvalue())) for a in args))


@accepts_template
def pattern(*args: Decoded | Interpolation[object]) -> str:
    """The cooked text (it does not read .raw): escapes are the tag string's."""
    return "".join(a if isinstance(a, Decoded) else re.escape(str(a.getvalue())) for a in args)
