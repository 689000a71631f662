# OPTIONS: --max-line-length=120
# REQUIRES: html5lib sqlglot
"""Each way of declaring a tag's language: every tag below checks HTML or SQL."""
from typing import Annotated, TypeAlias

from tagstr_runtime import Decoded, Interpolation, accepts_template, languages
from tagstr_runtime.languages import HTML, SQL
from tagstr_runtime.templatelib import Template

Part = Decoded | Interpolation
HtmlPart = Annotated[Part, "html"]
SqlPart: TypeAlias = "Annotated[Part, SQL]"


def by_string(*args: Annotated[Part, "html"]) -> str: ...
def by_marker(*args: Annotated[Part, HTML]) -> str: ...
def by_module_marker(*args: Annotated[Part, languages.SQL]) -> str: ...
def by_alias(*args: HtmlPart) -> str: ...
def by_type_alias(*args: SqlPart) -> str: ...


@accepts_template
def by_template(template: Annotated[Template, HTML]) -> str: ...


class Page:
    tstring_language = "html"

    def __call__(self, *args: Part) -> str: ...


by_class_attribute = Page()


def by_attribute(*args: Part) -> str: ...


by_attribute.tstring_language = "sql"
renamed = by_string
not_declared = print

x = "v"
a1 = by_string"<p>{x}</span>"  # TAG101:22
a2 = by_marker"<p>{x}</span>"  # TAG101:22
a3 = by_module_marker"SELECT * FROM {x}"  # TAG202:37
a4 = by_alias"<p>{x}</span>"  # TAG101:21
a5 = by_type_alias"SELECT * FROM {x}"  # TAG202:34
a6 = by_template"<p>{x}</span>"  # TAG101:24
a7 = by_class_attribute"<p>{x}</span>"  # TAG101:31
a8 = by_attribute"SELECT * FROM {x}"  # TAG202:33
a9 = renamed"<p>{x}</span>"  # TAG101:20
a10 = not_declared"<p>{x}</span>"
