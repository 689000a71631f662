"""Tags that declare their language (docs/languages.md), used by languages.py from another module."""
from __future__ import annotations

from typing import Annotated, Callable

from tagstr_runtime import Decoded, Interpolation, template_tag
from tagstr_runtime.languages import HTML
from tagstr_runtime.templatelib import Template

Part = Decoded | Interpolation[object]
SqlPart = Annotated[Part, "sql"]


def sql(*args: SqlPart) -> str:
    return ""


def html(*args: Annotated[Part, HTML]) -> str:
    return ""


def make_query() -> Callable[..., str]:
    def query(*args: Annotated[Part, "sql"]) -> str:
        return ""
    return query


query = make_query()


@template_tag
def page(template: Annotated[Template, "html"]) -> str:
    return ""


def plain(*args: Part) -> str:
    return ""
