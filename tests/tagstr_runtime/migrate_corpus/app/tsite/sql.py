"""SQL with bindings named after the expressions that give them (``expr``), as the site's example."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tagstr_runtime import Decoded, Interpolation, accepts_template

VALID = re.compile(r"[a-z_][a-z0-9_]*")


@dataclass
class Param:
    raw: str
    value: Any


@dataclass
class SQL:
    parts: list[Any]
    sql: str = field(init=False)
    bindings: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.sql, self.bindings = analyze(self.parts)


def analyze(parts: list[Any], bindings: dict[str, Any] | None = None,
            counts: defaultdict[Any, int] | None = None) -> tuple[str, dict[str, Any]]:
    bindings = {} if bindings is None else bindings
    counts = defaultdict(int) if counts is None else counts
    text = []
    for part in parts:
        match part:
            case str():
                text.append(part)
            case Param(raw, value):
                if not VALID.fullmatch(raw):
                    raw = "expr"
                counts[(raw, repr(value))] += 1
                count = counts[(raw, repr(value))]
                name = raw if count == 1 else f"{raw}_{count}"
                bindings[name] = value
                text.append(f":{name}")
            case SQL(subparts):
                text.append(analyze(subparts, bindings, counts)[0])
    return "".join(text), bindings


@accepts_template
def sql(*args: Decoded | Interpolation[Any]) -> SQL:
    parts = []
    for arg in args:
        match arg:
            case str():
                parts.append(arg)
            case getvalue, raw, _, _:
                match value := getvalue():
                    case SQL():
                        parts.append(value)
                    case _:
                        parts.append(Param(raw, value))
    return SQL(parts)
