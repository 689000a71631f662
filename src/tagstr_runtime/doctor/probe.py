"""What is installed, asked of distribution metadata: no probed tool is imported.

mypy, flake8, coverage and IPython take from a tenth of a second to seconds to
import, and importing one can fail in the very environment the doctor is
diagnosing.  Their metadata answers "installed? which version? which entry
points?" without running any of their code.
"""

from __future__ import annotations

import re
from importlib import metadata

__all__ = ["at_least", "distribution", "entry_point", "version", "version_tuple"]

DISTRIBUTION = "tagstr-toolkit"


def distribution(name: str) -> metadata.Distribution | None:
    try:
        return metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return None


def version(name: str) -> str | None:
    """The installed version of a distribution, as the first one on ``sys.path`` says."""
    found = distribution(name)
    return None if found is None else found.version


def version_tuple(text: str) -> tuple[int, ...]:
    """``"2.4.1rc1"`` -> ``(2, 4, 1)``: the release numbers, enough to compare with a floor."""
    match = re.match(r"\d+(?:\.\d+)*", text)
    return tuple(int(part) for part in match.group().split(".")) if match else ()


def at_least(text: str, floor: tuple[int, ...]) -> bool:
    return version_tuple(text) >= floor


def entry_point(group: str, name: str) -> str | None:
    """The value of the entry point ``name`` in ``group`` that tools would load, if any."""
    for point in metadata.entry_points(group=group):
        if point.name == name:
            return point.value
    return None
