"""The configuration each tool would read from here, found as the tool itself finds it.

mypy: ``mypy.ini``, ``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``,
``setup.cfg`` with ``[mypy]``, in the current folder and then each parent up
to the repository root (a folder with ``.git`` or ``.hg``), then the user's
files (mypy's ``_find_config_file``).  flake8: ``setup.cfg``, ``tox.ini``,
``.flake8`` with a ``[flake8]`` section, from here up to the home folder
(flake8's ``_find_config_file``).  coverage: ``$COVERAGE_RCFILE``, else
``.coveragerc``, then ``setup.cfg`` / ``tox.ini`` with ``[coverage:run]``,
``pyproject.toml`` with ``[tool.coverage.run]``, in the current folder only.
A ``--config-file`` given on a tool's command line is beyond what can be seen.
"""

from __future__ import annotations

import configparser
import os
import re
from typing import NamedTuple

__all__ = ["Config", "coverage_config", "flake8_config", "mypy_config", "shown"]


class Config(NamedTuple):
    path: str
    section: str  # as the user writes it: "[mypy]", "[tool.mypy]", "[flake8]"...
    options: dict[str, list[str]]  # list-valued options, split as the tool splits them
    problem: str | None = None  # the file could not be read as the tool reads it


def shown(path: str) -> str:
    """A path as the message shows it: relative when under the current folder."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else os.path.join(".", relative)


def _split(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(item).strip() for item in value if str(item).strip()]
    return [item.strip() for item in re.split(r"[,\s]+", str(value)) if item.strip()]


def _ini(path: str, section: str, keys: tuple[str, ...]) -> Config | None:
    """The list options ``keys`` of ``[section]``; ``None`` if the file lacks the section."""
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as exc:
        return Config(path, f"[{section}]", {}, str(exc).splitlines()[0])
    if not parser.has_section(section):
        return None
    options = {key.replace("_", "-"): _split(value) for key, value in parser.items(section)}
    return Config(path, f"[{section}]", {key: options[key] for key in keys if key in options})


def _toml(path: str, table: tuple[str, ...], keys: tuple[str, ...]) -> Config | None:
    name = "[" + ".".join(table) + "]"
    try:
        import tomllib
    except ImportError:  # Python 3.10, which the doctor still runs on to say it is not supported
        return Config(path, name, {}, "this Python has no tomllib")
    try:
        with open(path, "rb") as file:
            data: object = tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return Config(path, name, {}, str(exc))
    for key in table:
        data = data.get(key) if isinstance(data, dict) else None
    if not isinstance(data, dict):
        return None
    return Config(path, name, {key: _split(data[key]) for key in keys if key in data})


def mypy_config(start: str) -> Config | None:
    folder = os.path.abspath(start)
    while True:
        for name in ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"):
            found = _mypy_file(os.path.join(folder, name))
            if found:
                return found
        parent = os.path.dirname(folder)
        if parent == folder or any(os.path.exists(os.path.join(folder, vcs)) for vcs in (".git", ".hg")):
            break
        folder = parent
    user = ["~/.config/mypy/config", "~/.mypy.ini"]
    if os.environ.get("XDG_CONFIG_HOME"):
        user.insert(0, os.path.join(os.environ["XDG_CONFIG_HOME"], "mypy/config"))
    for path in user:
        found = _mypy_file(os.path.expanduser(path))
        if found:
            return found
    return None


def _mypy_file(path: str) -> Config | None:
    if not os.path.isfile(path):
        return None
    if path.endswith(".toml"):
        found = _toml(path, ("tool", "mypy"), ("plugins",))
    else:
        found = _ini(path, "mypy", ("plugins",))
        if found is None and os.path.basename(path) != "setup.cfg":
            # mypy reads its own file anyway, and warns "No [mypy] section in config file"
            return Config(path, "[mypy]", {}, "it has no [mypy] section")
    if found and found.problem:
        return None  # mypy prints the parse error and looks further
    return found


def flake8_config(start: str) -> Config | None:
    keys = ("select", "extend-select", "ignore", "extend-ignore")
    home = os.path.expanduser("~")
    folder = os.path.abspath(start)
    while True:
        for name in ("setup.cfg", "tox.ini", ".flake8"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                found = _ini(path, "flake8", keys)
                if found and not found.problem:
                    return found
        parent = os.path.dirname(folder)
        if parent == folder or parent == home:
            return None
        folder = parent


def coverage_config(start: str) -> Config | None:
    specified = os.environ.get("COVERAGE_RCFILE")
    tries = [(specified, True)] if specified else [
        (".coveragerc", True), ("setup.cfg", False), ("tox.ini", False), ("pyproject.toml", False)
    ]
    for name, own_file in tries:
        path = os.path.join(os.path.abspath(start), name)
        if not os.path.isfile(path):
            continue
        if path.endswith(".toml"):
            found = _toml(path, ("tool", "coverage", "run"), ("plugins",))
            if found is None and _toml(path, ("tool", "coverage"), ()):
                found = Config(path, "[tool.coverage.run]", {})
        else:
            # coverage's own file may spell its sections [run] or [coverage:run]
            sections = ("run", "coverage:run") if own_file else ("coverage:run",)
            found = next(filter(None, (_ini(path, s, ("plugins",)) for s in sections)), None)
            if found is None and (own_file or _has_section(path, "coverage:")):
                found = Config(path, f"[{sections[0]}]", {})
        if found:
            return found
    return None


def _has_section(path: str, prefix: str) -> bool:
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return False
    return any(section.startswith(prefix) for section in parser.sections())
