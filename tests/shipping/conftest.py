"""What the shipping tests share, made once per session: the sample library, its wheels, the venvs.

The sample library ``shiplib`` (src layout, ``py.typed``, a console script)
has tag strings in its ``__init__.py`` (which also holds ``__version__`` and
the docstring the metadata is read from), in functions, in an f-string and in
format specs.  ``wheels`` builds it with each backend the docs name, as a
user's CI would (``pip wheel``, in this environment: ``--no-build-isolation``,
tagstr-toolkit not being on an index), plus once without the build hook
(``raw``: what a project that forgot it ships).  ``consumer`` is a fresh venv
with only tagstr-toolkit and the library installed, and the tools a consumer
runs (installed from the package index, pinned below); ``installers`` the pip
versions and uv that install and uninstall.

``built_wheel``, ``wheel_of`` and ``venv_with`` (``test_pip_after_install``): the
project's wheel (the same one), any pip release's wheel (a Python's bundled
``ensurepip`` copy where one has it, else fetched once), and a venv per pip
version with the project installed by that pip.
"""

from __future__ import annotations

import glob
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shipping_venvs import run as run_in_user_env
from shipping_venvs import venv_python
from shipkit import (
    BACKENDS, CONSUMER_TOOLS, PIP_VERSIONS, REPO, build_wheel, consumers_wanted, pip_env, run, site_packages, venv,
    write_project,
)


@pytest.fixture(scope="session")
def toolkit_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling", reason="the shipping group (tox -e shipping) builds the wheels")
    return build_wheel(REPO, tmp_path_factory.mktemp("toolkit"))


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    for module in ("hatchling", "setuptools", "flit_core"):
        pytest.importorskip(module, reason="the shipping group (tox -e shipping) has the build backends")
    built = {}
    for backend in BACKENDS:
        folder = write_project(tmp_path_factory.mktemp(f"project-{backend}"), backend)
        built[backend] = build_wheel(folder, folder / "dist")
    return built


@pytest.fixture(scope="session")
def consumer(tmp_path_factory: pytest.TempPathFactory, toolkit_wheel: Path, wheels: dict[str, Path]) -> Path:
    """A venv with tagstr-toolkit, the hatchling-built library, and the consumer's tools."""
    consumers_wanted()
    python = venv(tmp_path_factory.mktemp("consumer") / "venv")
    run(python, "-m", "pip", "install", "-q", toolkit_wheel, wheels["hatchling"], *CONSUMER_TOOLS, env=pip_env())
    return python


@pytest.fixture(scope="session")
def pip_wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """pip itself, as wheels: ``python pip.whl/pip ...`` runs that pip in any environment."""
    folder = tmp_path_factory.mktemp("pips")
    found = {}
    for version in PIP_VERSIONS:
        target = folder / version
        spec = "pip" if version == "latest" else f"pip=={version}"
        run(sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", target, spec, env=pip_env())
        (found[version],) = target.glob("pip-*.whl")
    return found


@pytest.fixture(scope="session")
def uv() -> str:
    module = pytest.importorskip("uv", reason="uv is in the shipping group")
    return str(module.find_uv_bin())


@pytest.fixture(scope="session")
def plain_venv_session(tmp_path_factory: pytest.TempPathFactory, toolkit_wheel: Path) -> Path:
    python = venv(tmp_path_factory.mktemp("plain") / "venv")
    run(python, "-m", "pip", "install", "-q", "--no-deps", toolkit_wheel, env=pip_env())
    return python


@pytest.fixture
def plain_venv(plain_venv_session: Path) -> Iterator[Path]:
    """A venv with tagstr-toolkit only, where a test installs the library; removed after it."""
    yield plain_venv_session
    run(plain_venv_session, "-m", "pip", "uninstall", "-q", "-y", "shiplib", env=pip_env(), check=False)
    site = site_packages(plain_venv_session)
    for leftover in [site / "shiplib", *site.glob("shiplib-*.dist-info")]:
        shutil.rmtree(leftover, ignore_errors=True)


@pytest.fixture(scope="session")
def built_wheel(toolkit_wheel: Path) -> Path:
    """The project's wheel (``toolkit_wheel``), under the name ``test_pip_after_install`` uses."""
    return toolkit_wheel


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
                done = run_in_user_env(sys.executable, "-m", "pip", "download", "--no-deps",
                                       "--only-binary=:all:", "--disable-pip-version-check", "-q", "-d", where, spec)
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
            done = run_in_user_env(sys.executable, "-m", "venv", "--without-pip", venv, timeout=120)
            assert done.returncode == 0, done.stderr
            pip = wheel_of("pip", pip_version)
            python = venv_python(venv)
            done = run_in_user_env(python, f"{pip}/pip", "install", "--no-index", "-q", pip)  # pip runs from its wheel
            assert done.returncode == 0, done.stdout + done.stderr
            done = run_in_user_env(python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", built_wheel)
            assert done.returncode == 0, done.stdout + done.stderr
            made[pip_version] = venv
        return made[pip_version]

    return get
