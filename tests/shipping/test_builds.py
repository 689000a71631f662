"""The build hooks, driven through the real backends: what the wheel, the sdist and the metadata hold.

For hatchling (its ``tagstr`` build hook), setuptools (the ``build_py``
command) and flit (through the wrapping backend): every module with tag
strings is in the wheel in its shipped form, with its line count, and every
other file byte for byte as the backend wrote it; the metadata read from the
tag-string ``__init__.py`` (the version, flit's summary) is right; the sdist
keeps the source; an editable install is not shipped; a build that cannot work
stops, naming the file and the fix.
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from shipkit import BACKENDS, LIBRARY, clean_env, run, write_project

pytestmark = pytest.mark.subprocess

SHIPPED = ("shiplib/__init__.py", "shiplib/views.py")


def _files(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


@pytest.mark.parametrize("backend", ["hatchling", "setuptools", "flit"])
def test_wheels_ship_plain_python(wheels: dict[str, Path], backend: str) -> None:
    files = _files(wheels[backend])
    raw = _files(wheels["raw"])
    for name in SHIPPED:
        text = files[name].decode("utf-8")
        compile(text, name, "exec", dont_inherit=True)  # stock Python reads it
        assert "from tagstr_runtime._rt import " in text
        assert text.count("\n") == raw[name].decode("utf-8").count("\n")
    assert files["shiplib/tags.py"] == raw["shiplib/tags.py"]  # no tag strings: untouched
    assert "shiplib/py.typed" in files
    metadata = next(data for name, data in files.items() if name.endswith(".dist-info/METADATA")).decode()
    assert "\nVersion: 1.2.0\n" in metadata and "\nRequires-Dist: tagstr-toolkit\n" in metadata
    if backend == "flit":  # the summary comes from the docstring of the tag-string __init__.py
        assert "\nSummary: Ship library: tag strings shipped as plain Python.\n" in metadata


def test_the_raw_wheel_keeps_tag_strings(wheels: dict[str, Path]) -> None:
    with pytest.raises(SyntaxError):
        compile(_files(wheels["raw"])["shiplib/views.py"], "views.py", "exec")


def test_the_wrapped_wheel_record_is_right(wheels: dict[str, Path]) -> None:
    import base64
    import csv
    import hashlib
    import io

    files = _files(wheels["flit"])
    record = next(data for name, data in files.items() if name.endswith(".dist-info/RECORD")).decode()
    for path, digest, size in csv.reader(io.StringIO(record)):
        if digest:
            data = files[path]
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, size) == (f"sha256={expected}", str(len(data))), path


@pytest.mark.parametrize("backend", ["hatchling", "setuptools", "flit"])
def test_sdists_keep_the_source(tmp_path: Path, wheels: dict[str, Path], backend: str) -> None:
    project = write_project(tmp_path / "p", backend)
    backend_module = BACKENDS[backend][1]
    done = run(sys.executable, "-c", "import importlib, sys; print(importlib.import_module(sys.argv[1])"
               ".build_sdist(sys.argv[2]))", backend_module, tmp_path / "sdist", cwd=project,
               env=clean_env())
    with tarfile.open(tmp_path / "sdist" / done.stdout.strip().splitlines()[-1]) as sdist:
        views = next(m for m in sdist.getmembers() if m.name.endswith("shiplib/views.py"))
        text = sdist.extractfile(views).read().decode()  # type: ignore[union-attr]
    assert 'html"<p>{user!r:>12}</p>"' in text


def test_editable_wheels_keep_the_source(tmp_path: Path, wheels: dict[str, Path]) -> None:
    project = write_project(tmp_path / "p", "hatchling")
    with (project / "pyproject.toml").open("a") as file:  # a .pth naming src/ (no `editables` needed)
        file.write('\n[tool.hatch.build]\ndev-mode-dirs = ["src"]\n')
    run(sys.executable, "-c", "import hatchling.build as b, sys; b.build_editable(sys.argv[1])",
        tmp_path / "out", cwd=project, env=clean_env())
    (wheel,) = (tmp_path / "out").glob("*.whl")
    assert not any(name.startswith("shiplib/") for name in _files(wheel))  # a .pth to the source instead


@pytest.mark.parametrize("backend", ["hatchling", "setuptools", "flit"])
def test_a_malformed_tag_string_stops_the_build(tmp_path: Path, wheels: dict[str, Path], backend: str) -> None:
    files = {**LIBRARY, "src/shiplib/broken.py": 'x = 1\nv = html"{x!z}"\n'}
    project = write_project(tmp_path / "p", backend, files)
    if backend == "flit":
        (project / "src" / "shiplib").rename(project / "shiplib")
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", "dist", ".",
               cwd=project, check=False)
    assert done.returncode != 0
    assert "broken.py:2:13: tag string: invalid conversion character 'z'" in done.stdout + done.stderr


@pytest.mark.parametrize("backend", ["hatchling", "setuptools", "flit"])
def test_a_missing_runtime_dependency_stops_the_build(tmp_path: Path, wheels: dict[str, Path], backend: str) -> None:
    project = write_project(tmp_path / "p", backend)
    if backend == "flit":
        (project / "src" / "shiplib").rename(project / "shiplib")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('dependencies = ["tagstr-toolkit"]', "dependencies = []"))
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", "dist", ".",
               cwd=project, check=False)
    assert done.returncode != 0
    assert 'the shipped modules import tagstr_runtime at run time: add "tagstr-toolkit>=' in done.stdout + done.stderr


def test_flit_alone_cannot_read_a_tag_string_init(tmp_path: Path, wheels: dict[str, Path]) -> None:
    """Without the wrapping backend flit stops at its ``ast.parse`` (what docs/shipping.md says)."""
    project = write_project(tmp_path / "p", "flit")
    (project / "src" / "shiplib").rename(project / "shiplib")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"tagstr_runtime.shipping.backend"', '"flit_core.buildapi"'))
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", "dist", ".",
               cwd=project, check=False)
    assert done.returncode != 0 and "SyntaxError" in done.stdout + done.stderr
