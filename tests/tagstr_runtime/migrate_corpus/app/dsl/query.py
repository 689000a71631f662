"""Queries with named parameters: a parameter is named after its expression (``expr``)."""

from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation, accepts_template


class Params(dict):
    pass


@accepts_template
def q(*args: Decoded | Interpolation[object]) -> tuple[str, Params]:
    text: list[str] = []
    params = Params()
    for arg in args:
        match arg:
            case str():
                text.append(arg)
            case getvalue, expr, _, _:
                value = getvalue()
                if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], Params):
                    text.append(f"({value[0]})")
                    params.update(value[1])
                else:
                    name = expr if expr.isidentifier() else f"p{len(params)}"
                    text.append(f":{name}")
                    params[name] = value
    return "".join(text), params


@accepts_template
def show(*args: Decoded | Interpolation[object]) -> list[object]:
    """Each field as (expr, value): what a debugging tag prints."""
    return [a if isinstance(a, Decoded) else (a.expr, a.getvalue()) for a in args]
