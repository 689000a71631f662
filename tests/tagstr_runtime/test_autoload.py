"""``tagstr_autoload.pth`` / ``.start``: the hook is active in every interpreter of the environment, cheaply.

``site.addsitedir`` processes a directory's ``.pth`` and (3.15+, PEP 829)
``.start`` files exactly as start-up processes site-packages, so most tests
use it on a folder holding copies of the project's two files; one test
installs the project into a real virtual environment.  The in-process tests
need no subprocess, so they also run on 3.15 (Pyodide).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from clean_python import clean_env, run_python

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]
REPO = Path(__file__).resolve().parents[2]
PTH = REPO / "src" / "tagstr_autoload.pth"
START = REPO / "src" / "tagstr_autoload.start"
#: PEP 829: site reads ``.start`` files and skips the import lines of the matching ``.pth``
PEP829 = sys.version_info >= (3, 15)

#: What the start-up files may import in an interpreter where nothing has failed to compile yet.
ALLOWED_AT_STARTUP = {
    "__future__",
    "tagstr_runtime",
    "tagstr_runtime._autohook",
    "tagstr_runtime._autostart",
    "tagstr_runtime._importhook",
}

PROBE = """\
import site, sys
if sys.version_info >= (3, 15):
    import pkgutil  # site resolves every .start entry point with it: not ours to count
before = set(sys.modules)
site.addsitedir(sys.argv[1])
new = sorted(set(sys.modules) - before)
from tagstr_runtime import _importhook
print(_importhook._hook is not None and sys.path_hooks.count(_importhook._hook) == 1)
print(",".join(new))
"""


def python(*args: str, cwd: Path, **env_vars: str) -> subprocess.CompletedProcess[str]:
    return run_python(*args, cwd=cwd, env=clean_env(**env_vars))


def startup_folder(folder: Path, *files: Path) -> Path:
    folder.mkdir()
    for file in files:
        shutil.copy(file, folder / file.name)
    return folder


@pytest.fixture
def site_dir(tmp_path: Path) -> Path:
    """A site folder as the wheel installs it: both start-up files side by side."""
    (tmp_path / "tagged.py").write_text("def tg(*a):\n    return a[0]\nV = tg'hello'\n", encoding="utf-8")
    return startup_folder(tmp_path / "site", PTH, START)


def meaningful_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and line[0] != "#"]


def test_start_file_matches_the_pth() -> None:
    """PEP 829 skips a ``.pth``'s import lines only for the ``.start`` of the same name."""
    assert PTH.stem == START.stem
    # the .pth line is the one earlier versions installed: their .pth files keep working
    assert meaningful_lines(PTH) == ["import tagstr_runtime._autohook"]
    assert meaningful_lines(START) == ["tagstr_runtime._autostart:activate"]


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``site.addsitedir`` in this interpreter as at a start-up with the switches unset."""
    # imported already where this environment's own .pth ran: the .pth line must run it anew
    monkeypatch.delitem(sys.modules, "tagstr_runtime._autohook", raising=False)
    monkeypatch.delattr(tagstr_runtime, "_autohook", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # addsitedir appends the folder
    monkeypatch.delenv("TAGSTR_AUTOLOAD", raising=False)
    monkeypatch.delenv("TAGSTR_COMPILE", raising=False)


@pytest.fixture
def counted_installs(in_process: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Each call ``activate`` makes to ``_importhook.install``, without touching the real hooks."""
    calls: list[int] = []
    monkeypatch.setattr(_importhook, "install", lambda: calls.append(1))
    yield calls


