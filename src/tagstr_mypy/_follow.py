"""mypy follows the checker's stand-ins whatever the user's ``follow_imports``.

A tag-string module's tree imports ``tagstr_runtime._checker`` (``_tree``),
whose types come from ``tagstr_runtime._types``; the hook on
``tagstr_runtime._checker.tag_call`` only fires when mypy analyses them.
``--follow-imports=skip`` would make them ``Any`` (no tag string checked), and
``error`` reports them with no line.  So the plugin gives these two private
modules a section of their own, as a user would write it::

    [mypy-tagstr_runtime._checker]
    follow_imports = silent        # only when some section says skip or error
    ignore_missing_imports = True  # a missing runtime gets the parse hook's message instead

The user's own imports (``from tagstr_runtime import html``) keep the user's
settings, and a build without tag strings never imports these modules.  The
sections must not show up under ``--warn-unused-configs`` in such a build:
``mark_used`` asks mypy for their options once per build, which is how mypy
learns that a section is used.
"""

from __future__ import annotations

from typing import Any

from tagstr_runtime.frontend import CHECKER_MODULE, DECODED_TYPE, INTERPOLATION_TYPE

__all__ = ["MODULES", "add_sections", "mark_used"]

#: the modules the checker tree's names and types live in
MODULES: tuple[str, ...] = tuple(
    dict.fromkeys([CHECKER_MODULE, *(name.rpartition(".")[0] for name in (DECODED_TYPE, INTERPOLATION_TYPE))])
)
_NOT_FOLLOWED = ("skip", "error")


def add_sections(options: Any) -> None:
    """Before mypy computes any module's options (the plugin's ``__init__``)."""
    sections = options.per_module_options
    not_followed = options.follow_imports in _NOT_FOLLOWED or any(
        section.get("follow_imports") in _NOT_FOLLOWED for section in sections.values()
    )
    for module in MODULES:
        section = sections.setdefault(module, {})
        section["ignore_missing_imports"] = True
        if not_followed:
            section["follow_imports"] = "silent"


def mark_used(options: Any) -> None:
    """Once mypy computes module options (any hook after the build started)."""
    for module in MODULES:
        options.clone_for_module(module)
