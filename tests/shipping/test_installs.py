"""Installing and uninstalling with pip (several versions, 24.2 among them) and uv.

- A wheel built with the hook installs as plain Python: pip compiles every
  module, and a read-only install starts without desugaring or warning.
- A wheel built without it (``raw``) installs tag-string source: the import
  hook caches each module at its first import and records the cache file in
  the distribution's ``RECORD``; uninstalling then leaves nothing, and the
  package no longer imports (it used to stay as an empty namespace package).
- Read-only, that wheel warns once per process, ``doctor`` names it with the
  fix, and after ``--compile`` neither says anything.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from shipkit import clean_env, consumers_wanted, pip_env, run, site_packages

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

IMPORT = "import shiplib.views, shiplib.cli; print(shiplib.views.page('x'))"


def install(installer: str, python: Path, wheel: Path, pip_wheels: dict[str, Path], uv: str | None) -> None:
    if installer == "uv":
        assert uv is not None
        run(uv, "pip", "install", "-q", "--no-deps", "--python", python, wheel, env=pip_env())
    else:
        run(python, pip_wheels[installer] / "pip", "install", "-q", "--no-deps", wheel, env=pip_env())


def uninstall(installer: str, python: Path, pip_wheels: dict[str, Path], uv: str | None) -> None:
    if installer == "uv":
        assert uv is not None
        run(uv, "pip", "uninstall", "-q", "--python", python, "shiplib", env=pip_env())
    else:
        run(python, pip_wheels[installer] / "pip", "uninstall", "-q", "-y", "shiplib", env=pip_env())


@pytest.fixture(params=["23.2.1", "24.2", "latest", "uv"])
def installer(request: pytest.FixtureRequest, pip_wheels: dict[str, Path]) -> str:
    if request.param != "24.2":  # the installers do not depend on the Python: all of them once per CI run
        consumers_wanted()
    if request.param == "uv":
        request.getfixturevalue("uv")
    return str(request.param)


def test_uninstall_leaves_nothing_importable(
    installer: str, plain_venv: Path, wheels: dict[str, Path], pip_wheels: dict[str, Path],
    request: pytest.FixtureRequest,
) -> None:
    uv = request.getfixturevalue("uv") if installer == "uv" else None
    install(installer, plain_venv, wheels["raw"], pip_wheels, uv)
    assert "&#x27;x&#x27;" in run(plain_venv, "-c", IMPORT).stdout  # caches written
    site = site_packages(plain_venv)
    caches = sorted(p.name for p in (site / "shiplib" / "__pycache__").glob("*.tagstr-*.pyc"))
    assert [name.split(".")[0] for name in caches] == ["__init__", "views"]
    record = next(site.glob("shiplib-*.dist-info")) / "RECORD"
    assert all(f"shiplib/__pycache__/{name},," in record.read_text() for name in caches)
    uninstall(installer, plain_venv, pip_wheels, uv)
    assert not (site / "shiplib").exists()
    done = run(plain_venv, "-c", "import shiplib", check=False)
    assert "ModuleNotFoundError: No module named 'shiplib'" in done.stderr


def _as_other_user() -> list[str]:
    """Run without the right to write: root writes anywhere, so as an unprivileged user namespace."""
    if os.geteuid() != 0:
        return []
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "--user", "true"], capture_output=True).returncode != 0:
        pytest.skip("root can write a read-only folder, and unshare --user is not available")
    return [unshare, "--user"]


@pytest.fixture
def read_only(plain_venv: Path) -> Iterator[Path]:
    folder = site_packages(plain_venv) / "shiplib"
    yield folder
    for path in [folder, *folder.rglob("*")] if folder.exists() else []:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


def _freeze(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def test_a_read_only_source_install_says_so(
    plain_venv: Path, wheels: dict[str, Path], pip_wheels: dict[str, Path], read_only: Path
) -> None:
    prefix = _as_other_user()
    install("24.2", plain_venv, wheels["raw"], pip_wheels, None)
    _freeze(read_only)
    done = run(*prefix, plain_venv, "-c", IMPORT)
    assert done.stderr.count("CacheWarning") == 1, done.stderr
    assert f"modules with tag strings under {read_only} are desugared at every start" in done.stderr
    assert f"python -m tagstr_runtime --compile {read_only}" in done.stderr
    doctor = run(*prefix, plain_venv, "-m", "tagstr_runtime", "doctor", check=False).stdout
    assert "warning  installed-packages  shiplib 1.2.0: 2 module(s) with tag strings, 2 without cache" in doctor
    # the fix, as the installing user; then read-only starts are quiet (and use the cache)
    read_only.chmod(read_only.stat().st_mode | stat.S_IWUSR)
    (read_only / "__pycache__").chmod(0o755)
    run(plain_venv, "-m", "tagstr_runtime", "--compile", read_only)
    _freeze(read_only)
    done = run(*prefix, plain_venv, "-c", IMPORT)
    assert "CacheWarning" not in done.stderr
    doctor = run(*prefix, plain_venv, "-m", "tagstr_runtime", "doctor", check=False).stdout
    assert "ok       installed-packages  shiplib 1.2.0: 2 module(s) with tag strings, all cached" in doctor


def test_a_read_only_shipped_install_is_plain(
    plain_venv: Path, wheels: dict[str, Path], pip_wheels: dict[str, Path], read_only: Path
) -> None:
    prefix = _as_other_user()
    install("24.2", plain_venv, wheels["hatchling"], pip_wheels, None)  # pip compiles every module
    _freeze(read_only)
    done = run(*prefix, plain_venv, "-X", "importtime", "-c", IMPORT)
    assert "CacheWarning" not in done.stderr
    assert "tagstr_runtime.desugarer" not in done.stderr  # nothing desugared
    assert "installed-packages" not in run(*prefix, plain_venv, "-m", "tagstr_runtime", "doctor", check=False).stdout
    # and without the start-up hook at all
    assert "&#x27;x&#x27;" in run(plain_venv, "-c", IMPORT, env=clean_env(TAGSTR_AUTOLOAD="0")).stdout
