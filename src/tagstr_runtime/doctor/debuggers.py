"""Whether debuggers run and evaluate code with tag strings here (issue 36), tried for real.

VS Code's "Run and Debug" starts ``python <its debugpy folder> ... script.py``
(pdb, PyCharm's pydevd and the profilers likewise name themselves on the
command line), and debugpy compiles the script and the Debug Console's input
with the builtins.  The start-up hook installs its compile hook in such a
process (``_autostart``).  The probe is a fresh interpreter started as
VS Code's launcher starts one (a folder named ``debugpy`` whose
``__main__.py`` runs the script with ``runpy``, as debugpy does) on a script
whose tag string also goes through ``eval``, as the Debug Console's hover
does.  debugpy itself need not be installed: VS Code brings its own.
"""

from __future__ import annotations

import os
import sys

from tagstr_runtime.doctor.interpreter import interpreter_flags, run_probe, startup_hook
from tagstr_runtime.doctor.report import Finding

__all__ = ["debuggers"]

_PROBE = "def probe(*args):\n    return 'on'\n\nprint(probe'', eval(\"probe''\"))\n"


def debuggers() -> Finding:
    name = "debuggers"
    python = " ".join(["python", *interpreter_flags()])
    recipe = ('where they run without the start-up hook, have them run python -m tagstr_runtime: launch.json '
              '"module": "tagstr_runtime", "args": ["${file}"] (docs/recipes.md#vs-code)')
    if startup_hook().status != "ok":
        return Finding(name, "note", "off with the start-up hook: debugpy (VS Code's Run and Debug), pdb and "
                       "pydevd fail on a script with tag strings", f"turn the start-up hook on, or {recipe}")
    done = run_probe(_PROBE, launcher=os.path.join("debugpy", "__main__.py"))
    if not isinstance(done, str) and done.returncode == 0 and done.stdout == "on on\n":
        return Finding(name, "ok", "debugpy (VS Code's Run and Debug), `python -m pdb` and pydevd run scripts with "
                       "tag strings, and their consoles evaluate them")
    if sys.flags.isolated:
        return Finding(name, "warning", f"off under -I: `{python} -m debugpy|pdb script.py` fails on a script "
                       "with tag strings (isolated mode leaves script runs to CPython)",
                       f"run {python} -m tagstr_runtime -m pdb script.py, or python without -I")
    why = done if isinstance(done, str) else (done.stderr.strip().splitlines() or ["no output"])[-1]
    return Finding(name, "warning", f"off: debugpy (VS Code's Run and Debug) and pdb fail on a script with tag "
                   f"strings ({why})", recipe)