@pytest.mark.parametrize(
    ("files", "installs"),
    [
        pytest.param((PTH, START), 1, id="both-as-installed"),
        pytest.param((PTH,), 1, id="pth-alone"),
        # 3.11-3.14 ignore .start files; 3.15+ run its entry point
        pytest.param((START,), 1 if PEP829 else 0, id="start-alone"),
    ],
)
def test_site_runs_exactly_one_of_the_two(
    tmp_path: Path, counted_installs: list[int], capsys: pytest.CaptureFixture[str], files: tuple[Path, ...],
    installs: int,
) -> None:
    site.addsitedir(str(startup_folder(tmp_path / "site", *files)))
    assert len(counted_installs) == installs
    # site reports a failing import line or entry point on stderr and goes on
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("value", ["0", "false", "OFF"])
def test_both_files_obey_the_switch(
    tmp_path: Path, counted_installs: list[int], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TAGSTR_AUTOLOAD", value)
    site.addsitedir(str(startup_folder(tmp_path / "site", PTH, START)))
    assert counted_installs == []


def test_site_installs_the_real_hook_once(tmp_path: Path, in_process: None) -> None:
    """In this interpreter (the 3.15 side runs here: Pyodide has no subprocess)."""
    (tmp_path / "tagged_in_process.py").write_text("def tg(*a):\n    return a[0]\nV = tg'in process'\n",
                                                   encoding="utf-8")
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    _importhook.uninstall()
    try:
        site.addsitedir(str(startup_folder(tmp_path / "site", PTH, START)))
        assert sys.path_hooks.count(_importhook._path_hook()) == 1
        sys.path.insert(0, str(tmp_path))
        import tagged_in_process  # type: ignore[import-not-found]

        assert tagged_in_process.V == "in process"
    finally:
        sys.modules.pop("tagged_in_process", None)
        _importhook.uninstall()
        if was_installed:
            _importhook.install()


@pytest.mark.subprocess
def test_pth_installs_the_hook_and_imports_nothing_heavy(site_dir: Path) -> None:
    result = python("-S", "-c", PROBE, str(site_dir), cwd=site_dir.parent, TAGSTR_AUTOLOAD="1")
    assert result.returncode == 0, result.stderr
    installed, new = result.stdout.splitlines()
    assert installed == "True"
    # site itself may load a codec to read any start-up file (3.13 reads them as utf-8-sig)
    extra = {m for m in new.split(",") if m and not m.startswith("encodings.")} - ALLOWED_AT_STARTUP
    # typing alone costs ~10-20 ms per interpreter start; in tagstr_runtime/__init__.py
    # write ``TYPE_CHECKING = False`` instead of ``from typing import TYPE_CHECKING``.
    assert not extra, f"the start-up files import more than the hook needs: {sorted(extra)}"
    assert "tagstr_runtime._autohook" in new.split(",")


@pytest.mark.subprocess
@pytest.mark.parametrize("value", ["0", "false", "OFF"])
def test_autoload_can_be_switched_off(site_dir: Path, value: str) -> None:
    result = python("-S", "-c", PROBE, str(site_dir), cwd=site_dir.parent, TAGSTR_AUTOLOAD=value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "False"


@pytest.mark.subprocess
def test_pth_makes_tag_modules_importable(site_dir: Path) -> None:
    code = "import site, sys; site.addsitedir(sys.argv[1]); import tagged; print(tagged.V)"
    on = python("-c", code, str(site_dir), cwd=site_dir.parent)
    assert (on.returncode, on.stdout) == (0, "hello\n"), on.stderr
    off = python("-c", code, str(site_dir), cwd=site_dir.parent, TAGSTR_AUTOLOAD="0")
    assert off.returncode == 1 and off.stderr.splitlines()[-1] == "SyntaxError: invalid syntax"


@pytest.mark.subprocess
def test_installed_wheel_activates_the_hook(tmp_path: Path) -> None:
    """The real thing, once: ``pip install`` the project into a fresh venv.

    The venv has no pip of its own (fast to create); this interpreter's pip
    installs into it.  Building needs hatchling from the package index.
    """
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    bindir = "Scripts" if os.name == "nt" else "bin"
    venv_python = venv / bindir / ("python.exe" if os.name == "nt" else "python")
    env = clean_env("PIP_REQUIRE", src=False)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv_python), "install", "--no-deps",
         "--disable-pip-version-check", "-q", str(REPO)],
        env=env, capture_output=True, text=True, timeout=300,
    )
    if install.returncode != 0 and "hatchling" in install.stdout + install.stderr:
        pytest.skip(f"cannot build the wheel here (no package index?): {install.stderr[-300:]}")
    assert install.returncode == 0, install.stdout + install.stderr
    purelib = subprocess.run(
        [str(venv_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    for shipped in (PTH, START):
        assert (Path(purelib) / shipped.name).read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")
    (tmp_path / "tagged.py").write_text("def tg(*a):\n    return a[0]\nV = tg'from the wheel'\n", encoding="utf-8")

    def venv_run(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv_python), *args], cwd=tmp_path, env={**env, **extra},
            capture_output=True, text=True, timeout=60,
        )

    on = venv_run("-c", "import tagged; print(tagged.V)")
    assert (on.returncode, on.stdout) == (0, "from the wheel\n"), on.stderr
    off = venv_run("-c", "import tagged", TAGSTR_AUTOLOAD="0")
    assert off.returncode == 1 and "SyntaxError" in off.stderr
    runner = venv_run("-m", "tagstr_runtime", "-c", "import tagged; print(tagged.V)", TAGSTR_AUTOLOAD="0")
    assert (runner.returncode, runner.stdout) == (0, "from the wheel\n"), runner.stderr
