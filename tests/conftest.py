"""Hypothesis profiles for every test directory (not only the parser's).

At the top level so that ``pytest tests/tagstr_runtime`` alone (whose example
tests use ``@given`` too) runs under the same profile as the whole suite; a
profile loaded by one directory's conftest would leave a run of another
directory with hypothesis's defaults (random, with a 200 ms deadline).

Select one with ``HYPOTHESIS_PROFILE``:

- ``dev`` (default): a few seconds per test, random seed, for the edit loop;
- ``ci``: deterministic (derandomised) and about 3x the examples;
- ``thorough``: about 25x the examples, for a long bug hunt.

The per-test example counts are scaled by ``tests/tagstr_runtime/parser/strategies.examples``.
hypothesis is in the ``tests`` dependency group; without it there is nothing to set up.

The test folders mirror the packages (``tagstr_runtime``, ``tagstr_mypy``,
``tagstr_flake8``), so none of them shadows a tool's name (``tests/`` is on
``sys.path`` for this file): ``import mypy`` finds mypy or nothing.
"""

from __future__ import annotations

import os

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the tests that need it import it themselves (and fail or skip there)
    pass
else:
    _COMMON = dict(
        deadline=None,  # the generated programs vary a lot in size; hangs are checked explicitly
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )
    settings.register_profile("dev", **_COMMON)
    settings.register_profile("ci", derandomize=True, database=None, **_COMMON)
    settings.register_profile("thorough", **_COMMON)

    _profile = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    if _profile in ("dev", "ci", "thorough"):
        settings.load_profile(_profile)
