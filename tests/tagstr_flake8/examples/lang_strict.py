# OPTIONS: --max-line-length=120 --extend-select=TAG106
# REQUIRES: html5lib
"""The opt-in strict (XHTML-like) HTML check: every end tag written, in the case of its start tag."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def html(*args: Annotated[Decoded | Interpolation, "html"]) -> str:
    return "".join(str(a) for a in args)


x = "v"
ok = html"<ul><li>{x}</li></ul><br><img src=\"{x}\"><p>{x}</p>"
bad1 = html"<ul><li>{x}<li>two</ul>"  # TAG106:17 TAG106:24
bad2 = html"<DIV>{x}</div>"  # TAG106:21
bad3 = html"<p>{x}"  # TAG106:13
