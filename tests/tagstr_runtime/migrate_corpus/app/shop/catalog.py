"""Products and their pages: nested tag strings, specs, '=' fields."""

from __future__ import annotations

from decimal import Decimal

from shop.tags import Markup, html, money, sku

PRODUCTS = [
    ("Tea <green>", Decimal("3.5"), 12),
    ("Coffee & cream", Decimal("7.25"), 0),
    ("Cocoa", Decimal("4"), 3),
]


def row(name: str, price: Decimal, stock: int) -> Markup:
    state = html"<em>{stock} left</em>" if stock else html"<s>sold out</s>"
    return html"<tr><td>{name}</td><td>{money'{price}'}</td><td>{state}</td></tr>"


def table() -> Markup:
    rows = [row(*product) for product in PRODUCTS]
    return html"<table>{rows}</table>"


def widths(width: int) -> list[str]:
    out = []
    for name, price, _ in PRODUCTS:
        out.append(html"|{name:>{width}}|{price!s:<6}|")
        out.append(html"|{name!r:^{width + 2}}|")  # expect: MIG008
    return out


def codes() -> list[str]:
    return [sku"{i}:{name[:3]}" for i, (name, _, _) in enumerate(PRODUCTS)]


def debug_view(total: Decimal) -> str:
    count = len(PRODUCTS)
    return html"{count=} {total=!s} {count = }"


def formats(total: Decimal) -> str:
    return f"{money'{total}'!r} and {html'<b>{total}</b>'}"
