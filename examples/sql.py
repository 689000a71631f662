"""Parameterised SQL from a tag string: ``sql"SELECT * FROM users WHERE name = {name}"``.

The literal parts of the tag string are the query.  Each interpolation
becomes a ``?`` placeholder and its value goes to the parameters, so a value
can never change the shape of the statement: the driver binds it as data.

* A ``Query`` (what ``sql"..."`` returns) interpolated into another is
  spliced in: its text inline, its parameters in order.  Queries compose
  from fragments (``where = sql"age > {min_age}"``) without string pasting.
* ``{name:id}`` quotes an *identifier* (table or column name) instead of
  binding a value: identifiers cannot be parameters in SQL.  It is quoted
  the SQL way (``"..."`` with inner ``"`` doubled), so it is still safe.
* Other conversions and format specs work as in an f-string and bind the
  resulting text: ``{price:.2f}`` binds ``'3.10'``.

Run it with ``python -m tagstr_runtime examples/sql.py``.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from tagstr_runtime import Decoded, Interpolation, accepts_template, convert, format_value

__all__ = ["Query", "execute", "quote_identifier", "sql"]


class Query(NamedTuple):
    """SQL text with ``?`` placeholders, and the values to bind to them."""

    text: str
    params: tuple[object, ...]


def quote_identifier(name: str) -> str:
    """``name`` as an SQL identifier: ``"..."`` with ``"`` doubled."""
    if "\x00" in name:
        raise ValueError("an identifier cannot contain NUL")
    return '"' + name.replace('"', '""') + '"'


@accepts_template
def sql(*args: Decoded | Interpolation[object]) -> Query:
    """The tag: literal text as written, every value a bound parameter."""
    text: list[str] = []
    params: list[object] = []
    for arg in args:
        match arg:
            case Decoded() as decoded:
                text.append(decoded)
            case Interpolation(getvalue, _, conv, format_spec):
                value = getvalue()
                if format_spec == "id":
                    text.append(quote_identifier(str(convert(value, conv))))
                elif isinstance(value, Query) and conv is None and not format_spec:
                    text.append(value.text)
                    params.extend(value.params)
                else:
                    if conv is not None or format_spec:
                        value = format_value(value, conv, format_spec)
                    text.append("?")
                    params.append(value)
            case _:  # never dropped silently (a template of a class the bridge does not know, say)
                kind = f"{type(arg).__module__}.{type(arg).__qualname__}"
                raise TypeError(f"sql takes a tag string's arguments or one template, not {kind}")
    return Query("".join(text), tuple(params))


def execute(db: sqlite3.Connection, query: Query) -> sqlite3.Cursor:
    """Run one statement with its parameters bound by the driver."""
    return db.execute(query.text, query.params)


NAMES = [
    "O'Henry",
    "x'; DROP TABLE users; --",
    "Robert'); DROP TABLE students;--",
    'quote " and backslash \\',
]


class Outcome(NamedTuple):
    rows: list[tuple[int, str, int]]  # what the SELECTs found
    stored: list[str]  # every name in the table, in insertion order
    tables: list[str]  # the tables left in the database


def demo() -> Outcome:
    """Store every name of ``NAMES``, query them back, see what is left."""
    db = sqlite3.connect(":memory:")
    table = "users"
    execute(db, sql"""CREATE TABLE {table:id} (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER
    )""")
    for age, name in enumerate(NAMES, start=20):
        execute(db, sql"INSERT INTO {table:id} (name, age) VALUES ({name}, {age})")

    # A fragment spliced into a bigger query keeps its parameters in order.
    min_age = 21
    adults = sql"age >= {min_age}"
    name = NAMES[1]
    columns = sql"SELECT id, name, age FROM users"
    rows = execute(db, sql"{columns} WHERE {adults} AND name = {name}").fetchall()
    minors = sql"id NOT IN (SELECT id FROM users WHERE {adults})"
    rows += execute(db, sql"{columns} WHERE {minors}").fetchall()
    rows += execute(db, sql"{columns} WHERE name = {NAMES[0]}").fetchall()
    stored = [name for (name,) in execute(db, sql"SELECT name FROM {table:id} ORDER BY id")]
    tables = execute(db, sql"SELECT name FROM sqlite_master WHERE type = {'table'}").fetchall()
    db.close()
    return Outcome(rows, stored, [table for (table,) in tables])


def unsafe_demo() -> list[str]:
    """The same lookup pasted together with an f-string: the value runs as SQL."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    name = NAMES[1]
    db.executescript(f"SELECT id FROM users WHERE name = '{name}'")  # DON'T: injectable
    tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    db.close()
    return [table for (table,) in tables]


def main() -> None:
    name = NAMES[1]
    query = sql"SELECT * FROM users WHERE name = {name}"
    print("query: ", query.text)
    print("params:", query.params)
    outcome = demo()
    for row in outcome.rows:
        print("row:   ", row)
    print("stored:", outcome.stored)
    print("tables after the tag-string queries:", outcome.tables)
    print("tables after one f-string query:    ", unsafe_demo())


if __name__ == "__main__":
    main()
