# OPTIONS: --max-line-length=120
# REQUIRES: yaml
"""YAML tags: syntax, duplicate keys, holes in keys."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def yaml(*args: Annotated[Decoded | Interpolation, "yaml"]) -> str:
    return "".join(str(a) for a in args)


n, key = 1, "k"

ok2 = yaml"id: {n}\nname: 'a {key}'\nlist: [1, {n}]\n"
bad4 = yaml"id: {n}\nname: x\nid: 2\n"  # TAG502:31
bad5 = yaml"list: [1, {n}\nnext: 2\n"  # TAG501:32
bad6 = yaml"{key}: 1\n"  # TAG503:13
