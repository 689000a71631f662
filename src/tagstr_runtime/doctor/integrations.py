"""The optional integrations: coverage.py, pytest, IPython, pyright stubs, formatters.

Each is reported only as far as it matters here: an integration whose tool
is absent is a note (nothing to do unless you use it), a configuration that
names our coverage plugin without a coverage able to load it is an error.
"""

from __future__ import annotations

import os

from tagstr_runtime.doctor.configs import coverage_config, shown
from tagstr_runtime.doctor.install import install_command
from tagstr_runtime.doctor.probe import at_least, entry_point, version
from tagstr_runtime.doctor.report import Finding, Status

__all__ = ["COVERAGE_FLOOR", "coverage", "formatters", "ipython", "pyright", "pytest"]

#: the ``coverage`` extra: coverage>=7.6.2
COVERAGE_FLOOR = (7, 6, 2)
COVERAGE_PLUGIN = "tagstr_runtime.coverage_plugin"


def coverage(start: str) -> Finding:
    config = coverage_config(start)
    configured = config is not None and COVERAGE_PLUGIN in config.options.get("plugins", [])
    installed = version("coverage")
    where = shown(config.path) if config else ""
    if installed is None:
        if configured:
            return Finding("coverage", "error", f"{where} names {COVERAGE_PLUGIN}, but coverage is not installed "
                           "in this environment", install_command("coverage"))
        return Finding("coverage", "note", "not installed (optional: reports on modules with tag strings need "
                       f"plugins = {COVERAGE_PLUGIN})")
    if not at_least(installed, COVERAGE_FLOOR):
        status: Status = "error" if configured else "warning"
        return Finding("coverage", status, f"coverage {installed} is too old for {COVERAGE_PLUGIN} (>=7.6.2)",
                       install_command("coverage"))
    if configured:
        return Finding("coverage", "ok", f"coverage {installed}, plugins = {COVERAGE_PLUGIN} in {where}")
    line = f'plugins = ["{COVERAGE_PLUGIN}"]' if where.endswith(".toml") else f"plugins = {COVERAGE_PLUGIN}"
    if config is None:
        return Finding("coverage", "note", f"coverage {installed}: its reports fail on modules with tag strings "
                       "unless its configuration names the plugin", f"{line} under [run] in .coveragerc")
    return Finding("coverage", "warning", f"{where} does not name {COVERAGE_PLUGIN}: coverage reports fail on "
                   "modules with tag strings", f"add {line} to {config.section} in {where}")


def pytest() -> Finding:
    installed = version("pytest")
    if installed is None:
        return Finding("pytest", "note", "not installed")
    manual = "add -p tagstr_runtime._pytest_plugin to pytest's addopts"
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return Finding("pytest", "warning", "PYTEST_DISABLE_PLUGIN_AUTOLOAD is set: pytest does not load the tagstr "
                       "plugin, so test files with tag strings fail to import (unless -p names it)", manual)
    if entry_point("pytest11", "tagstr") is None:
        return Finding("pytest", "warning", f"pytest {installed} does not see the tagstr plugin (no installed "
                       "tagstr-toolkit here): test files with tag strings fail to import",
                       f"{install_command()} in pytest's environment, or {manual}")
    return Finding("pytest", "ok", f"pytest {installed} loads the tagstr plugin")


def ipython() -> Finding:
    installed = version("ipython")
    if installed is None:
        return Finding("ipython", "note", "not installed")
    profile = os.path.join(os.environ.get("IPYTHONDIR") or os.path.expanduser("~/.ipython"), "profile_default")
    for name in ("ipython_config.py", "ipython_config.json"):
        path = os.path.join(profile, name)
        try:
            with open(path, encoding="utf-8") as file:
                loads_us = "tagstr_runtime" in file.read()
        except OSError:
            continue
        if loads_us:
            return Finding("ipython", "ok", f"IPython {installed} loads tagstr_runtime at start-up ({path})")
    return Finding("ipython", "note", f"IPython {installed}: %load_ext tagstr_runtime turns tag strings on in a "
                   "session",
                   "for every session: c.InteractiveShellApp.extensions = ['tagstr_runtime'] in ipython_config.py")


def pyright(start: str) -> Finding | None:
    """A note only where pyright is in use: it cannot read tag strings, stubs stand in for them."""
    installed = version("pyright") or version("basedpyright")
    configured = os.path.isfile(os.path.join(start, "pyrightconfig.json")) or _pyproject_has(start, "[tool.pyright]")
    if not (installed or configured):
        return None
    return Finding("pyright", "note", "pyright and Pylance cannot read tag strings: they need stubs of the modules "
                   "that have them", "python -m tagstr_mypy.stubgen <your package folder> (stubs into typings/)")


def formatters() -> Finding | None:
    """black and ruff cannot parse tag strings; the runner may wrap them."""
    installed = [f"{name} {v}" for name in ("black", "ruff") if (v := version(name))]
    if not installed:
        return None
    import importlib.util

    # the runner's --format / --ruff-check wrappers, where this version has them
    if importlib.util.find_spec("tagstr_runtime.tools.format") is not None:
        fix = "python -m tagstr_runtime --format PATH (and --ruff-check PATH) instead of calling them directly"
    else:
        fix = "exclude the modules with tag strings from them (docs/troubleshooting.md)"
    return Finding("formatters", "note", f"{', '.join(installed)}: they cannot parse files with tag strings", fix)


def _pyproject_has(start: str, table: str) -> bool:
    try:
        with open(os.path.join(start, "pyproject.toml"), encoding="utf-8") as file:
            return any(line.strip() == table for line in file)
    except OSError:
        return False
