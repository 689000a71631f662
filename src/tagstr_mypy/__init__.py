"""mypy plugin for tag strings: ``plugins = tagstr_mypy`` in the mypy configuration.

Files with tag strings type-check at their original positions; every other
file keeps mypy's native parser (see ``docs/mypy.md`` for the design).
"""

from __future__ import annotations

from tagstr_mypy.hooks.mypy_plugin import TagstrPlugin

__all__ = ["TagstrPlugin", "plugin"]


def plugin(version: str) -> type[TagstrPlugin]:
    """mypy's entry point."""
    return TagstrPlugin
