"""Orders: SQL built with the shop's sql tag (its identifier check may raise)."""

from __future__ import annotations

from shop.tags import receipt, sql

calls: list[str] = []


def table_name(name: str) -> str:
    calls.append(f"table {name}")
    return name


def customer(name: str) -> str:
    calls.append(f"customer {name}")
    return name


def queries() -> list[object]:
    table = "orders"
    who = "ann"
    out = [
        sql"SELECT * FROM {table:id} WHERE who = {who}",
        sql"SELECT * FROM {table_name('orders'):id} WHERE who = {customer('bob')}",  # expect: MIG014
        sql"SELECT {1 + 1}",  # expect: MIG014
    ]
    return out


def broken() -> object:
    # the identifier check raises before the second value runs, in a tag string
    return sql"SELECT * FROM {table_name('no such'):id} WHERE who = {customer('eve')}"  # expect: MIG014


def receipts(items: list[tuple[str, int]]) -> list[str]:
    return [receipt"{name} x{count}" for name, count in items]
