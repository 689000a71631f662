"""coverage.py plugin: tag-string modules are reported like any other module.

Enable it as coverage plugins are enabled::

    # .coveragerc                          # pyproject.toml
    [run]                                  [tool.coverage.run]
    plugins = tagstr_runtime.coverage_plugin   plugins = ["tagstr_runtime.coverage_plugin"]

Measuring needs nothing: the import hook compiles a tag-string module with
every line at its place, so coverage's tracer (any core, ``sysmon``
included) records the right lines.  Reporting is what fails without the
plugin: coverage re-reads each file with its own parser, which rejects tag
strings.  The work is in ``integrations.coverage_report``; this module only defines the entry
point coverage looks for, so that the runtime never imports coverage.
"""

from __future__ import annotations

from typing import Any

__all__ = ["coverage_init"]


def coverage_init(reg: Any, options: dict[str, Any] | None = None) -> None:
    """Called by coverage for each ``Coverage`` whose configuration names this plugin."""
    from tagstr_runtime.integrations import coverage_report as _coverage

    _coverage.register(reg, options or {})
