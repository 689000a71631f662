"""The npm packages the editor tests drive (pyright, vscode-textmate), installed once into a cache folder.

Installed at test time as ``tests/conftest.py`` installs pyright: aside, then
renamed (parallel tox envs may race).  Skipped, with the reason, only when npm
is missing or the registry cannot be reached; CI has both.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[2]
NPM_PACKAGES = ("pyright@1.1.414", "vscode-textmate@9.3.2", "vscode-oniguruma@2.0.1", "tm-grammars@1.32.22")


@pytest.fixture(scope="session")
def npm_modules() -> Path:
    """``node_modules`` holding NPM_PACKAGES."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed for the editor tests' npm packages")
    digest = hashlib.sha256(" ".join(NPM_PACKAGES).encode()).hexdigest()[:12]
    cache = Path(os.environ.get("TAGSTR_NPM_CACHE", ROOT / ".cache")) / f"npm-editors-{digest}"
    modules = cache / "node_modules"
    if not (modules / ".bin" / "pyright-langserver").exists():
        work = cache.with_name(f"{cache.name}.{os.getpid()}")
        work.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run([npm, "install", "--no-package-lock", "--no-save", "--no-audit", "--no-fund",
                            "--loglevel=error", *NPM_PACKAGES], cwd=work, check=True, timeout=600,
                           capture_output=True, text=True)
        except subprocess.CalledProcessError as exc:
            shutil.rmtree(work, ignore_errors=True)
            if "ENOTFOUND" in exc.stderr or "EAI_AGAIN" in exc.stderr or "ECONNREFUSED" in exc.stderr:
                pytest.skip("the npm registry cannot be reached: " + exc.stderr.strip().splitlines()[-1])
            raise
        try:
            work.rename(cache)
        except OSError:  # another process was first
            shutil.rmtree(work, ignore_errors=True)
    return modules
