"""A pytest plugin for tests/test_quick_run.py: writes each collected test's markers to $TAGSTR_MARKERS_OUT."""

from __future__ import annotations

import json
import os

import pytest


def pytest_collection_finish(session: pytest.Session) -> None:
    found = {item.nodeid: sorted({mark.name for mark in item.iter_markers()}) for item in session.items}
    with open(os.environ["TAGSTR_MARKERS_OUT"], "w", encoding="utf-8") as out:
        json.dump(found, out)
