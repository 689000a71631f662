"""``python -m tagstr_runtime --compile PATH...``: pre-build the import hook's cache for a tree.

``python -m compileall`` (Docker images, distribution packages) stops with a
``SyntaxError`` on a module with tag strings, and a read-only install would
then desugar such modules at every start.  This command writes, for each
module the builtin ``compile`` rejects, exactly the
``__pycache__/<name>.<tag>.tagstr-<fingerprint>.pyc`` the import hook would
write on first import (timestamp-checked, like the pyc ``import`` writes), and
leaves every other module to ``compileall``; run both in a build step::

    python -m compileall -q -x '<names of tag-string modules>' src/   # or ignore its exit code
    python -m tagstr_runtime --compile src/

It reports each file it cannot compile (CPython's error, or the tag string's)
and exits 1 if there was one, 0 otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence

__all__ = ["EXCLUDED_FOLDERS", "compile_tree", "python_files"]

#: folders a source walk leaves out, as black, ruff and flake8 do by default: tools' caches,
#: virtual environments, build output, version control (a folder named on the command line
#: is walked all the same)
EXCLUDED_FOLDERS = frozenset([
    ".bzr", ".direnv", ".eggs", ".git", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox", ".pants.d",
    ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".vscode", "__pycache__",
    "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
])


def python_files(
    paths: Sequence[str], *, exclude: frozenset[str] = frozenset(["__pycache__"]), environments: bool = True
) -> Iterator[str]:
    """The ``.py`` files named or under the folders named, in a stable order.  A folder found on
    the way is left out when its name is in ``exclude`` (``EXCLUDED_FOLDERS`` for the usual
    ones), or, without ``environments``, when it holds a ``pyvenv.cfg`` (a virtual environment
    under another name)."""
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs
                    if d not in exclude
                    and (environments or not os.path.isfile(os.path.join(folder, d, "pyvenv.cfg")))
                )
                yield from (os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
        else:
            yield path


def compile_tree(paths: Sequence[str], *, quiet: bool = False) -> int:
    """Write the cache of every tag-string module under ``paths``; 1 if any failed."""
    import _frozen_importlib_external as bootstrap

    from tagstr_runtime.run.compile import compile_source
    from tagstr_runtime._importhook import tag_cache_path
    from tagstr_runtime.run.cache_record import cache_written as record_cache

    status = 0
    for path in python_files(paths):
        try:
            with open(path, "rb") as file:
                source = file.read()
            stat = os.stat(path)
        except OSError as exc:
            print(f"can't read {path}: {exc}", file=sys.stderr)
            status = 1
            continue
        try:
            compile(source, path, "exec", dont_inherit=True)
            continue  # standard Python: compileall's to cache
        except (SyntaxError, MemoryError) as exc:
            standard_error = exc
        try:
            code = compile_source(source, path, "exec", 0, True, -1, standard_error)
        except SyntaxError as exc:
            print(f"{exc.filename}:{exc.lineno}:{exc.offset}: {type(exc).__name__}: {exc.msg}", file=sys.stderr)
            status = 1
            continue
        target = tag_cache_path(path)
        if target is None:
            continue
        data = bootstrap._code_to_timestamp_pyc(code, stat.st_mtime, stat.st_size)  # type: ignore[attr-defined]
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            bootstrap._write_atomic(target, data, bootstrap._calc_mode(path))  # type: ignore[attr-defined]
        except OSError as exc:
            print(f"can't write {target}: {exc}", file=sys.stderr)
            status = 1
            continue
        record_cache(path, target)  # in an installed package: uninstalled with it
        if not quiet:
            print(f"{path} -> {target}")
    return status
