"""Hypothesis profiles for every test directory (not only the parser's).

At the top level so that ``pytest tests/tagstr_runtime`` alone (whose example
tests use ``@given`` too) runs under the same profile as the whole suite; a
profile loaded by one directory's conftest would leave a run of another
directory with hypothesis's defaults (random, with a 200 ms deadline).

Select one with ``HYPOTHESIS_PROFILE``:

- ``dev`` (default): a few seconds per test, random seed, for the edit loop;
- ``ci``: deterministic (derandomised) and about 3x the examples;
- ``thorough``: about 25x the examples, for a long bug hunt;
- ``quick``: about a tenth of the examples, for the quick run (``--quick``).

The per-test example counts are scaled by ``tests/tagstr_runtime/parser/strategies.examples``.
hypothesis is in the ``tests`` dependency group; without it there is nothing to set up.

``pytest --quick`` is the quick run (README, "Tests"): the tests not marked
``slow``, plus a fast slice of every test marked ``budget`` (its work follows
the profile: every hypothesis test is, and the stdlib corpus), under the
``quick`` profile, so that it catches what the property tests of the full run
catch, on the common cases.  With ``-n 2`` (pytest-xdist) it costs about 210 s
of CPU time, about two minutes on two idle cores.

The test folders mirror the packages (``tagstr_runtime``, ``tagstr_mypy``,
``tagstr_flake8``), so none of them shadows a tool's name (``tests/`` is on
``sys.path`` for this file): ``import mypy`` finds mypy or nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

#: the sample project of tests/test_toolchain.py: its tests run inside a copy, by the tools
collect_ignore = ["sample_project"]

PYRIGHT_VERSION = "1.1.414"  # npm package; installed on first use into .cache/


@pytest.fixture(scope="session")
def pyright() -> list[str]:
    """The command of pyright (npm), installed on first use; the test skips without npm."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is needed to install pyright")
    root = Path(__file__).resolve().parents[1]
    cache = Path(os.environ.get("TAGSTR_PYRIGHT_CACHE", root / ".cache" / f"pyright-{PYRIGHT_VERSION}"))
    binary = cache / "node_modules" / ".bin" / "pyright"
    if not binary.exists():  # installed aside, then renamed: parallel tox envs may race here
        work = cache.with_name(f"{cache.name}.{os.getpid()}")
        work.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--no-package-lock", "--no-save", "--silent",
                        f"pyright@{PYRIGHT_VERSION}"], cwd=work, check=True, timeout=600)
        try:
            work.rename(cache)
        except OSError:  # another process was first
            shutil.rmtree(work, ignore_errors=True)
    return [str(binary)]


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
    # the tests' own budgets are cut by strategies.examples; this is for those without one
    settings.register_profile("quick", max_examples=10, **_COMMON)

    _profile = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    if _profile in ("dev", "ci", "thorough", "quick"):
        settings.load_profile(_profile)


#: what ``--quick`` selects (with the user's own ``-m``, if any)
QUICK = "not slow or budget"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick", action="store_true",
        help=f"the quick run: -m '{QUICK}' under HYPOTHESIS_PROFILE=quick (a fast slice of the property tests)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("quick"):
        return
    # before any test module is imported: the budgets are read when the tests are decorated
    os.environ["HYPOTHESIS_PROFILE"] = "quick"
    try:
        from hypothesis import settings as _settings
    except ImportError:
        pass
    else:
        _settings.load_profile("quick")
    wanted = config.option.markexpr
    config.option.markexpr = f"({QUICK}) and ({wanted})" if wanted else QUICK


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every hypothesis test is ``budget``: its examples follow the profile."""
    try:
        from hypothesis import is_hypothesis_test
    except ImportError:  # an older hypothesis has it in its internals only (or there is none)
        try:
            from hypothesis.internal.detection import is_hypothesis_test
        except ImportError:
            return
    for item in items:
        if isinstance(item, pytest.Function) and is_hypothesis_test(item.obj):
            item.add_marker(pytest.mark.budget)
