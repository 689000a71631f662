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

pip 24.1-24.2 break in an environment with the start-up hook installed (issue
36, item 1, fixed on its own branch); the pip commands here run with
``TAGSTR_AUTOLOAD=0`` until that lands, which changes nothing else they do.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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
