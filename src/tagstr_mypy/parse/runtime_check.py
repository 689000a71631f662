"""Whether the environment mypy checks has the runtime the checker tree imports.

mypy computes where it looks for imports before a plugin exists, so the plugin
cannot lend it its own copy of ``tagstr_runtime``: with ``--no-site-packages``,
or a ``--python-executable`` whose environment lacks the package, the tree's
import of the checker's stand-ins cannot resolve (``parse.follow`` keeps mypy from
reporting that with no line).  The parse hook asks here, for the first file
with tag strings, and reports the message at its first tag string instead.

The answer is mypy's own module finder with the build's options, searching
what every build searches: the current folder, ``MYPYPATH`` and ``mypy_path``,
the site-packages of ``--python-executable``.  It misses only a runtime that
mypy would find as another command-line source's root folder.
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any

from tagstr_runtime.frontend import CHECKER_MODULE, strict

__all__ = ["missing_runtime"]


def missing_runtime(options: Any) -> str | None:
    """None when mypy will find the runtime; else the message that says how to fix it."""
    executable = options.python_executable
    # once per build (its options' lists live as long as it does): a long-lived
    # host (dmypy, an editor) sees a runtime installed since the last build
    key = (id(options.always_true), executable, options.no_site_packages, tuple(options.mypy_path),
           os.environ.get("MYPYPATH", ""), os.getcwd())
    found = _FOUND.get(key)
    if found is None:
        if len(_FOUND) > 64:
            _FOUND.clear()
        try:
            found = _found(options)
        except Exception:  # a bug of ours (or a mypy that changed) must not cost the checks
            if strict():
                raise
            found = True
        _FOUND[key] = found
    if found:
        return None
    if options.no_site_packages or executable is None:
        where = "mypy runs with --no-site-packages"
        fix = "drop --no-site-packages, or add the folder that holds tagstr_runtime to mypy_path"
    else:
        where = f"it is not installed for the Python mypy checks against ({executable})"
        fix = "install the tagstr-toolkit distribution there, or point --python-executable to a Python that has it"
    return f"Tag strings are checked against the tagstr_runtime package, and {where}: {fix}"


_FOUND: dict[tuple[object, ...], bool] = {}


def _found(options: Any) -> bool:
    from mypy.build import default_data_dir
    from mypy.modulefinder import FindModuleCache, compute_search_paths

    with contextlib.redirect_stderr(io.StringIO()):  # mypy already warned about its paths
        paths = compute_search_paths([], options, default_data_dir())
    return isinstance(FindModuleCache(paths, None, options).find_module(CHECKER_MODULE), str)
