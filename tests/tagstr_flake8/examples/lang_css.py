# OPTIONS: --max-line-length=120
# REQUIRES: tinycss2
"""CSS tags: syntax, holes in selectors."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation

Part = Decoded | Interpolation


def css(*args: Annotated[Part, "css"]) -> str:
    return "".join(str(a) for a in args)


color, cls, value = "red", "main", 1

ok1 = css"p {{ color: {color}; margin: 0 }}"
ok2 = css"color: {color}; width: {value}px"

bad1 = css"p {{ color {color}; margin: 0 }}"  # TAG301:17
bad2 = css".{cls} > li {{ margin: 0 }}"  # TAG302:13
bad3 = css"p {{ content: \"abc }}"  # TAG301:26
