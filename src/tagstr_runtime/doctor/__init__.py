"""``python -m tagstr_runtime doctor``: is everything on, here?

Answers the first question after installing, for the interpreter it runs in
and the folder it runs from (where mypy, flake8 and coverage would look for
their configuration): the versions, the start-up hook, the bytecode cache of
the checked code, the mypy and flake8 plugins, and the optional integrations.
Each problem comes with its one-line fix.  Exit status: 1 if something that
is set up cannot work (an ``error``), else 0; 2 for a usage error.

No probed tool is imported (``probe`` reads distribution metadata);
``tagstr_flake8``'s rule registry is (data only: not flake8), only when a
flake8 configuration has ``select`` or ``ignore`` to weigh against its
off-by-default codes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from tagstr_runtime.doctor import checkers as _checkers
from tagstr_runtime.doctor import debuggers as _debuggers
from tagstr_runtime.doctor import integrations as _integrations
from tagstr_runtime.doctor import interpreter as _environment
from tagstr_runtime.doctor import loaders as _loaders
from tagstr_runtime.doctor import packages as _packages
from tagstr_runtime.doctor.report import Finding, exit_status, render_json, render_text
from tagstr_runtime.support.patching import strict

__all__ = ["findings", "main"]


def findings(path: str) -> list[Finding]:
    """Every check, in the order a newcomer needs them; ``path`` is where the checked code lives."""
    here = os.getcwd()
    checks: list[tuple[str, Callable[[], Finding | list[Finding] | None]]] = [
        ("python", _environment.python_version),
        ("startup-hook", _environment.startup_hook),
        ("loaders", _loaders.loader_types),
        ("main-script", _environment.main_script),
        ("debuggers", _debuggers.debuggers),
        ("bytecode-cache", lambda: _environment.bytecode_cache(path)),
        ("installed-packages", _packages.installed_packages),
        ("mypy", lambda: _checkers.mypy_findings(here)),
        ("flake8", lambda: _checkers.flake8_findings(here)),
        ("pytest", _integrations.pytest),
        ("coverage", lambda: _integrations.coverage(here)),
        ("ipython", _integrations.ipython),
        ("pyright", lambda: _integrations.pyright(here)),
        ("formatters", _integrations.formatters),
    ]
    found: list[Finding] = []
    for name, check in checks:
        try:
            result = check()
        except Exception as exc:  # a doctor that crashes answers nothing: say which check failed
            if strict():
                raise
            result = Finding(name, "warning", f"could not be checked: {type(exc).__name__}: {exc}",
                             "please report this as a bug of tagstr-toolkit")
        found.extend(result if isinstance(result, list) else [result] if result else [])
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime doctor",
        description="Check that tag strings work in this environment: the start-up hook, the bytecode cache, "
        "and the mypy, flake8, pytest, coverage and IPython integrations, each problem with its fix. "
        "Exit status 1 if something that is set up cannot work.",
    )
    parser.add_argument("path", nargs="?", default=".",
                        help="the folder of the code to check (default: the current folder); tools' "
                        "configurations are looked up from the current folder, as the tools do")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON (for CI)")
    args = parser.parse_args(argv)
    path = args.path
    if not os.path.isdir(path):
        if not os.path.isfile(path):
            parser.error(f"no such file or folder: {path}")
        path = os.path.dirname(path) or "."
    import tagstr_runtime

    result = findings(path)
    package = os.path.dirname(os.path.abspath(tagstr_runtime.__file__))
    python = sys.version.split()[0]
    if args.json:
        facts = {"tagstr_toolkit": tagstr_runtime.__version__, "package": package,
                 "python": python, "executable": sys.executable, "path": os.path.abspath(path)}
        sys.stdout.write(render_json(facts, result))
    else:
        header = f"tagstr-toolkit {tagstr_runtime.__version__} ({package}), Python {python} ({sys.executable})"
        sys.stdout.write(render_text(header, result))
    return exit_status(result)
