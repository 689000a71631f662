"""The shop's tags: each proven eager (migrated), or kept with its reason where it is used."""

from __future__ import annotations

import html as htmllib
from dataclasses import dataclass
from decimal import Decimal

from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value


class Markup(str):
    """Text that is already HTML."""

    def __html__(self) -> str:
        return str(self)


def _markup(value: object) -> str | None:
    dunder = getattr(value, "__html__", None)
    if dunder is not None and callable(dunder):
        return str(dunder())
    return None


def _escape(value: object, conv: str | None, spec: str | None) -> str:
    if conv is None:
        markup = _markup(value)
        if markup is not None:
            return markup
        if isinstance(value, (list, tuple)):
            return "".join(_escape(item, None, None) for item in value)
    return htmllib.escape(format_value(value, conv, spec))


@accepts_template
def html(*args: Decoded | Interpolation[object]) -> Markup:
    """Literal parts verbatim, values escaped."""
    out: list[str] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                out.append(decoded)
            case Interpolation(getvalue, _, conv, spec):
                out.append(_escape(getvalue(), conv, spec))
            case _:
                raise TypeError(f"html takes tag string arguments, not {arg!r}")
    return Markup("".join(out))


@accepts_template
def money(*args: Decoded | Interpolation[object]) -> str:
    """Numbers as amounts with two decimals."""
    return "".join(
        a if isinstance(a, Decoded) else f"${Decimal(str(a.getvalue())).quantize(Decimal('0.01'))}" for a in args
    )


def _quote(name: str) -> str:
    if not name.isidentifier():
        raise ValueError(f"not an identifier: {name!r}")
    return f'"{name}"'


@dataclass
class Query:
    text: str
    params: tuple[object, ...]


@accepts_template
def sql(*args: Decoded | Interpolation[object]) -> Query:
    """Values become parameters; ``{name:id}`` an identifier (checked: it may raise)."""
    text: list[str] = []
    params: list[object] = []
    for arg in args:
        if isinstance(arg, Decoded):
            text.append(arg)
            continue
        value = arg.getvalue()
        if arg.format_spec == "id":
            text.append(_quote(str(value)))
        else:
            text.append("?")
            params.append(value)
    return Query("".join(text), tuple(params))


class Receipt:
    """An instance is a tag: lines of a receipt, numbered."""

    def __init__(self, shop: str) -> None:
        self.shop = shop

    def __call__(self, *args: Decoded | Interpolation[object]) -> str:
        parts = []
        for arg in args:
            if isinstance(arg, Interpolation):
                parts.append(str(arg.getvalue()))
            else:
                parts.append(arg)
        return f"[{self.shop}] " + "".join(parts)


receipt = accepts_template(Receipt("corner shop"))


def make_labeler(prefix: str):
    """A factory: each tag it makes prefixes its values."""

    @accepts_template
    def label(*args: Decoded | Interpolation[object]) -> str:
        return "".join(a if isinstance(a, str) else f"{prefix}{a.getvalue()}" for a in args)

    return label


sku = make_labeler("SKU-")
