#!/usr/bin/env python3
"""Run the pure-Python test suite on CPython 3.14 or 3.15 (Pyodide) under node.

    python tools/run_pyodide_tests.py [runner options] [--] [pytest args...]

Each CPython version has its own npm project pinning the Pyodide release that
ships it (``PYODIDE_PROJECTS``: ``tools/pyodide`` for 3.14, ``tools/pyodide315``
for 3.15); the one node driver, ``tools/pyodide/run_pytest.mjs``, serves all.

Steps (each reused when already done):

1. install the npm package ``pyodide`` pinned in the version's ``package.json``
   (``npm ci`` with the committed lock file) into the cache folder;
2. install the pure-Python test dependencies (pytest, hypothesis, the bridge's
   template libraries and what they need) for that CPython into
   ``<cache>/site-packages-py3XX-<digest of the list>`` with the host pip (a
   folder per list: checkouts with other lists can share one cache);
3. run ``node tools/pyodide/run_pytest.mjs`` and return pytest's exit code.
   Like a native CPython, Pyodide then writes ``__pycache__/*.cpython-3XX.pyc``
   next to the sources (and the dependencies), which makes later runs faster.

Runner options (must come first; everything else goes to pytest):

  --pyodide-python X.Y  the CPython version to run on: 3.14 (default) or 3.15
  --pyodide-cache DIR   cache folder (default: $TAGSTR_PYODIDE_CACHE or
                        <repo>/.cache/pyodide); 3.15 uses its subfolder
                        ``pyodide315``, so one folder can serve both
  --pyodide-mount DIR   extra host folder to make visible inside Pyodide
                        (paths given to pytest that lie outside the repository
                        are mounted automatically)
  --pyodide-refresh     reinstall the npm package and the dependencies
  --pyodide-languages   also install flake8 and the pure-Python parsers of the
                        embedded-language checks (html5lib, sqlglot, tinycss2),
                        in a folder of their own: the flake8 plugin's language
                        tests then run, ``tag(t"...")`` included
  --pyodide-no-project-metadata
                        do not emulate the installed project (its pytest11
                        entry points and .pth files, read from pyproject.toml)
  --                    end of runner options

Pytest arguments given on the command line replace the defaults
(``-m "not subprocess" -p no:cacheprovider tests``); Pyodide cannot start
subprocesses, so keep ``-m "not subprocess"`` when selecting tests by hand.

Host requirements: Python 3.11+ with pip, node >= 18 and npm on PATH, and
access to the package registries (only for the first run).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "tools" / "pyodide" / "run_pytest.mjs"

#: The npm project pinning the Pyodide of each CPython version.  Pyodide's
#: major version names the CPython it ships (314.x: 3.14; 315.x: 3.15).
PYODIDE_PROJECTS = {
    "3.14": REPO / "tools" / "pyodide",
    "3.15": REPO / "tools" / "pyodide315",
}
DEFAULT_PYTHON = "3.14"

#: Test dependencies installed for the target CPython. All pure Python (so the
#: ``py3-none-any`` wheels run on Pyodide). hypothesmith, also in the ``tests``
#: dependency group, is left out: it needs libcst, a compiled package with no wheel that
#: Pyodide could load without a download.
TEST_DEPS = (
    "pytest>=8",
    "hypothesis>=6.100",
    # the bridge's template libraries (dependency group ``bridge``; tests/tagstr_runtime/test_bridge_libraries.py)
    "tstrings-backport>=0.1.5",
    "tstr>=0.4.1",
    "sql-tstring>=0.4",
)
#: Installed without their dependencies, which SOURCE_DEPS provide (tdom needs
#: markupsafe, whose wheels are all compiled).
NO_DEPS = ("tdom>=0.1.20",)
#: Pure-Python packages whose wheels are all compiled: the package folder of
#: the sdist is copied (markupsafe runs without its optional C speedups).
SOURCE_DEPS = {"markupsafe>=3.0.3": "src/markupsafe"}
#: With ``--pyodide-languages``: flake8 and the parsers of the language checks that
#: have pure-Python wheels (PyYAML and tree-sitter have none: their examples are skipped).
LANGUAGE_DEPS = ("flake8>=7,<8", "html5lib>=1.1", "sqlglot>=30", "tinycss2>=1.3")

DEFAULT_PYTEST_ARGS = ("-m", "not subprocess", "-p", "no:cacheprovider", "tests")

#: Exit code for failures of this runner itself (as pytest's "internal error").
SETUP_ERROR = 3


def _log(msg: str) -> None:
    print(f"[pyodide-tests] {msg}", file=sys.stderr, flush=True)


def _run(cmd: list[str], cwd: Path | None = None) -> None:
    _log("$ " + " ".join(cmd))
    subprocess.run(cmd, cwd=cwd, check=True)


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "big"))
        h.update(p)
    return h.hexdigest()


def _pinned_pyodide_version(npm_project: Path) -> str:
    data = json.loads((npm_project / "package.json").read_text())
    return str(data["dependencies"]["pyodide"])


def _shipped_python(pyodide_version: str) -> str:
    """``315.0.0-alpha.2`` -> ``3.15``: Pyodide's major version is 300 + CPython's minor."""
    major = int(pyodide_version.split(".")[0])
    return f"3.{major - 300}"


def ensure_pyodide(cache: Path, npm_project: Path, refresh: bool = False) -> None:
    """npm-install the pyodide package pinned in ``npm_project`` into ``cache``."""
    files = [npm_project / "package.json", npm_project / "package-lock.json"]
    files = [f for f in files if f.exists()]
    stamp = cache / ".npm-stamp"
    want = _digest(*(f.read_bytes() for f in files))
    installed = cache / "node_modules" / "pyodide" / "package.json"
    pinned = _pinned_pyodide_version(npm_project)
    if (
        not refresh
        and stamp.exists()
        and stamp.read_text().strip() == want
        and installed.exists()
        and json.loads(installed.read_text()).get("version") == pinned
    ):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm not found on PATH (needed to install the pyodide npm package)")
    cache.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    for f in files:
        shutil.copyfile(f, cache / f.name)
    common = ["--no-audit", "--no-fund", "--loglevel=error"]
    if (cache / "package-lock.json").exists():
        _run([npm, "ci", *common], cwd=cache)
    else:
        _run([npm, "install", "--no-package-lock", *common], cwd=cache)
    got = json.loads(installed.read_text()).get("version")
    if got != pinned:
        raise RuntimeError(f"npm installed pyodide {got}, expected {pinned}")
    stamp.write_text(want + "\n")


def ensure_deps(cache: Path, python: str, refresh: bool = False, languages: bool = False) -> Path:
    """pip-install the test dependencies for CPython ``python`` into a folder."""
    extra = LANGUAGE_DEPS if languages else ()
    want = _digest(python.encode(), *(d.encode() for d in (*TEST_DEPS, *NO_DEPS, *SOURCE_DEPS, *extra)))
    target = cache / f"site-packages-py{python.replace('.', '')}-{want[:12]}"
    stamp = target / ".deps-stamp"
    if not refresh and stamp.exists() and stamp.read_text().strip() == want:
        return target
    tmp = cache / (target.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    wheels = [
        "install", "--quiet", "--no-warn-script-location",
        "--no-compile",  # the host would write .pyc files for its own version
        "--target", str(tmp), "--only-binary=:all:",
        "--python-version", python, "--implementation", "py", "--abi", "none", "--platform", "any",
    ]
    _run([*pip, *wheels, *TEST_DEPS, *extra])
    _run([*pip, *wheels, "--no-deps", *NO_DEPS])
    for requirement, folder in SOURCE_DEPS.items():
        _copy_from_sdist(pip, requirement, folder, tmp)
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    (target / ".deps-stamp").write_text(want + "\n")
    return target


def _copy_from_sdist(pip: list[str], requirement: str, folder: str, target: Path) -> None:
    """The Python files of ``folder`` in the sdist of ``requirement``, into ``target``."""
    with tempfile.TemporaryDirectory() as downloads:
        _run([*pip, "download", "--quiet", "--no-deps", "--no-binary=:all:", "--dest", downloads, requirement])
        (sdist,) = Path(downloads).iterdir()
        with tarfile.open(sdist) as archive:
            top = archive.getnames()[0].split("/")[0]
            prefix = f"{top}/{folder}/"
            wanted = (".py", ".pyi", "py.typed")
            for member in archive.getmembers():
                if member.isfile() and member.name.startswith(prefix) and member.name.endswith(wanted):
                    dest = target / Path(folder).name / member.name[len(prefix):]
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    source = archive.extractfile(member)
                    assert source is not None
                    dest.write_bytes(source.read())


def _cache_for(python: str, root: Path) -> Path:
    """Each version its own node_modules: the default one in ``root``, others in subfolders."""
    return root if python == DEFAULT_PYTHON else root / PYODIDE_PROJECTS[python].name


def pyodide_command(python: str, cache: Path | None = None) -> list[str]:
    """The command line that starts CPython ``python`` in a fresh Pyodide, like
    ``python``: append ``--mount DIR``... then ``-c CODE args`` (run_python.mjs).
    Installs the pinned Pyodide first, as the test runner does."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node not found on PATH")
    folder = _cache_for(python, cache or REPO / ".cache" / "pyodide")
    ensure_pyodide(folder, PYODIDE_PROJECTS[python])
    return [node, str(RUNNER.with_name("run_python.mjs")), "--pyodide-dir", str(folder)]


