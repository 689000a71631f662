"""The pip command that installs the project (with an extra) the way it is installed here.

The project is not on a package index yet: ``pip install tagstr-toolkit``
would fail.  So a fix repeats the source this installation came from, as
its ``direct_url.json`` (PEP 610) records it: the checkout (``-e`` if
editable), the VCS URL, or the wheel.  Without that record (the packages on
``PYTHONPATH``) the checkout the package is imported from, if it is one;
the index name only as the last resort.
"""

from __future__ import annotations

import json
import os
import shlex
from urllib.parse import unquote, urlparse

from tagstr_runtime.doctor.probe import DISTRIBUTION, distribution

__all__ = ["install_command"]


def _local_path(url: str) -> str | None:
    parsed = urlparse(url)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def _recorded() -> dict[str, object] | None:
    found = distribution(DISTRIBUTION)
    text = None if found is None else found.read_text("direct_url.json")
    try:
        record = json.loads(text) if text else None
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("url"), str) else None


def _checkout() -> str | None:
    """The source tree the running package comes from (``<checkout>/src/tagstr_runtime``)."""
    import tagstr_runtime

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(tagstr_runtime.__file__))))
    try:
        with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as file:
            is_ours = f'name = "{DISTRIBUTION}"' in file.read()
    except OSError:
        return None
    return root if is_ours else None


def install_command(extra: str | None = None) -> str:
    brackets = f"[{extra}]" if extra else ""
    named = f"{DISTRIBUTION}{brackets}"
    record = _recorded()
    if record is not None:
        url = str(record["url"])
        path = _local_path(url)
        dir_info, vcs_info = record.get("dir_info"), record.get("vcs_info")
        if isinstance(dir_info, dict) and path:
            editable = "-e " if dir_info.get("editable") else ""
            return f"pip install {editable}{shlex.quote(path + brackets)}"
        if isinstance(vcs_info, dict):
            revision = vcs_info.get("requested_revision")
            at = f"@{revision}" if isinstance(revision, str) else ""
            vcs = vcs_info.get("vcs", "git")
            return "pip install " + shlex.quote(f"{named} @ {vcs}+{url}{at}")
        if path:  # a wheel or an sdist on disk
            return f"pip install {shlex.quote(path + brackets)}"
        return "pip install " + shlex.quote(f"{named} @ {url}")
    checkout = _checkout()
    if checkout:
        return f"pip install {shlex.quote(checkout + brackets)}"
    return f"pip install {shlex.quote(named)}"
