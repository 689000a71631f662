"""pip keeps working in an environment where the project is installed (issue 36, item 1).

pip 24.1 and 24.2 (what CPython 3.13.0's ``ensurepip`` installs) call distlib's
``finder('pip._vendor.distlib')`` when they import ``distlib.scripts``, and
every pip does on Windows; distlib looks the finder up by the exact type of
the package's loader.  With the start-up hook giving every module its own
loader type, every ``pip install`` after ours failed with
``DistlibException: Unable to locate finder for 'pip._vendor.distlib'``.
Here each pip version, in a venv where it installed the project's wheel,
installs a local wheel with a console script, runs it, uninstalls it, and
makes the Windows call; standalone distlib makes its own.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from shipping_venvs import BIN, run, venv_python

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

#: 23.2.1: what CPython 3.11/3.12 bundle; 24.1.2 and 24.2: the versions that failed at every
#: install; "": the newest
PIP_VERSIONS = ["23.2.1", "24.1.2", "24.2", ""]


def demo_wheel(folder: Path) -> Path:
    """A tiny wheel with a module and a console script, written by hand (no build backend)."""
    files = {
        "demo_tool/__init__.py": "def main():\n    print('demo tool ran')\n",
        "demo_tool-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo-tool\nVersion: 1.0\n",
        "demo_tool-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                                         "Tag: py3-none-any\n",
        "demo_tool-1.0.dist-info/entry_points.txt": "[console_scripts]\ndemo-tool = demo_tool:main\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append("demo_tool-1.0.dist-info/RECORD,,")
    path = folder / "demo_tool-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("demo_tool-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


@pytest.mark.parametrize("pip_version", PIP_VERSIONS, ids=lambda v: f"pip-{v or 'newest'}")
def test_pip_installs_runs_and_uninstalls_after_ours(
    pip_version: str, venv_with: Callable[[str], Path], tmp_path: Path
) -> None:
    venv = venv_with(pip_version)
    python = venv_python(venv)
    on = run(python, "-c", "import sys, tagstr_runtime._importhook as h; print(h._hook in sys.path_hooks)")
    assert on.stdout == "True\n", on.stderr  # the start-up hook is active in the venv
    done = run(python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check", demo_wheel(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "DistlibException" not in done.stderr
    tool = run(venv / BIN / "demo-tool")
    assert (tool.returncode, tool.stdout) == (0, "demo tool ran\n"), tool.stderr
    windows = run(python, "-c", "from pip._vendor.distlib.resources import finder\n"
                  "print(finder('pip._vendor.distlib').find('__init__.py') is not None)")
    assert (windows.returncode, windows.stdout) == (0, "True\n"), windows.stderr
    done = run(python, "-m", "pip", "uninstall", "-y", "--disable-pip-version-check", "demo-tool")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (venv / BIN / "demo-tool").exists()


def test_standalone_distlib_after_ours(venv_with: Callable[[str], Path], wheel_of: Callable[[str, str], Path],
                                       tmp_path: Path) -> None:
    venv = venv_with("")
    python = venv_python(venv)
    done = run(python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check", "-q",
               wheel_of("distlib", ""))
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "datapkg").mkdir()
    (tmp_path / "datapkg" / "__init__.py").write_text("")
    (tmp_path / "datapkg" / "data.txt").write_text("payload")
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from distlib.resources import finder, finder_for_path\n"
        "import datapkg\n"
        "print(finder('distlib').find('util.py') is not None, finder('datapkg').find('data.txt').bytes,\n"
        "      finder_for_path(sys.argv[1]) is not None)\n"
    )
    done = run(python, "-c", code, tmp_path)
    assert (done.returncode, done.stdout) == (0, "True b'payload' True\n"), done.stderr