@dataclass
class _Options:
    python: str = DEFAULT_PYTHON
    cache: str | None = None
    mounts: list[str] = field(default_factory=list)
    refresh: bool = False
    project_metadata: bool = True
    languages: bool = False


def _split_argv(argv: list[str]) -> tuple[_Options, list[str]]:
    """Split off the leading runner options; the rest goes to pytest."""
    opts = _Options()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return opts, argv[i + 1 :]
        name, eq, value = a.partition("=")
        if name in ("--pyodide-cache", "--pyodide-mount", "--pyodide-python"):
            if not eq:
                if i + 1 >= len(argv):
                    raise SystemExit(f"run_pyodide_tests.py: {a} needs a value")
                i += 1
                value = argv[i]
            if name == "--pyodide-python":
                if value not in PYODIDE_PROJECTS:
                    raise SystemExit(f"run_pyodide_tests.py: --pyodide-python is one of {', '.join(PYODIDE_PROJECTS)}")
                opts.python = value
            elif name == "--pyodide-cache":
                opts.cache = value
            else:
                opts.mounts.append(value)
        elif a == "--pyodide-refresh":
            opts.refresh = True
        elif a == "--pyodide-no-project-metadata":
            opts.project_metadata = False
        elif a == "--pyodide-languages":
            opts.languages = True
        else:
            return opts, argv[i:]
        i += 1
    return opts, []


