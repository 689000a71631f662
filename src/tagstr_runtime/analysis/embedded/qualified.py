"""The qualified names of a tag along its resolution: as each module of the way imports it.

``--tag-languages`` names tags whose definition cannot be seen by the name a
module imports them by (``web.page``); the tag resolver's steps say which
imports the name went through.
"""

from __future__ import annotations

import ast
from typing import Iterator, Sequence

from tagstr_runtime.analysis.definitions import Step
from tagstr_runtime.analysis.imports import module_name
from tagstr_runtime.analysis.module import ModuleAnalysis

__all__ = ["absolute_module", "imported_names", "name_of_module"]


def name_of_module(module: ModuleAnalysis) -> str | None:
    """The dotted name of ``module`` (from its packages when the reader did not give one)."""
    if module.name is not None:
        return module.name
    return module_name(module.path) if module.path is not None else None


def absolute_module(module: ModuleAnalysis, node: ast.ImportFrom) -> str | None:
    """The module ``node`` (an import of ``module``) reads, as an absolute name."""
    if not node.level:
        return node.module
    own = name_of_module(module)
    if own is None:
        return None
    package = own.split(".")
    if module.path is None or not module.path.endswith("__init__.py"):
        package = package[:-1]
    if node.level - 1 > len(package):
        return None
    package = package[: len(package) - (node.level - 1)]
    return ".".join(filter(None, [*package, node.module or ""])) or None


def imported_names(name: str, steps: Sequence[Step]) -> Iterator[str]:
    """The qualified name of ``name`` at each import on its way (``steps`` of its resolution):
    ``from web import page as p`` makes ``p`` ``web.page``."""
    current: str | None = name
    last: str | None = None
    for step in steps:
        node = step.node
        if current is None:
            return
        if step.kind == "import" and isinstance(node, ast.ImportFrom):
            alias = next((a for a in node.names if (a.asname or a.name) == current), None)
            if alias is None:
                return
            base = absolute_module(step.module, node)
            current = alias.name
            last = f"{base}.{alias.name}" if base else None
        elif step.kind == "import" and isinstance(node, ast.Import):
            alias = next((a for a in node.names if (a.asname or a.name.partition(".")[0]) == current), None)
            if alias is None:
                return
            current = last = alias.name if alias.asname else alias.name.partition(".")[0]
        elif step.kind == "attribute" and isinstance(node, ast.Attribute):
            current = node.attr
            last = f"{last}.{node.attr}" if last else None
        elif step.kind == "alias" and isinstance(getattr(node, "value", None), ast.Name):
            current = node.value.id  # type: ignore[attr-defined]
            continue
        else:  # a new value (a call, a factory): no longer the imported name
            return
        if last:
            yield last
