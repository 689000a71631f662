"""Installed packages that ship tag-string source: is the import hook's cache there, or can it be?

A package built without the tagstr build hook (docs/shipping.md) installs its
modules with tag strings as source; pip and uv compile the others and skip
those without a word.  The import hook caches each on its first import, if
it can write beside it: in a read-only install (an image run as another
user) every start desugars them again.  Only distributions that depend on
``tagstr-toolkit`` are read; a module counts as one with tag strings when
stock ``compile`` rejects it (no desugarer runs here).
"""

from __future__ import annotations

import os
from importlib import metadata

from tagstr_runtime.doctor.report import Finding

__all__ = ["installed_packages"]

_CHECK = "installed-packages"


def installed_packages() -> list[Finding]:
    from tagstr_runtime._importhook import tag_cache_path
    from tagstr_runtime.doctor.interpreter import _cannot_write
    from tagstr_runtime.shipping.modules import RUNTIME_DISTRIBUTION, missing_runtime

    found: list[Finding] = []
    seen: set[str] = set()
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if not name or name in seen or name == RUNTIME_DISTRIBUTION or missing_runtime(dist.requires or []):
            continue
        seen.add(name)
        sources = [str(file.locate()) for file in dist.files or () if str(file).endswith(".py")]
        tagged = [path for path in sources if _rejected(path)]
        if not tagged:
            continue
        uncached = [path for path in tagged if not _cached(tag_cache_path(path))]
        label = f"{name} {dist.version}: {len(tagged)} module(s) with tag strings"
        if not uncached:
            found.append(Finding(_CHECK, "ok", f"{label}, all cached"))
            continue
        folders = sorted({os.path.dirname(cache) for cache in map(tag_cache_path, uncached) if cache})
        problems = [(folder, _cannot_write(folder)) for folder in folders]
        unwritable = [(folder, problem) for folder, problem in problems if problem]
        top = os.path.commonpath([os.path.dirname(path) for path in uncached])
        if unwritable:
            folder, problem = unwritable[0]
            found.append(Finding(
                _CHECK, "warning",
                f"{label}, {len(uncached)} without cache, and {folder} cannot be written ({problem}): "
                "desugared again at every start",
                f"python -m tagstr_runtime --compile {top} (as a user who can write there, e.g. when the image "
                f"is built); or install {name} built with the tagstr build hook (docs/shipping.md)",
            ))
        else:
            found.append(Finding(_CHECK, "note", f"{label}, {len(uncached)} not cached yet (cached at their "
                                 "first import)", f"python -m tagstr_runtime --compile {top}"))
    return found


def _rejected(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            compile(file.read(), path, "exec", dont_inherit=True)
    except (OSError, ValueError):
        return False
    except (SyntaxError, MemoryError):
        return True
    return False


def _cached(cache: str | None) -> bool:
    return cache is not None and os.path.exists(cache)
