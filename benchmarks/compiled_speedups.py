"""The optional compiled ``tagstr_runtime._speedups`` for the interpreter running a benchmark.

The benchmarks put the checkout's ``src/`` first on ``sys.path``; an editable
install compiles the module there, a plain checkout may not have it yet.
``ensure()`` compiles it in place (``hatch_build.compile_speedups``) where a C
compiler exists, unless ``TAGSTR_PURE_PYTHON`` asks for the pure-Python runtime,
and says which runtime is measured.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ensure(src: Path = REPO / "src") -> str:
    """``"compiled"`` or ``"pure Python"``: the runtime the benchmark measures."""
    if os.environ.get("TAGSTR_PURE_PYTHON", "") not in ("", "0"):
        return "pure Python (TAGSTR_PURE_PYTHON)"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    if (src / "tagstr_runtime" / f"_speedups{suffix}").is_file():
        return "compiled"
    if src.resolve() != (REPO / "src").resolve():
        return "pure Python (no _speedups built in that src/)"
    sys.path.insert(0, str(REPO))
    try:
        from hatch_build import PACKAGE, compile_speedups
    finally:
        sys.path.remove(str(REPO))
    built = compile_speedups(REPO, REPO / PACKAGE)
    return "compiled (built in src/ just now)" if built is not None else "pure Python (not built)"
