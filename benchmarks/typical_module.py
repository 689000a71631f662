"""The typical module of the flake8 and mypy benchmarks ((c) in both): html/sql tag strings, and its f-string twin.

One ~85-line block repeated with a running number: a dataclass rendering
itself, a query class (a class variable, a lock, a multi-line SQL string, a
loop of inserts), views looping over rows, a nested tag string in a
comprehension, format specs, a ``with open()`` block, a generator of
options.  The f-string twin writes each tag string ``tag"..."`` as
``tag(f"...")``: the same names read at nearly the same columns, what a
user would write without tag strings.  Both come from one template, where
``«tag:"body"»`` stands for a tag string (innermost first, for nesting).
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["TAGS_MODULE", "write_module_pair"]

#: ``tags.py`` beside the pair, for type checkers: tags that also take the twin's
#: one ``str`` (an f-string), so both modules check clean with ``--strict``.
TAGS_MODULE = '''from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation


class Query:
    def __init__(self, text: str, params: list[object]) -> None:
        self.text, self.params = text, params


def html(*args: Decoded | Interpolation[object] | str) -> str:
    return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)


def sql(*args: Decoded | Interpolation[int | str | float | None] | str) -> Query:
    return Query("", [])
'''

HEADER = '''"""Views and queries of one application (generated for the flake8 benchmark)."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from tags import html, sql

LOG = logging.getLogger(__name__)
'''

BLOCK = '''

@dataclass
class User{n}:
    id: int
    name: str
    email: str
    age: int
    tags: list[str]

    def card(self) -> str:
        return «html:"<div class='card'><b>{self.name}</b> <i>{self.email}</i></div>"»

    def row(self, highlight: bool = False) -> str:
        css = "hl" if highlight else "plain"
        return «html:"<tr class='{css}'><td>{self.id}</td><td>{self.name!r}</td><td>{self.age:>3}</td></tr>"»


class UserQueries{n}:
    table = "users_{n}"

    def __init__(self, db: Any) -> None:
        self.db = db
        self._lock = threading.Lock()

    def by_id(self, user_id: int) -> Any:
        return self.db.execute(«sql:"SELECT id, name, email FROM users WHERE id = {user_id}"»)

    def by_name(self, name: str, limit: int = 10) -> Any:
        query = «sql:"""
            SELECT id, name, email, age
            FROM users
            WHERE name LIKE {name} AND age > {limit // 2}
            ORDER BY name
            LIMIT {limit}
        """»
        return self.db.execute(query)

    def update_email(self, user: User{n}, email: str) -> None:
        with self._lock:
            self.db.execute(«sql:"UPDATE users SET email = {email} WHERE id = {user.id}"»)
        LOG.info(«html:"updated <b>{user.name}</b> to {email}"»)

    def bulk_insert(self, users: list[User{n}]) -> int:
        count = 0
        for user in users:
            self.db.execute(«sql:"INSERT INTO users (id, name) VALUES ({user.id}, {user.name})"»)
            count += 1
        return count


def render_users_{n}(users: list[User{n}], title: str, page: int = 1) -> str:
    rows = []
    for index, user in enumerate(users):
        rows.append(«html:"<tr><td>{index + 1}</td><td>{user.name}</td><td>{user.email}</td></tr>"»)
    body = "".join(rows)
    return «html:"""
<section id="users-{page}">
  <h2>{title} (page {page})</h2>
  <table>{body}</table>
  <p>{len(users)} users, average age {sum(u.age for u in users) / max(len(users), 1):.1f}</p>
</section>
"""»


def tag_list_{n}(user: User{n}) -> str:
    return «html:"<ul>{''.join([«html:'<li>{tag}</li>'» for tag in user.tags])}</ul>"»


def report_{n}(db: Any, path: str, since: str) -> str:
    with open(path) as fh:
        header = fh.readline().strip()
    stats = db.execute(«sql:"SELECT count(*), max(age) FROM users WHERE created > {since}"»).fetchone()
    total, oldest = stats
    if total == 0:
        return «html:"<p class='empty'>{header}: no users since {since}</p>"»
    return «html:"<p>{header}: {total:,} users, oldest {oldest}</p>"»


def search_form_{n}(query: str, options: dict[str, str]) -> str:
    choices = "".join(
        «html:"<option value='{key}'>{label}</option>"» for key, label in sorted(options.items())
    )
    return «html:"<form><input name='q' value='{query}'><select>{choices}</select></form>"»
'''

_TAG_STRING = re.compile(r"«(\w+):('''|\"\"\"|\"|')([^«»]*?)\2»", re.S)


def _written(template: str, fstrings: bool) -> str:
    def tag_string(match: re.Match[str]) -> str:
        tag, quote, body = match.groups()
        return f"{tag}(f{quote}{body}{quote})" if fstrings else f"{tag}{quote}{body}{quote}"

    while True:  # innermost first: a body holding a nested one matches once that one is written
        written = _TAG_STRING.sub(tag_string, template)
        if written == template:
            return written
        template = written


def write_module_pair(folder: Path, lines: int = 9000) -> tuple[Path, Path]:
    """``tagged.py`` and its twin ``fstrings.py`` in ``folder``, about ``lines`` lines each,
    and the ``tags.py`` both import."""
    blocks = max(1, round((lines - HEADER.count("\n")) / BLOCK.count("\n")))
    template = HEADER + "".join(BLOCK.replace("{n}", str(n)) for n in range(blocks))
    tagged, twin = folder / "tagged.py", folder / "fstrings.py"
    tagged.write_text(_written(template, fstrings=False), encoding="utf-8")
    twin.write_text(_written(template, fstrings=True), encoding="utf-8")
    (folder / "tags.py").write_text(TAGS_MODULE, encoding="utf-8")
    return tagged, twin
