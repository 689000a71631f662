"""mypy plugin for tag strings: ``plugins = tagstr_mypy`` in the mypy configuration.

Files with tag strings type-check at their original positions; every other
file keeps mypy's native parser (see ``docs/mypy.md`` for the design).
``plugin`` refuses a mypy outside the supported versions with one line (the
VS Code Mypy extension bundles its own mypy, older than the plugin needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tagstr_mypy.hooks.mypy_plugin import TagstrPlugin

__all__ = ["SUPPORTED", "TagstrPlugin", "plugin"]

#: the mypy versions the plugin supports, [first, last) (pyproject's ``mypy`` extra says the same)
SUPPORTED = ((2, 0), (2, 5))


def _release(version: str) -> tuple[int, ...]:
    numbers = []
    for piece in version.split("+")[0].split(".")[:3]:
        digits = "".join(c for c in piece if c.isdigit()) if not piece.isdigit() else piece
        if not digits:
            break
        numbers.append(int(digits))
        if not piece.isdigit():
            break
    return tuple(numbers)


def plugin(version: str) -> type[TagstrPlugin]:
    """mypy's entry point: the plugin class, or a ``SystemExit`` with one line for a mypy it does not support."""
    release = _release(version)
    first, last = SUPPORTED
    if not first <= release[:2] < last:
        low, high = ".".join(map(str, first)), ".".join(map(str, last))
        raise SystemExit(
            f"tagstr_mypy needs mypy >= {low}, < {high} (this is mypy {version}): "
            f"install 'tagstr-toolkit[mypy]', or point your editor's mypy at that environment "
            f"(VS Code: \"mypy-type-checker.importStrategy\": \"fromEnvironment\")"
        )
    from tagstr_mypy.hooks.mypy_plugin import TagstrPlugin

    return TagstrPlugin


def __getattr__(name: str) -> object:
    if name == "TagstrPlugin":
        from tagstr_mypy.hooks.mypy_plugin import TagstrPlugin

        return TagstrPlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
