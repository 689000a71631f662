"""Dense view modules for the mypy benchmark ((d), (e), (f)): four tag strings with eight interpolations per view.

Each view renders a record with an ``html`` tag typed with a union and runs
two queries through a generic ``sql`` tag (``Interpolation[T]`` solved from
the values); its f-string twin writes each ``tag"..."`` as ``tag(f"...")``,
the code a user would write without tag strings.  Both check clean with
``--strict`` against the ``tags.py`` written beside them.

Two shapes: ``write_dense_pair`` ((d), (e)) declares a dataclass per view;
``write_dense_views`` ((f)) declares one and packs the views (a tag string in
a list comprehension, a format spec with a field of its own), so that the
tag strings are most of what mypy checks.
"""

from __future__ import annotations

from pathlib import Path

from typical_module import _written

__all__ = ["TAGS_MODULE", "write_dense_pair", "write_dense_views"]

#: tags that also take the twin's one ``str`` (an f-string)
TAGS_MODULE = '''from __future__ import annotations

from typing import Generic, TypeVar

from tagstr_runtime import Decoded, Interpolation

T = TypeVar("T")


class SafeHTML(str):
    pass


class Query(Generic[T]):
    def __init__(self, params: list[T]) -> None:
        self.params = params


def html(*args: Decoded | Interpolation[str | int | float | SafeHTML] | str) -> SafeHTML:
    return SafeHTML("")


def sql(*args: Decoded | Interpolation[T] | str) -> Query[T]:
    return Query([])


def run(query: Query[object]) -> list[tuple[object, ...]]:
    return []
'''

HEADER = '''"""Views of one application (generated for the mypy benchmark)."""

from __future__ import annotations

from dataclasses import dataclass

from tags import SafeHTML, html, run, sql
'''

BLOCK = '''

@dataclass
class Item{n}:
    id: int
    name: str
    price: float
    owner: str


def view_{n}(item: Item{n}, page: int, title: str) -> SafeHTML:
    head = «html:"<h1>{title}</h1><p>page {page}</p>"»
    body = «html:"<b>{item.name}</b> costs {item.price:.2f}"»
    run(«sql:"SELECT * FROM items WHERE id = {item.id} AND page = {page}"»)
    run(«sql:"SELECT * FROM owners WHERE name = {item.owner} AND title = {title}"»)
    return SafeHTML(head + body)
'''


def write_dense_pair(folder: Path, lines: int) -> tuple[Path, Path]:
    """``dense.py`` and its twin ``dense_fstrings.py`` in ``folder``, about ``lines`` lines each."""
    blocks = max(1, round((lines - HEADER.count("\n")) / BLOCK.count("\n")))
    template = HEADER + "".join(BLOCK.replace("{n}", str(n)) for n in range(blocks))
    tagged, twin = folder / "dense.py", folder / "dense_fstrings.py"
    tagged.write_text(_written(template, fstrings=False), encoding="utf-8")
    twin.write_text(_written(template, fstrings=True), encoding="utf-8")
    (folder / "tags.py").write_text(TAGS_MODULE, encoding="utf-8")
    return tagged, twin


VIEWS_HEADER = HEADER + '''

@dataclass
class Item:
    id: int
    name: str
    price: float
    owner: str
'''

VIEW = '''

def view_{n}(item: Item, rows: list[Item], page: int, width: int, title: str) -> SafeHTML:
    head = «html:"<h1>{title}</h1><p>page {page:>{width}}</p>"»
    cells = [«html:"<td>{row.name}</td>"» for row in rows]
    run(«sql:"SELECT * FROM items WHERE id = {item.id} AND page = {page}"»)
    run(«sql:"SELECT * FROM owners WHERE name = {item.owner} AND title = {title} AND price > {item.price}"»)
    return SafeHTML(head + "".join(cells))
'''


def write_dense_views(folder: Path, lines: int) -> tuple[Path, Path]:
    """``views.py`` and its twin ``views_fstrings.py`` in ``folder`` (one dataclass, then views),
    about ``lines`` lines each."""
    blocks = max(1, round((lines - VIEWS_HEADER.count("\n")) / VIEW.count("\n")))
    template = VIEWS_HEADER + "".join(VIEW.replace("{n}", str(n)) for n in range(blocks))
    tagged, twin = folder / "views.py", folder / "views_fstrings.py"
    tagged.write_text(_written(template, fstrings=False), encoding="utf-8")
    twin.write_text(_written(template, fstrings=True), encoding="utf-8")
    (folder / "tags.py").write_text(TAGS_MODULE, encoding="utf-8")
    return tagged, twin
