# OPTIONS: --max-line-length=120
# REQUIRES: html5lib sqlglot
"""3.14 t-strings passed to a tag that declares a language: tag(t"...") is checked like html"..."."""
from string.templatelib import Template
from typing import Annotated

from tagstr_runtime import accepts_template
from tagstr_runtime.languages import HTML, SQL


def html(template: Annotated[Template, HTML]) -> str:
    return str(template)


def sql(template: Annotated[Template, SQL]) -> str:
    return str(template)


@accepts_template
def page(template: Annotated[Template, "html"]) -> str:
    return str(template)


def json(template: Annotated[Template, "json"]) -> str:
    return str(template)


name, uid, table = "n", 1, "users"

ok1 = html(t"<p>Hello {name}!<br><img src='{name}'></p>")
ok2 = sql(t"SELECT * FROM users WHERE id = {uid}")
bad1 = html(t"<div><span>{name}</div>")  # TAG101:32
bad2 = html(t"<input value={name}>")  # TAG110:28
bad3 = sql(t"SELECT * FROM {table} WHERE name = '{name}'")  # TAG202:28 TAG204:50
bad4 = page(t"<a href=\"javascript:go({name})\">x</a>")  # TAG115:39
bad5 = json(rt'{{"a": {uid}, "a": 2}}')  # TAG502:30
bad6 = html(t"""<ul>
  <li>{name}
  <li>{name}</i>
</ul>""")  # @-1 TAG101:13
bad7 = page"<p>{name}</span>"  # TAG101:22
