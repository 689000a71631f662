# OPTIONS: --max-line-length=120
# REQUIRES: html5lib sqlglot
"""Correct code in every language stays silent; tags that declare no language are not checked."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation

Part = Decoded | Interpolation


def html(*args: Annotated[Part, "html"]) -> str: ...
def sql(*args: Annotated[Part, "sql"]) -> str: ...
def plain(*args: Part) -> str: ...


name, uid, table, attrs = "n", 1, "users", {"id": "a"}

page = html"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{name}</title>
<link rel="stylesheet" href="/s.css">
</head>
<body>
  <DIV class="card" {attrs}>
    <P>Hello, {name}!<br>
    <img src="/u/{uid}.png" alt="{name}">
    <ul><li>one<li>{name}</ul>
    <table><tr><td>{uid}<td>{name}</table>
    <select><option>{name}<option selected>b</select>
    <input type="text" value="{name}" disabled>
  </div>
  <a href="/users/{uid}?tab={name}&amp;x=1">{name} &copy; 2024</a>
</body>
</html>"""
row = html"<tr><td>{name}</td><td>{uid}</td></tr>"
item = html"<li>{name}"
query = sql"""
    SELECT u.id, u.name, COUNT(o.id) AS orders
    FROM users AS u LEFT JOIN orders AS o ON o.user_id = u.id
    WHERE u.name = {name} AND u.id IN ({uid}, {uid}) AND u.age BETWEEN {uid} AND {uid}
    GROUP BY u.id, u.name
    HAVING COUNT(o.id) > {uid}
    ORDER BY orders DESC
    LIMIT {uid} OFFSET {uid}
"""
insert = sql"INSERT INTO {table:i} (name, age) VALUES ({name}, {uid}) RETURNING id"
update = sql"UPDATE users SET name = {name}, age = {uid} WHERE id = {uid};"
upsert = sql"INSERT INTO users (id, name) VALUES ({uid}, {name}) ON CONFLICT (id) DO UPDATE SET name = excluded.name"
with_cte = sql"WITH recent AS (SELECT * FROM orders WHERE ts > {uid}) SELECT COUNT(*) FROM recent"
unchecked = plain"<p>{name}</span> SELEC {table}"
