# OPTIONS: --max-line-length=120
# REQUIRES: html5lib
"""A language declared through a ``type`` alias (Python 3.12+)."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation

type HtmlPart = Annotated[Decoded | Interpolation, "html"]


def html(*args: HtmlPart) -> str:
    return "".join(str(a) for a in args)


x = "v"
a1 = html"<p>{x}</span>"  # TAG101:17
