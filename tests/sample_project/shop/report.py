"""A plain module (no tag strings) importing from the tag-string ones."""

from __future__ import annotations

from shop.views import TITLE, listing


def summary(items: dict[str, float]) -> str:
    return TITLE.upper() + listing(items).strip()
