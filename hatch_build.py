"""Build hook: compile the optional ``tagstr_runtime._speedups`` where a C compiler exists.

hatchling runs ``SpeedupsHook`` for every wheel (``[tool.hatch.build.targets.wheel.hooks.custom]``
in pyproject.toml).  Where the running interpreter's C compiler works, the wheel carries
``tagstr_runtime/_speedups<EXT_SUFFIX>`` and is tagged for that interpreter and platform;
anywhere else (no compiler, Windows without one on ``PATH``, ``TAGSTR_PURE_PYTHON=1``) the
build goes on and the wheel is the pure ``py3-none-any`` one, whose runtime is complete
(``_rt`` falls back to the Python class).  A failed compile is a warning, never a failed
install: markupsafe's ``_speedups`` is the model.

An editable install compiles in place (``src/tagstr_runtime/``, git-ignored), where the
editable path finds it; ``python hatch_build.py`` does the same for the interpreter running
it (benchmarks put ``src/`` first on ``sys.path``).

The compile is reproducible (``tools/check_dist.py`` compares the wheel built from the sdist
with the one built from the tree byte for byte): the source is named relative to its folder
and no debug information is written, so no build path ends up in the binary.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

# a build: hatchling is importable; run as a script (in-place build) it need not be
try:
    from hatchling.builders.hooks.plugin.interface import (  # type: ignore[import-not-found, unused-ignore]
        BuildHookInterface,
    )
except ImportError:  # pragma: no cover - only outside a build
    BuildHookInterface = object  # type: ignore[assignment, misc, unused-ignore]

PACKAGE = Path("src", "tagstr_runtime")
SOURCE = "_speedups.c"
#: set (to anything but "" or "0") for a pure-Python wheel even where a compiler exists
PURE_ENV = "TAGSTR_PURE_PYTHON"


def wants_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compile_speedups(root: Path, out_dir: Path) -> Path | None:
    """``_speedups<EXT_SUFFIX>`` compiled for the running interpreter into ``out_dir``;
    ``None`` (with the reason on stderr) where that cannot be done."""
    config = sysconfig.get_config_vars()
    cc, ldshared, suffix = config.get("CC"), config.get("LDSHARED"), config.get("EXT_SUFFIX")
    include = sysconfig.get_paths().get("include")
    if not (cc and ldshared and suffix and include) or sys.implementation.name != "cpython":
        _warn("no C compiler configured for this interpreter")
        return None
    source_dir = root / PACKAGE
    if not (source_dir / SOURCE).is_file():
        _warn(f"{source_dir / SOURCE} is missing")
        return None
    compiler = shlex.split(str(cc))
    if shutil.which(compiler[0]) is None:
        _warn(f"{compiler[0]} not found")
        return None
    cflags = shlex.split(str(config.get("CFLAGS") or "")) + shlex.split(str(config.get("CCSHARED") or ""))
    target = out_dir / f"_speedups{suffix}"
    with tempfile.TemporaryDirectory(prefix="tagstr-speedups-") as tmp:
        obj = Path(tmp) / "_speedups.o"
        commands = [
            # relative source name, no debug information: no build path in the binary
            [*compiler, *cflags, "-O2", "-g0", f"-I{include}", "-c", SOURCE, "-o", str(obj)],
            [*shlex.split(str(ldshared)), str(obj), "-o", str(target)],
        ]
        for command in commands:
            try:
                done = subprocess.run(command, cwd=source_dir, capture_output=True, text=True, check=False)
            except OSError as exc:
                _warn(str(exc))
                return None
            if done.returncode:
                _warn(f"{' '.join(command)} failed:\n{done.stderr.strip()}")
                target.unlink(missing_ok=True)
                return None
    return target


def _warn(reason: str) -> None:
    print(f"tagstr_runtime._speedups not built ({reason}): the pure-Python runtime is used", file=sys.stderr)


class SpeedupsHook(BuildHookInterface):  # type: ignore[misc, valid-type, unused-ignore]
    """Adds the compiled module to the wheel, or leaves the wheel pure."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or wants_pure():
            return
        root = Path(self.root)
        if version == "editable":  # found in place by the editable path
            compile_speedups(root, root / PACKAGE)
            return
        out_dir = Path(self.directory) / ".speedups"
        out_dir.mkdir(parents=True, exist_ok=True)
        built = compile_speedups(root, out_dir)
        if built is None:
            return
        build_data["force_include"][str(built)] = f"tagstr_runtime/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        shutil.rmtree(Path(self.directory) / ".speedups", ignore_errors=True)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    made = compile_speedups(here, here / PACKAGE)
    print(made if made is not None else "not built")
    sys.exit(0 if made is not None else 1)
