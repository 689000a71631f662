"""mypy follows the checker's stand-ins whatever the user's ``follow_imports``.

A tag-string module's tree imports ``tagstr_runtime._checker`` (``parse.checker_tree``),
whose types come from ``tagstr_runtime._types``; the hook on
``tagstr_runtime._checker.tag_call`` only fires when mypy analyses them.
``--follow-imports=skip`` would make them ``Any`` (no tag string checked), and
``error`` reports them with no line.  So the plugin gives these two private
modules options of their own, as a section would::

    [mypy-tagstr_runtime._checker]
    follow_imports = silent        # only when the module would get skip or error
    ignore_missing_imports = True  # a missing runtime gets the parse hook's message instead

The user's own imports (``from tagstr_runtime import html``) keep the user's
settings, and a build without tag strings never imports these modules.

The options go into mypy's per-module cache (what ``clone_for_module``
answers), not into ``per_module_options``: dmypy compares the public options
of each ``dmypy run`` with those the daemon started with (restarting when they
differ), and ``--warn-unused-configs`` lists the sections a build never used;
neither sees this cache.
"""

from __future__ import annotations

from typing import Any

from tagstr_runtime.frontend import CHECKER_MODULE, DECODED_TYPE, INTERPOLATION_TYPE

__all__ = ["MODULES", "add_options"]

#: the modules the checker tree's names and types live in
MODULES: tuple[str, ...] = tuple(
    dict.fromkeys([CHECKER_MODULE, *(name.rpartition(".")[0] for name in (DECODED_TYPE, INTERPOLATION_TYPE))])
)
_NOT_FOLLOWED = ("skip", "error")


def add_options(options: Any) -> bool:
    """Before mypy computes any module's options (the plugin's ``__init__``).  False when an
    option names an error code mypy does not know (yet): mypy validates the codes only once
    every plugin is loaded (a later one may register it), reports an unknown one and stops;
    the plugin then tries again before the first module's dependencies (``TagstrPlugin``)."""
    if options._per_module_cache is None:
        try:
            options.build_per_module_cache()
        except KeyError:  # a section names an unknown error code: mypy's own build meets it, as stock
            options._per_module_cache, options._glob_options, options._unused_configs = None, [], set()
            return False
    unused = options.get_unused_configs()  # clone_for_module below uses no section
    done = True
    for module in MODULES:
        try:
            own = options.clone_for_module(module)
            changes: dict[str, object] = {"ignore_missing_imports": True}
            if own.follow_imports in _NOT_FOLLOWED:
                changes["follow_imports"] = "silent"
            options._per_module_cache[module] = own.apply_changes(changes)
        except KeyError:  # an error code unknown here (mypy's own clone says it later, as stock)
            done = False
    options._unused_configs = unused
    return done
