# OPTIONS: --max-line-length=120
# REQUIRES: tree_sitter_javascript
"""JavaScript tags: syntax, holes inside string and template literals."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def js(*args: Annotated[Decoded | Interpolation, "js"]) -> str:
    return "".join(str(a) for a in args)


value = 1

ok3 = js"const x = {value}; f(x ?? {value}, a?.b);"
bad4 = js"const x = {value};\nif (x {{ f(); }}"  # TAG401:36
bad5 = js"const s = 'hello {value}';"  # TAG402:28
bad6 = js"const s = `hello {value}`;"  # TAG402:28
bad7 = js"f(1, {value}"  # TAG401:23
