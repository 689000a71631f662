"""``tagstr_autoload.pth``: the hook is active in every interpreter of the environment, cheaply.

``site.addsitedir`` processes a directory's ``.pth`` files exactly as start-up
processes site-packages, so most tests use it on a folder holding a copy of
the project's ``.pth``; one test installs the project into a real virtual
environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tagstr_runtime

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]
REPO = Path(__file__).resolve().parents[2]
PTH = REPO / "src" / "tagstr_autoload.pth"

#: What the .pth may import in an interpreter where nothing has failed to compile yet.
ALLOWED_AT_STARTUP = {
    "__future__",
    "tagstr_runtime",
    "tagstr_runtime._autohook",
    "tagstr_runtime._importhook",
}

PROBE = """\
import site, sys
before = set(sys.modules)
site.addsitedir(sys.argv[1])
new = sorted(set(sys.modules) - before)
from tagstr_runtime import _importhook
print(_importhook._hook is not None and _importhook._hook in sys.path_hooks)
print(",".join(new))
"""


def python(*args: str, cwd: Path, **env_vars: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env.update(PYTHONPATH=str(SRC), **env_vars)
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def site_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    shutil.copy(PTH, folder / PTH.name)
    (tmp_path / "tagged.py").write_text("def tg(*a):\n    return a[0]\nV = tg'hello'\n", encoding="utf-8")
    return folder


def test_pth_is_one_import_line() -> None:
    lines = [line for line in PTH.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert lines == ["import tagstr_runtime._autohook"]


@pytest.mark.subprocess
def test_pth_installs_the_hook_and_imports_nothing_heavy(site_dir: Path) -> None:
    result = python("-S", "-c", PROBE, str(site_dir), cwd=site_dir.parent, TAGSTR_AUTOLOAD="1")
    assert result.returncode == 0, result.stderr
    installed, new = result.stdout.splitlines()
    assert installed == "True"
    # site itself may load a codec to read any .pth file (3.13 reads them as utf-8-sig)
    extra = {m for m in new.split(",") if m and not m.startswith("encodings.")} - ALLOWED_AT_STARTUP
    # typing alone costs ~10-20 ms per interpreter start; in tagstr_runtime/__init__.py
    # write ``TYPE_CHECKING = False`` instead of ``from typing import TYPE_CHECKING``.
    assert not extra, f"the .pth imports more than the hook needs: {sorted(extra)}"
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
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_", "PIP_REQUIRE"))}
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
    assert (Path(purelib) / "tagstr_autoload.pth").read_text(encoding="utf-8") == PTH.read_text(encoding="utf-8")
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
