"""Markers that declare the language of a tag's text, for the embedded-language checks.

``Annotated[Template, HTML]`` or ``*args: Annotated[Decoded | Interpolation, SQL]``
tells the flake8 plugin (and t-linter, which reads the ``tstring_language``
attribute) to check the literal text of every tag string and t-string the tag
receives as HTML, SQL...  The plain strings ``"html"``, ``"sql"``... work as
well; see ``docs/languages.md``.
"""

from __future__ import annotations

from typing import ClassVar, NewType

__all__ = ["CSS", "HTML", "Identifier", "JSON", "JavaScript", "SQL", "TOML", "YAML"]

#: A name checked against the names a program allows (a table, a column), for an SQL
#: hole that stands for a name (``FROM {table:i}``): the mypy plugin accepts there
#: only this type, a class named ``Identifier`` (psycopg's ``sql.Identifier``) or a
#: string literal.  ``Identifier("users")`` is the string itself at run time.
Identifier = NewType("Identifier", str)


class HTML:
    tstring_language: ClassVar[str] = "html"


class SQL:
    tstring_language: ClassVar[str] = "sql"


class CSS:
    tstring_language: ClassVar[str] = "css"


class JavaScript:
    tstring_language: ClassVar[str] = "javascript"


class JSON:
    tstring_language: ClassVar[str] = "json"


class YAML:
    tstring_language: ClassVar[str] = "yaml"


class TOML:
    tstring_language: ClassVar[str] = "toml"