def _is_within(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
    except ValueError:
        return False
    return True


def _prepare_pytest_args(args: list[str], mounts: list[Path]) -> list[str]:
    """Pytest runs with the repository as its cwd: make paths that the caller
    gave relative to another cwd absolute, and mount paths outside the repo."""
    cwd = Path.cwd().resolve()
    out = []
    for a in args:
        if a.startswith("-") or not a:
            out.append(a)
            continue
        path_part, sep, node = a.partition("::")
        p = Path(path_part)
        full = p if p.is_absolute() else cwd / p
        if not full.exists():
            out.append(a)
            continue
        full = full.resolve()
        if not _is_within(full, REPO):
            mounts.append(full if full.is_dir() else full.parent)
        if not p.is_absolute() and cwd != REPO:
            a = str(full) + sep + node
        out.append(a)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opts, pytest_args = _split_argv(argv)
    if not pytest_args:
        pytest_args = list(DEFAULT_PYTEST_ARGS)
    cache_dir = opts.cache or os.environ.get("TAGSTR_PYODIDE_CACHE")
    cache = _cache_for(opts.python, Path(cache_dir).resolve() if cache_dir else REPO / ".cache" / "pyodide")
    npm_project = PYODIDE_PROJECTS[opts.python]
    pinned = _pinned_pyodide_version(npm_project)
    if _shipped_python(pinned) != opts.python:
        _log(f"{npm_project}/package.json pins pyodide {pinned}, which does not ship CPython {opts.python}")
        return SETUP_ERROR
    mounts = [Path(m).resolve() for m in opts.mounts]

    node = shutil.which("node")
    if node is None:
        _log("node not found on PATH")
        return SETUP_ERROR
    t0 = time.monotonic()
    try:
        ensure_pyodide(cache, npm_project, opts.refresh)
        deps = ensure_deps(cache, opts.python, opts.refresh, opts.languages)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as exc:
        _log(f"setup failed: {exc}")
        return SETUP_ERROR
    t1 = time.monotonic()
    pytest_args = _prepare_pytest_args(pytest_args, mounts)

    cmd = [node, str(RUNNER), "--pyodide-dir", str(cache)]
    for m in dict.fromkeys(mounts):
        cmd += ["--mount", str(m)]
    if not opts.project_metadata:
        cmd.append("--no-project-metadata")
    cmd += [str(REPO), str(deps), "--", *pytest_args]
    _log(f"setup {t1 - t0:.1f}s; running pytest on Pyodide {pinned} (CPython {opts.python})")
    sys.stdout.flush()
    rc = subprocess.call(cmd, cwd=REPO)
    _log(f"pytest exit code {rc} after {time.monotonic() - t1:.1f}s")
    return rc


if __name__ == "__main__":
    sys.exit(main())
