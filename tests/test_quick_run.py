"""The quick run (README, "Tests"): one install command, and ``pytest --quick`` keeping the property tests.

``--quick`` (``tests/conftest.py``) must select every hypothesis test and every
``budget`` test, slow or not, under the ``quick`` profile, and leave out the other
slow tests; the ``dev`` group must install what tox's test environments install.
"""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: folders with property tests, the corpus, slow tests and subprocess tests
FOLDERS = ("tests/tagstr_runtime/parser", "tests/tagstr_runtime/corpus", "tests/tagstr_runtime/analysis",
           "tests/shipping/test_shipped_form.py", "tests/tagstr_flake8/test_closure_reports_twin.py")


def test_the_dev_group_is_what_tox_installs() -> None:
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    included = {entry["include-group"] for entry in groups["dev"] if isinstance(entry, dict)}
    assert all(isinstance(entry, dict) for entry in groups["dev"]), "dev only includes other groups"
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    assert included == set(tox["testenv"]["dependency_groups"].split())
    assert any(entry.startswith("pytest-xdist") for entry in groups["tests"]), "the quick run's -n 2"


def _collected(tmp_path: Path, *args: str) -> dict[str, set[str]]:
    """Each test pytest selects with ``args`` -> its markers (``collect_markers.py``)."""
    out = tmp_path / "markers.json"
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    path = os.pathsep.join([str(ROOT / "tests"), env.get("PYTHONPATH", "")])
    env.update(TAGSTR_MARKERS_OUT=str(out), PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "collect_markers", *args, *FOLDERS], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    found: dict[str, list[str]] = json.loads(out.read_text(encoding="utf-8"))
    return {test: set(marks) for test, marks in found.items()}


@pytest.mark.subprocess
def test_quick_keeps_the_property_tests_and_leaves_out_the_other_slow_ones(tmp_path: Path) -> None:
    everything = _collected(tmp_path)
    properties = {test for test, marks in everything.items() if marks & {"hypothesis", "budget"}}
    slow = {test for test, marks in everything.items() if "slow" in marks} - properties
    assert all("budget" in everything[test] for test in properties), "every hypothesis test is budget"
    assert any("test_properties.py" in test for test in properties)
    assert any("test_corpus.py" in test for test in properties)
    assert slow, "the check would pass vacuously"
    quick = _collected(tmp_path, "--quick", "-m", "not subprocess")  # with the user's own -m
    assert set(quick) == {test for test, marks in everything.items()
                          if test not in slow and "subprocess" not in marks}
    assert properties - {test for test in properties if "subprocess" in everything[test]} <= set(quick)


def test_the_quick_profile_cuts_the_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "tagstr_runtime" / "parser"))
    try:
        import strategies
    finally:
        sys.path.pop(0)
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "ci")
    assert strategies.examples(250) == 750
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "quick")
    assert strategies.examples(250) == 25 and strategies.examples(10) == 3
