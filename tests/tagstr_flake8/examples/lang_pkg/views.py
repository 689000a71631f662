# OPTIONS: --max-line-length=120
# REQUIRES: html5lib sqlglot tinycss2
"""Tags imported from the package's other modules keep the language their definitions declare."""
from lang_pkg.tags import sql  # absolute: the folder above the top package is searched
from lang_pkg.tags import config, make_sql, page, plain, style

from . import query  # re-exported by __init__, renamed there
from .parts import HtmlPart
from .tags import html
from .tags import html as h

local_sql = make_sql()  # a factory of another module


def local(*args: HtmlPart) -> str:  # declared through a type alias of another module
    return "".join(map(str, args))


def view(name: str, table: str, uid: int) -> list[str]:
    return [
        html"<p>{name}</span>",  # TAG101:23
        h"<p title={name}>x</p>",  # TAG110:20
        sql"SELECT * FROM {table} WHERE id = {uid}",  # TAG202:27
        query"SELECT * FROM users WHERE name = '{name}'",  # TAG204:49
        local_sql"SELECT * FROM users ORDER BY {table}",  # TAG202:48
        page"<a href=\"javascript:go({name})\">x</a>",  # TAG115:38
        style".{name} {{ color: red }}",  # TAG302:16
        config'{{"id": {uid}, "id": 2}}',  # TAG502:31
        local"<b onclick=\"go({name})\">x</b>",  # TAG114:31
        html"""<ul>
  <li>{name}
  <li>{name}</b>
</ul>""",  # @-1 TAG101:13
        plain"<p>{name}</span>",  # declares no language: not checked
        html"<p>Hello {name}!<br><img src=\"/u/{uid}.png\"></p>",
        sql"SELECT * FROM users WHERE id = {uid} AND name = {name}",
        query"SELECT {table:i} FROM users",
    ]
