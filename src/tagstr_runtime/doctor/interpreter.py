"""The interpreter itself: a supported Python, the start-up hook, a writable bytecode cache.

The start-up hook is ``tagstr_autoload.pth``, which ``site`` runs only from a
site directory.  Why it is off is read from the same facts ``site`` used: the
interpreter's flags, ``TAGSTR_AUTOLOAD``, and where the ``.pth`` file and the
package actually are (an editable or ``--target`` install leaves the file in a
folder that is on ``sys.path`` without being a site directory).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import TYPE_CHECKING

from tagstr_runtime.doctor.install import install_command
from tagstr_runtime.doctor.probe import DISTRIBUTION, distribution
from tagstr_runtime.doctor.report import Finding

if TYPE_CHECKING:
    import subprocess

__all__ = ["SUPPORTED_PYTHON", "bytecode_cache", "interpreter_flags", "main_script", "python_version", "run_probe",
           "startup_hook"]

#: The first and last Python versions tested (pyproject's classifiers say the same).
SUPPORTED_PYTHON = ((3, 11), (3, 15))
PTH = "tagstr_autoload.pth"
_OFF = {"0", "false", "no", "off"}  # what _autohook reads as "off"


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def python_version() -> Finding:
    low, high = SUPPORTED_PYTHON
    running = sys.version.split()[0]
    tested = f"{_dotted(low)} to {_dotted(high)}"
    fix = f"use CPython {tested}"
    if sys.implementation.name != "cpython":
        return Finding("python", "warning", f"{sys.implementation.name} {running} is untested: tag strings "
                       "target stock CPython", fix)
    if sys.version_info[:2] < low:
        return Finding("python", "error", f"Python {running} is not supported ({tested})", fix)
    if sys.version_info[:2] > high:
        return Finding("python", "warning", f"Python {running} is newer than the versions tested ({tested})",
                       f"if something fails, {fix}")
    return Finding("python", "ok", f"Python {running} is supported ({tested})")


def _hook_installed() -> bool:
    importhook = sys.modules.get("tagstr_runtime._importhook")
    hook = getattr(importhook, "_hook", None)
    return hook is not None and hook in sys.path_hooks


def _site_dirs() -> tuple[list[str], str | None, bool]:
    """The site-packages folders, the user site-packages, and whether ``site`` reads the latter."""
    import site

    user = site.getusersitepackages() if hasattr(site, "getusersitepackages") else None
    return list(site.getsitepackages()), user, bool(site.ENABLE_USER_SITE)


def _editable() -> bool:
    found = distribution(DISTRIBUTION)
    text = None if found is None else found.read_text("direct_url.json")
    try:
        return bool(text and json.loads(text).get("dir_info", {}).get("editable"))
    except (ValueError, AttributeError):
        return False


def startup_hook() -> Finding:
    import tagstr_runtime

    name = "startup-hook"
    site_dirs, user_site, user_site_read = _site_dirs()
    with_pth = [d for d in site_dirs + ([user_site] if user_site else []) if os.path.isfile(os.path.join(d, PTH))]
    if _hook_installed():
        where = f" ({PTH} in {with_pth[0]})" if with_pth else ""
        return Finding(name, "ok", f"active: modules with tag strings import{where}")
    install = "or call tagstr_runtime.install() before importing them"
    consequence = "importing a module with tag strings raises SyntaxError"
    setting = os.environ.get("TAGSTR_AUTOLOAD", "1")
    if setting.strip().lower() in _OFF:
        return Finding(name, "warning", f"off: TAGSTR_AUTOLOAD={setting} ({consequence})",
                       f"unset TAGSTR_AUTOLOAD, {install}")
    if sys.flags.no_site:
        return Finding(name, "warning", f"off: python -S does not run site, so no .pth file runs ({consequence})",
                       f"run python without -S, {install}")
    if with_pth and with_pth == [user_site] and not user_site_read:
        flag = "-I" if sys.flags.isolated else "-s or PYTHONNOUSERSITE" if sys.flags.no_user_site else "a venv"
        return Finding(name, "warning", f"off: {PTH} is in the user site-packages {user_site}, which {flag} "
                       f"leaves out ({consequence})",
                       f"run python without -I/-s, or {install_command()} in this environment, {install}")
    if with_pth:
        return Finding(name, "warning", f"off although {PTH} is in {with_pth[0]}: it failed at start-up "
                       f"({consequence})", "run `python -c pass` to see the error that site printed")
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(tagstr_runtime.__file__)))
    if _editable():
        return Finding(name, "warning", f"off: an editable install left {PTH} out of site-packages, and "
                       f"{package_parent} is on sys.path without being a site directory ({consequence})",
                       f"copy {os.path.join(package_parent, PTH)} into "
                       f"{site_dirs[0] if site_dirs else 'site-packages'}, or reinstall: {install_command()}")
    if os.path.isfile(os.path.join(package_parent, PTH)):
        kind = "a --target install" if _has_dist_info(package_parent) else "a source tree"
        return Finding(name, "warning", f"off: tagstr_runtime comes from {package_parent} ({kind} on "
                       f"PYTHONPATH), not a site directory, so its {PTH} never runs ({consequence})",
                       f"{install_command()} in this environment, or add "
                       f"`import site; site.addsitedir({package_parent!r})` to a sitecustomize.py")
    return Finding(name, "warning", f"off: no {PTH} in any site directory ({consequence})",
                   f"{install_command()} in this environment, {install}")


_MAIN_SCRIPT_PROBE = "def probe(*args):\n    return 'on'\n\nprint(probe'')\n"


def main_script() -> Finding:
    """Whether ``python script.py`` runs a script with tag strings here (issue 29), tried for real.

    A fresh ``python`` of this environment runs a one-line tag-string script,
    as a user would: the start-up hook, a ``sitecustomize`` and the
    environment's variables all count.  With the start-up hook off (the
    ``startup-hook`` finding says why) it is a note, not a second warning.
    """
    name = "main-script"
    flags = interpreter_flags()
    python = " ".join(["python", *flags])
    instead = f"run scripts with {python} -m tagstr_runtime script.py"
    if startup_hook().status != "ok":
        return Finding(name, "note", f"off with the start-up hook: `{python} script.py` fails on a script with tag "
                       "strings", f"turn the start-up hook on (see startup-hook), or {instead}")
    done = run_probe(_MAIN_SCRIPT_PROBE)
    if isinstance(done, str):
        return Finding(name, "warning", f"could not run {sys.executable}: {done}", instead)
    if done.returncode == 0 and done.stdout == "on\n":
        return Finding(name, "ok", f"on: `{python} script.py` runs a script with tag strings")
    # isolated mode leaves script runs stock (docs/decisions/0040-python-script-py-from-sys-excepthook.md)
    if sys.flags.isolated:
        return Finding(name, "warning", "off under -I: isolated mode leaves `python -I script.py` to CPython, "
                       "which fails on a script with tag strings", instead)
    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return Finding(name, "warning", f"off: `{python} script.py` fails on a script with tag strings ({last})",
                   instead)


def interpreter_flags() -> list[str]:
    """The options this interpreter runs with (``-I``, ``-E``, ``-s``, ``-X``...), for the
    fresh interpreters that try things as the user would run them."""
    import subprocess

    flags: list[str] = subprocess._args_from_interpreter_flags()  # type: ignore[attr-defined]
    return flags


def run_probe(script: str, *args: str, launcher: str | None = None) -> "subprocess.CompletedProcess[str] | str":
    """``python [this interpreter's options] probe.py ARGS`` in a temporary folder (``launcher``:
    a file run instead, the probe's path its first argument); its outcome, or why it could not run."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="tagstr-doctor-") as folder:
        probe = os.path.join(folder, "probe.py")
        with open(probe, "w", encoding="utf-8") as file:
            file.write(script)
        command = [sys.executable, *interpreter_flags()]
        if launcher is not None:
            command.append(os.path.join(folder, launcher))
            os.makedirs(os.path.dirname(command[-1]), exist_ok=True)
            with open(command[-1], "w", encoding="utf-8") as file:
                file.write("import runpy, sys\nrunpy.run_path(sys.argv[1], run_name='__main__')\n")
        try:
            return subprocess.run([*command, probe, *args], capture_output=True, text=True, timeout=60, cwd=folder)
        except (OSError, subprocess.SubprocessError) as exc:
            return str(exc)


def _has_dist_info(folder: str) -> bool:
    prefix = DISTRIBUTION.replace("-", "_") + "-"
    try:
        return any(e.startswith(prefix) and e.endswith(".dist-info") for e in os.listdir(folder))
    except OSError:
        return False


def bytecode_cache(path: str) -> Finding:
    """Whether the import hook can cache desugared modules of the folder ``path``."""
    name = "bytecode-cache"
    prebuild = f"python -m tagstr_runtime --compile {path} (as a user who can write there, e.g. at build time)"
    slow = "modules with tag strings are desugared again at every import"
    if sys.dont_write_bytecode:
        return Finding(name, "warning", f"not written: -B or PYTHONDONTWRITEBYTECODE is set ({slow})",
                       f"unset PYTHONDONTWRITEBYTECODE, or pre-build it: {prebuild}")
    import importlib.util

    try:
        folder = os.path.dirname(importlib.util.cache_from_source(os.path.join(os.path.abspath(path), "_.py")))
    except NotImplementedError:  # sys.implementation.cache_tag is None
        return Finding(name, "warning", f"this Python keeps no bytecode cache ({slow})")
    problem = _cannot_write(folder)
    if problem:
        return Finding(name, "warning", f"cannot write {folder}: {problem} ({slow})",
                       f"pre-build it: {prebuild}; or set PYTHONPYCACHEPREFIX to a writable folder")
    return Finding(name, "ok", f"writable: {folder}")


def _cannot_write(folder: str) -> str | None:
    """Why a file cannot be created in ``folder`` (or the folder in its nearest existing parent).

    Tried for real, as the import system will: permission bits do not tell
    about read-only mounts, ACLs or a privileged user.
    """
    existing = folder
    while not os.path.isdir(existing):
        parent = os.path.dirname(existing)
        if parent == existing or os.path.exists(existing):
            return f"{existing} is not a folder"
        existing = parent
    try:
        if existing == folder:
            handle, probe = tempfile.mkstemp(prefix=".tagstr-doctor-", dir=folder)
            os.close(handle)
            os.unlink(probe)
        else:
            os.rmdir(tempfile.mkdtemp(prefix=".tagstr-doctor-", dir=existing))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
