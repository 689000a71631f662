# OPTIONS: --max-line-length=120
"""Tags whose definitions declare their language, each in another way."""
from typing import Annotated

from tagstr_runtime import accepts_template, languages
from tagstr_runtime.templatelib import Template

from .parts import HtmlPart, Part, SqlPart


def html(*args: HtmlPart) -> str:
    return "".join(map(str, args))


def make_sql():
    def sql(*args: SqlPart) -> str:
        return " ".join(map(str, args))
    return sql


sql = make_sql()


class Page:
    tstring_language = "html"

    def __call__(self, *args: Part) -> str:
        return "".join(map(str, args))


page = Page()


@accepts_template
def style(template: Annotated[Template, languages.CSS]) -> str:
    return str(template)


def config(*args: Part) -> str:
    return "".join(map(str, args))


config.tstring_language = "json"


def plain(*args: Part) -> str:
    return "".join(map(str, args))
