"""The mypy plugin's tests run the real mypy (in subprocesses): without mypy installed
(an env with only the ``tests`` dependency group, Pyodide) they are skipped, not failed.

A session fixture rather than a module-level ``importorskip``: pytest cannot
skip a conftest named on its command line (``pytest tests/tagstr_mypy``), and a
session fixture runs before the module fixtures that start mypy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _needs_mypy() -> Iterator[None]:
    # a submodule: tests/ is on sys.path (tests/conftest.py), where this folder
    # would pass for a namespace package named "mypy"
    pytest.importorskip("mypy.api")
    yield
