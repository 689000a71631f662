# OPTIONS: --extend-select TAG005,TAG006
"""Scopes of Python 3.12: type parameters, f-strings reusing their quotes.

A type parameter is bound in an annotation scope between the def or class
and the scope around it: neither a loop variable nor a class variable.
"""
from tags import lazy, sql


def generic[T](items: list[T], log: list[object]) -> None:
    for item in items:
        log.append(lazy"{item} {T}")  # TAG006:26


class Box[T]:
    kind = "box"
    label = sql"{kind} {T}"  # F821:18 TAG005:18


type Pair[K] = tuple[K, K]


def quotes(rows: list[dict[str, str]], log: list[object]) -> None:
    for row in rows:
        log.append(f"{row["name"]}")
        log.append(lazy"{row["name"]}")  # TAG006:26
