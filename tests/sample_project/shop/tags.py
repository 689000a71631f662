"""Tags of the shop, documented by their examples.

>>> name = "<b>"
>>> html"<p>{name}</p>"
'<p>&lt;b&gt;</p>'
>>> money"total {1234.5:,.2f}"
'total 1,234.50 EUR'
"""

from __future__ import annotations

from html import escape

from tagstr_runtime import Decoded, Interpolation, format_value


def html(*args: Decoded | Interpolation[object]) -> str:
    """Escape every interpolated value.

    >>> html"{'&'}"
    '&amp;'
    """
    return "".join(arg if isinstance(arg, Decoded) else escape(str(arg.getvalue())) for arg in args)


def money(*args: Decoded | Interpolation[float]) -> str:
    parts: list[str] = []
    for arg in args:
        if isinstance(arg, Decoded):
            parts.append(arg)
        else:
            parts.append(format_value(arg.getvalue(), arg.conv, arg.format_spec))
    return "".join(parts) + " EUR"
