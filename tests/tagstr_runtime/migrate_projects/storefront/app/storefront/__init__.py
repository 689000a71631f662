"""The package re-exports its tags."""

from .lazylog import lazy
from .tags import html, shout

__all__ = ["html", "lazy", "shout"]
