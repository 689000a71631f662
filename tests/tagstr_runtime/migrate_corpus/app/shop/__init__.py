"""A small web shop: pages, money, orders, receipts."""

from .tags import html, money

__all__ = ["html", "money"]
