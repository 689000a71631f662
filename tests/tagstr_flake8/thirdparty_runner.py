"""flake8 with a chosen set of installed plugins, for the third-party plugin tests.

    python thirdparty_runner.py [--keep PKG,PKG] [--add CODE=module:Class] -- FLAKE8 ARGS

flake8 runs every plugin installed; to see one third-party plugin at a time,
or flake8 without tagstr_flake8 (the stock baseline), its plugin finder is
filtered: flake8's own checkers (pyflakes, pycodestyle) are always kept, other
installed plugins only if their distribution is in ``--keep``.  ``--add``
registers a plugin of this folder (``FailsWhenBuilt``, ``FailsWhileRunning``)
as the distribution ``failing-plugin``.  Forked ``--jobs`` workers inherit the
filter.
"""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint
from typing import Any, Iterator

OWN = frozenset(["flake8", "pyflakes", "pycodestyle"])
MARKER = "explode"  # a plugin below fails on a file holding this word


class FailsWhenBuilt:
    """Raises in ``__init__`` on a file with the marker (flake8 wraps it: PluginExecutionFailed)."""

    name = "fails-when-built"
    version = "1"

    def __init__(self, tree: Any, lines: list[str]) -> None:
        if any(MARKER in line for line in lines):
            raise ValueError(f"cannot read a file saying {MARKER!r}")
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type[Any]]]:
        yield 1, 0, "XPA001 built and ran", type(self)


class FailsWhileRunning:
    """Reports once, then raises a SyntaxError at the marker's line from ``run()``."""

    name = "fails-while-running"
    version = "1"

    def __init__(self, tree: Any, lines: list[str]) -> None:
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type[Any]]]:
        yield 1, 0, "XPB001 reported before failing", type(self)
        for row, line in enumerate(self.lines, 1):
            if MARKER in line:
                raise SyntaxError("cannot parse this", ("<plugin>", row, 1, line, row, 2))


def main(argv: list[str]) -> int:
    split = argv.index("--")
    own, flake8_args = argv[:split], argv[split + 1 :]
    keep: set[str] = set(OWN)
    added: list[EntryPoint] = []
    for option in own:
        name, _, value = option.partition("=")
        if name == "--keep":
            keep.update(filter(None, value.split(",")))
        elif name == "--add":
            code, _, target = value.partition("=")
            added.append(EntryPoint(name=code, value=target, group="flake8.extension"))
        else:
            raise SystemExit(f"unknown option {option}")

    from flake8.main.cli import main as flake8_main
    from flake8.plugins import finder

    found = finder._find_importlib_plugins

    def filtered() -> Iterator[Any]:
        for plugin in found():
            if plugin.package in keep:
                yield plugin
        for entry_point in added:
            yield finder.Plugin("failing-plugin", "1", entry_point)

    finder._find_importlib_plugins = filtered
    return int(flake8_main(flake8_args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
