# OPTIONS: --max-line-length=120
"""A package of tags declared in its modules (``lang_pkg/views.py`` uses them): re-exported here."""
from .tags import html, sql as query

__all__ = ["html", "query"]
