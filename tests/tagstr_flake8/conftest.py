"""The flake8 plugin tests run the real flake8 in a subprocess, with the plugin installed.

The plugin must be installed (its ``flake8.extension`` entry point registered),
as in tox's envs or an editable install; the tests are skipped otherwise.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

# a submodule: tests/ is on sys.path (tests/conftest.py), where this folder would
# pass for a namespace package named "flake8"
pytest.importorskip("flake8.main")

collect_ignore_glob = ["examples/*", "thirdparty/*"]


def _plugin_registered() -> bool:
    return any(ep.name == "TAG" for ep in entry_points(group="flake8.extension"))


if not _plugin_registered():  # pragma: no cover
    pytest.skip("tagstr_flake8 is not installed (no flake8.extension entry point)", allow_module_level=True)
