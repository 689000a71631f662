# OPTIONS: --max-line-length=120
# REQUIRES: html5lib sqlglot
"""3.14 t-strings passed to tags of the package's other modules, by a plain or a dotted name."""
import lang_pkg.tags as tagmod

from . import query, tags
from .tags import html as h


def view(name: str, table: str) -> list[str]:
    return [
        h(t"<p>{name}</span>"),  # TAG101:22
        query(t"SELECT * FROM {table}"),  # TAG202:31
        tags.html(t"<p title={name}>x</p>"),  # TAG110:30
        tagmod.sql(t"SELECT a FROM b WHERE c = '{name}'"),  # TAG204:49
        tags.plain(t"<p>{name}</span>"),  # declares no language
    ]
