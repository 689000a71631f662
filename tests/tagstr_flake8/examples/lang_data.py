# OPTIONS: --max-line-length=120
"""JSON and TOML tags (the standard library's parsers): syntax, duplicate keys, holes in keys."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation

Part = Decoded | Interpolation


def json(*args: Annotated[Part, "json"]) -> str:
    return "".join(str(a) for a in args)


def toml(*args: Annotated[Part, "toml"]) -> str:
    return "".join(str(a) for a in args)


n, key = 1, "k"

ok1 = json'{{"id": {n}, "tags": [{n}, "a {key}"], "x": {{"id": 2}}}}'
ok3 = toml"id = {n}\nname = \"{key}\"\n[server]\nport = {n}\n"

bad1 = json'{{"id": {n}, "id": 2}}'  # TAG502:26
bad2 = json'{{"id": {n} "x": 2}}'  # TAG501:25
bad3 = json'{{"{key}": 1, {key}: 2}}'  # TAG503:27
bad7 = toml"id = {n}\nid = 2\n"  # TAG502:23
bad8 = toml"id = \n"  # TAG501:18
bad9 = toml"{key} = 1\n"  # TAG503:13
bad10 = json'''{{
  "a": 1,
  "a": {n}
}}'''  # @-1 TAG502:3
