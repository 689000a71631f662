from __future__ import annotations

from shop.tags import html, money

TITLE = html"<h1>{'Shop & more'}</h1>"


def product(name: str, price: float) -> str:
    return html"<li>{name}: {money"{price:.2f}"}</li>"


def listing(items: dict[str, float]) -> str:
    rows = [product(name, price) for name, price in items.items()]
    if not rows:
        return html"<p>{'nothing'}</p>"
    return TITLE + "".join(rows)
