"""The shipping tests' fixtures: the project's wheel, built once, and throwaway venvs.

The tests here install the built wheel for real (so that ``tagstr_autoload.pth``
runs at start-up, as in a user's environment) and drive real tools in those
venvs.  Everything expensive is made once per session: the wheel, each pip
version's wheel (from a Python's bundled ``ensurepip`` wheel where one has that
version, else fetched once with ``pip download``), and one venv per pip version.
"""

from __future__ import annotations

import glob
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from shipping_venvs import REPO, run, venv_python


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from this checkout (its build backend comes from the index)."""
    out = tmp_path_factory.mktemp("wheel")
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q",
               "-w", out, REPO)
    if done.returncode != 0 and "hatchling" in done.stdout + done.stderr:
        pytest.skip(f"cannot build the wheel here (no package index?): {done.stderr[-300:]}")
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("tagstr_toolkit-*.whl")
    return wheel


def _bundled(name: str, version: str) -> Path | None:
    """``name``'s wheel of that version bundled by some Python's ``ensurepip`` on this machine."""
    wheel = f"{name}-{version}-*.whl"
    patterns = [Path(sys.base_prefix) / "lib" / "python3*" / "ensurepip" / "_bundled" / wheel,
                Path(sys.base_prefix) / "Lib" / "ensurepip" / "_bundled" / wheel,
                Path.home() / ".pyenv" / "versions" / "*" / "lib" / "python3*" / "ensurepip" / "_bundled" / wheel]
    for pattern in patterns:
        for found in sorted(glob.glob(str(pattern))):
            return Path(found)
    return None


@pytest.fixture(scope="session")
def wheel_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """``wheel_of("pip", "24.2")``: a wheel of that release (``""``: the newest), found or fetched once."""
    cache: dict[tuple[str, str], Path] = {}
    folder = tmp_path_factory.mktemp("wheels")

    def get(name: str, version: str) -> Path:
        key = (name, version)
        if key not in cache:
            found = _bundled(name, version) if version else None
            if found is None:
                where = folder / f"{name}-{version or 'newest'}"
                spec = f"{name}=={version}" if version else name
                done = run(sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                           "--disable-pip-version-check", "-q", "-d", where, spec)
                if done.returncode != 0:
                    pytest.skip(f"cannot fetch {spec} (no package index?): {done.stderr[-300:]}")
                (found,) = where.glob("*.whl")
            cache[key] = found
        return cache[key]

    return get


@pytest.fixture(scope="session")
def venv_with(tmp_path_factory: pytest.TempPathFactory, wheel_of: Callable[[str, str], Path],
              built_wheel: Path) -> Callable[[str], Path]:
    """``venv_with("24.2")``: a venv of this Python with that pip and the project's wheel
    installed by it (made once per session and version)."""
    made: dict[str, Path] = {}

    def get(pip_version: str) -> Path:
        if pip_version not in made:
            venv = tmp_path_factory.mktemp(f"venv-pip-{pip_version or 'newest'}")
            done = run(sys.executable, "-m", "venv", "--without-pip", venv, timeout=120)
            assert done.returncode == 0, done.stderr
            pip = wheel_of("pip", pip_version)
            python = venv_python(venv)
            done = run(python, f"{pip}/pip", "install", "--no-index", "-q", pip)  # pip runs from its wheel
            assert done.returncode == 0, done.stdout + done.stderr
            done = run(python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", built_wheel)
            assert done.returncode == 0, done.stdout + done.stderr
            made[pip_version] = venv
        return made[pip_version]

    return get
