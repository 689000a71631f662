"""Whether plain modules keep CPython's loader and finder types here (issue 36), tried for real.

distlib, vendored by pip and standalone, looks a package's resource finder up
by the exact type of its loader, and a folder's by the type of its finder;
pip 24.1 and 24.2 do so at import (every pip on Windows), so a start-up hook
that gives plain modules another loader type breaks every later ``pip
install``.  A fresh interpreter of this environment, with this interpreter's
options, imports a plain package from a temporary folder and reports: a
module whose loader is a subclass of ``SourceFileLoader`` although its source
is standard Python (ours, or another start-up hook's), a folder whose finder
is a subclass of ``FileFinder``, and the error of distlib's ``finder()`` for
pip's copy and a standalone one, where installed.
"""

from __future__ import annotations

import json

from tagstr_runtime.doctor.install import install_command
from tagstr_runtime.doctor.interpreter import run_probe
from tagstr_runtime.doctor.report import Finding

__all__ = ["loader_types"]

_PROBE = '''\
import importlib, importlib.machinery as machinery, importlib.util, json, os, sys
folder = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "lib")
os.makedirs(os.path.join(folder, "tagstr_doctor_plain"))
with open(os.path.join(folder, "tagstr_doctor_plain", "__init__.py"), "w") as file:
    file.write("VALUE = 1\\n")
sys.path.insert(0, folder)
import tagstr_doctor_plain
problems = []  # [what, the module of the type at fault]
for package in ("pip._vendor.distlib", "distlib"):
    try:
        if importlib.util.find_spec(package.partition(".")[0]) is None:
            continue
        importlib.import_module(package + ".resources").finder(package)
    except Exception as exc:
        loader = type(getattr(sys.modules.get(package), "__loader__", None))
        problems.append([f"{package}.resources.finder({package!r}) fails: {type(exc).__name__}: {exc}",
                         loader.__module__])
for name, module in sorted(sys.modules.items()):
    spec = getattr(module, "__spec__", None)
    for loader in (getattr(module, "__loader__", None), getattr(spec, "loader", None)):
        kind = type(loader)
        if not isinstance(loader, machinery.SourceFileLoader) or kind is machinery.SourceFileLoader:
            continue
        try:
            compile(loader.get_data(loader.path), loader.path, "exec", dont_inherit=True)
        except Exception:
            continue  # not standard Python (tag strings): a loader of its own is expected
        problems.append([f"module {name} (no tag strings) has the loader {kind.__module__}.{kind.__qualname__}",
                         kind.__module__])
        break
for path, finder in list(sys.path_importer_cache.items()):
    kind = type(finder)
    if isinstance(finder, machinery.FileFinder) and kind is not machinery.FileFinder:
        problems.append([f"{path} has the finder {kind.__module__}.{kind.__qualname__}", kind.__module__])
print(json.dumps(problems))
'''


def loader_types() -> Finding:
    name = "loaders"
    done = run_probe(_PROBE)
    if isinstance(done, str) or done.returncode != 0:
        why = done if isinstance(done, str) else (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Finding(name, "warning", f"could not be checked: {why}")
    try:
        problems = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Finding(name, "warning", f"could not be checked: {done.stdout.strip()[-200:]!r}")
    if not problems:
        return Finding(name, "ok", "plain modules keep CPython's loader and finder types (pip's distlib works)")
    owners = sorted({owner for _what, owner in problems if owner.partition(".")[0] != "_frozen_importlib_external"})
    if any(owner.startswith("tagstr_runtime") for owner in owners):
        fix = f"upgrade tagstr-toolkit: {install_command()}"
    else:
        named = f" ({', '.join(owners)})" if owners else ""
        fix = f"find the start-up hook{named} that gives plain modules loaders of its own: a .pth file or sitecustomize"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return Finding(name, "error", f"{problems[0][0]}{more}: code that looks loaders up by type fails (pip install, "
                   "distlib)", fix)
