"""PyInstaller's hook directory for ``tagstr_runtime`` (the ``pyinstaller40`` entry point ``hook-dirs``).

``hook-tagstr_runtime.py`` collects what shipped code and tags reach lazily
(``tagstr_runtime``'s public names are loaded on first use, which
PyInstaller's analysis cannot see), and stops the build, naming the fix,
when the analysis met a module with tag strings (PyInstaller reads modules
as stock Python, leaves such a module out, and the binary fails with
``ModuleNotFoundError``): freeze the shipped form (docs/shipping.md).
"""

from __future__ import annotations

import os

__all__ = ["get_hook_dirs", "unreadable_modules"]


def get_hook_dirs() -> list[str]:
    return [os.path.dirname(os.path.abspath(__file__))]


def unreadable_modules(graph: object) -> list[str]:
    """The files of the modules PyInstaller's analysis could not read because of tag strings."""
    found: list[str] = []
    nodes = getattr(graph, "iter_graph", None) or getattr(graph, "flatten", None)
    if nodes is None:
        return found
    from tagstr_runtime.shipping.modules import shipped_module

    for node in nodes():
        filename = getattr(node, "filename", None)
        if type(node).__name__ != "InvalidSourceModule" or not isinstance(filename, str):
            continue
        try:
            with open(filename, "rb") as file:
                if shipped_module(file.read(), filename) is not None:
                    found.append(filename)
        except Exception:  # noqa: BLE001 - a module we cannot ship is PyInstaller's to report
            continue
    return found
