"""An interpolation's context asks for a type (docs/languages.md, "Types"): an SQL name, HTML attributes."""
# REQUIRES: sqlglot html5lib
from __future__ import annotations

from typing import Literal, Mapping

from psycopg_like import Identifier as PsycopgIdentifier
from tagstr_runtime.languages import Identifier

from language_tags import html, page, plain, query
from language_tags import sql as q

table: str = "users"
checked = Identifier("users")
known: Literal["users", "orders"] = "users"
name = "n"
attrs: Mapping[str, object] = {"id": "a"}
pairs = [("id", "a")]

ok1 = q"SELECT * FROM {checked:i} WHERE name = {name}"
ok2 = q"SELECT * FROM {known:i} ORDER BY {PsycopgIdentifier('age'):i}"
ok3 = q"SELECT * FROM {'users':i}"
bad1 = q"SELECT * FROM {table:i} WHERE name = {name}"  # E:25: Interpolation "{table}" has type "str"; tag "q" accepts "Identifier" or a string literal there (an SQL name)  [tagstr-interpolation]
bad2 = q"SELECT * FROM users ORDER BY {name}"  # E:40: Interpolation "{name}" has type "str"; tag "q" accepts "Identifier" or a string literal there (an SQL name)  [tagstr-interpolation]
bad3 = query"""SELECT a
FROM b
WHERE c = {name} ORDER BY {table}"""  # E:28: Interpolation "{table}" has type "str"; tag "query" accepts "Identifier" or a string literal there (an SQL name)  [tagstr-interpolation]
ok4 = html"<div {attrs} class='{name}'>{name}</div>"
ok5 = html"<div {dict(id=name)}>x</div>"
bad4 = html"<div {pairs}>x</div>"  # E:19: Interpolation "{pairs}" has type "list[tuple[str, str]]"; tag "html" accepts "Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]
bad5 = html"<p {name}>x</p>"  # E:17: Interpolation "{name}" has type "str"; tag "html" accepts "Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]
bad6 = page"<p {pairs}>x</p>"  # E:17: Interpolation "{pairs}" has type "list[tuple[str, str]]"; tag "page" accepts "Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]
bad7 = q"SELECT 'é' AS é FROM {table:i}"  # E:32: Interpolation "{table}" has type "str"; tag "q" accepts "Identifier" or a string literal there (an SQL name)  [tagstr-interpolation]
direction = "ASC"
bad8 = q"SELECT * FROM users ORDER BY {name} {direction}"  # E:40: Interpolation "{name}" has type "str"; tag "q" accepts "Identifier" or a string literal there (an SQL name)  [tagstr-interpolation]
bad9 = html"<a href='/u/{name}'{pairs}>x</a>"  # E:33: Interpolation "{pairs}" has type "list[tuple[str, str]]"; tag "html" accepts "Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]
bad10 = html"<label{pairs}>y</label>"  # E:21: Interpolation "{pairs}" has type "list[tuple[str, str]]"; tag "html" accepts "Mapping[str, object]" there (the attributes of an HTML tag)  [tagstr-interpolation]
untouched = plain"<div {pairs}>SELECT * FROM {table}</div>"
