"""Hypothesis profiles for the parser's property tests.

Select one with ``HYPOTHESIS_PROFILE``:

- ``dev`` (default): a few seconds per test, random seed, for the edit loop;
- ``ci``: deterministic (derandomised) and about 3x the examples;
- ``thorough``: about 25x the examples, for a long bug hunt.

The per-test example counts are scaled by ``strategies.examples``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
