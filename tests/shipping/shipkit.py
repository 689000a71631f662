"""The sample library, its build configurations and the helpers of tests/shipping (fixtures: conftest.py).

A module of its own name: ``conftest`` is ambiguous on ``sys.path`` when several test folders run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: the consumer's tools: installed into its venv, never next to our plugins
CONSUMER_TOOLS = ["mypy>=2.0,<2.5", "typeguard>=4.4", "beartype>=0.21", "pytest>=8", "pyinstaller>=6.10"]
#: pip versions whose install and uninstall are checked: the one CPython 3.11's ensurepip
#: brings, the one 3.13.0's brings (24.2), and the newest
PIP_VERSIONS = ["23.2.1", "24.2", "latest"]

#: the line of ``boom``'s tag string in views.py, for tracebacks
BOOM_LINE = 21

LIBRARY = {
    "src/shiplib/__init__.py": '''\
        """Ship library: tag strings shipped as plain Python."""

        from shiplib.tags import html

        __version__ = "1.2.0"
        BANNER = html"<b>shiplib {__version__}</b>"
    ''',
    "src/shiplib/tags.py": '''\
        """The tags: escaped HTML, and the values of the fields."""

        from __future__ import annotations

        from html import escape
        from typing import TypeVar

        from tagstr_runtime import Decoded, Interpolation, format_value

        T = TypeVar("T")


        def html(*args: Decoded | Interpolation[object]) -> str:
            return "".join(
                arg if isinstance(arg, Decoded) else escape(format_value(arg.getvalue(), arg.conv, arg.format_spec))
                for arg in args
            )


        def values(*args: Decoded | Interpolation[T]) -> list[T]:
            return [arg.getvalue() for arg in args if isinstance(arg, Interpolation)]
    ''',
    "src/shiplib/views.py": '''\
        """Views with tag strings in functions, f-strings and format specs."""

        from __future__ import annotations

        from shiplib.tags import html, values


        def page(user: str) -> str:
            return html"<p>{user!r:>12}</p>"


        def numbers(n: int) -> list[int]:
            return values"{n} and {n + 1}"


        def table(width: int) -> str:
            return f'<table>{html"<td>{width:>{width}}</td>"}</table>'


        def boom(user: str) -> str:
            return html"<p>{len(user) // len(user[:0])}</p>"


        def check(n: int) -> str:
            return html"<i>{n:03}</i>"
    ''',
    "src/shiplib/cli.py": '''\
        import sys

        from shiplib import BANNER
        from shiplib.views import numbers, page, table


        def main() -> None:
            print(BANNER, page(sys.argv[1] if len(sys.argv) > 1 else "<world>"), numbers(2), table(3))
    ''',
    "src/shiplib/py.typed": "",
}
PROJECT = '''\
    [project]
    name = "shiplib"
    dependencies = ["tagstr-toolkit"]
    requires-python = ">=3.11"
    {dynamic}

    [project.scripts]
    shiplib = "shiplib.cli:main"
'''
BACKENDS = {
    "hatchling": ('["hatchling>=1.27", "tagstr-toolkit"]', "hatchling.build", 'dynamic = ["version"]', '''
        [tool.hatch.version]
        path = "src/shiplib/__init__.py"

        [tool.hatch.build.hooks.tagstr]
    '''),
    "setuptools": ('["setuptools>=69", "tagstr-toolkit"]', "setuptools.build_meta", 'dynamic = ["version"]', '''
        [tool.setuptools.dynamic]
        version = {attr = "shiplib.__version__"}

        [tool.setuptools.cmdclass]
        build_py = "tagstr_runtime.shipping.setuptools_command.build_py"
    '''),
    "flit": ('["flit_core>=3.9", "tagstr-toolkit"]', "tagstr_runtime.shipping.backend",
             'dynamic = ["version", "description"]', '''
        [tool.tagstr]
        build-backend = "flit_core.buildapi"

        [tool.flit.module]
        name = "shiplib"
    '''),
    "raw": ('["hatchling>=1.27"]', "hatchling.build", 'dynamic = ["version"]', '''
        [tool.hatch.version]
        path = "src/shiplib/__init__.py"
    '''),
}


def write_project(folder: Path, backend: str, files: dict[str, str] = LIBRARY) -> Path:
    requires, build_backend, dynamic, tool = BACKENDS[backend]
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    pyproject = (f'[build-system]\nrequires = {requires}\nbuild-backend = "{build_backend}"\n\n'
                 + textwrap.dedent(PROJECT).format(dynamic=dynamic) + textwrap.dedent(tool))
    (folder / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return folder


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: none of the test run's Python or tagstr settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_", "PIP_", "VIRTUAL_ENV"))}
    env.update(extra)
    return env


def run(*args: object, cwd: Path | None = None, env: dict[str, str] | None = None,
        check: bool = True, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(arg) for arg in args], cwd=cwd, env=clean_env() if env is None else env,
                          capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def pip_env() -> dict[str, str]:
    return clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1")


def build_wheel(project: Path, out: Path) -> Path:
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", out, ".",
        cwd=project, env=clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1"))
    (wheel,) = out.glob("*.whl")
    return wheel


def venv(folder: Path) -> Path:
    run(sys.executable, "-m", "venv", folder)
    return folder / "bin" / "python"


def site_packages(python: Path) -> Path:
    return Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())


def consumers_wanted() -> None:
    """The consumer venv installs real tools from the index: once per CI run, on one Python."""
    if os.environ.get("TAGSTR_CONSUMER_TESTS") != "1" and sys.version_info[:2] != (3, 12):
        pytest.skip("the consumer tools run once per CI run, on Python 3.12 (TAGSTR_CONSUMER_TESTS=1: here too)")
