"""A package re-exporting its tags (``from shop import html``)."""
from .tags import html, lazy_log as log  # noqa: F401
