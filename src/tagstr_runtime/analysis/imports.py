"""Where an imported module's source is, read without running it, each module once.

Python finds a module on ``sys.path``; a checker has no ``sys.path`` of the
checked tree, so it looks where the importing file says: a relative import
next to the importing file, an absolute one under the given roots and under
the folder holding the importing file's top package (what ``sys.path`` holds
when the tree runs from there).  Only source files of the tree are read; an
installed package, a compiled module or a namespace package is not found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from tagstr_runtime.syntax.source import decode_source
from tagstr_runtime.analysis.module import ModuleAnalysis

__all__ = ["ModuleFinder", "module_name"]


def _package_top(folder: Path) -> tuple[Path, list[str]]:
    """The folder above ``folder``'s outermost package, and the package names down to ``folder``."""
    names: list[str] = []
    while (folder / "__init__.py").is_file():
        names.append(folder.name)
        folder = folder.parent
    return folder, names[::-1]


def module_name(path: str | Path, roots: Sequence[str | Path] = ()) -> str:
    """The dotted name a file is imported by, from its packages (``__init__.py`` files); a
    module in no package, under one of ``roots`` (where ``sys.path`` would start), is named
    from there through its folders, namespace packages (``shop/views.py`` given ``.``:
    ``shop.views``).  A package's modules keep the package's names (``src/pkg/mod.py``:
    ``pkg.mod``, as ``sys.path`` holding ``src`` imports it)."""
    file = Path(path).resolve()
    top, packages = _package_top(file.parent)
    under = [Path(root).resolve() for root in roots]
    inside = [root for root in under if root == top or root in top.parents]
    if inside and not packages:
        root = max(inside, key=lambda r: len(r.parts))  # the closest root
        packages = [*top.relative_to(root).parts, *packages]
    return ".".join(packages if file.stem == "__init__" else [*packages, file.stem])


def _source_file(base: Path, parts: Sequence[str]) -> Path | None:
    target = base.joinpath(*parts)
    if parts:
        module = target.parent / f"{target.name}.py"
        if module.is_file():
            return module
    package = target / "__init__.py"
    return package if package.is_file() else None


class ModuleFinder:
    """Finds and reads the modules of one tree; ``roots``: folders absolute imports start from."""

    def __init__(self, roots: Sequence[str | Path] = ()) -> None:
        self.roots = [Path(root).resolve() for root in roots]
        self._read: dict[Path, ModuleAnalysis | None] = {}

    def find(self, importer: ModuleAnalysis, module: str | None, level: int) -> Path | None:
        """The source file of ``module`` (``from .. import``: None) imported with ``level`` dots
        by ``importer``, or None."""
        parts = module.split(".") if module else []
        if level:
            if importer.path is None:
                return None
            base = Path(importer.path).resolve().parent
            for _ in range(level - 1):
                base = base.parent
            return _source_file(base, parts)
        roots = list(self.roots)
        if importer.path is not None:
            top, _ = _package_top(Path(importer.path).resolve().parent)
            roots.append(top)
        for root in roots:
            found = _source_file(root, parts)
            if found is not None:
                return found
        return None

    def forget(self, path: str | Path) -> None:
        """Drop what was read of the module at ``path`` (read again if asked again): a caller
        about to read it otherwise (the migration, each file of the tree) does not keep two
        analyses of one module, a large one's tree twice."""
        self._read.pop(Path(path).resolve(), None)

    def read(self, path: Path) -> ModuleAnalysis | None:
        """The analysis of the module at ``path``, or None where it cannot be read or parsed."""
        path = path.resolve()
        if path in self._read:
            return self._read[path]
        self._read[path] = None  # an import cycle reads nothing more
        try:
            text = decode_source(path.read_bytes())
            found: ModuleAnalysis | None = ModuleAnalysis.read(
                text, str(path), path=str(path), name=module_name(path, self.roots)
            )
        except (OSError, SyntaxError, ValueError, MemoryError, RecursionError):  # undecodable: ValueError
            found = None
        self._read[path] = found
        return found
