"""``python -m tagstr_runtime --ship [--out DIR | --in-place] PATH...``: a tree written out shipped.

For what builds no wheel: an application frozen by PyInstaller (or Nuitka,
cx_Freeze, briefcase), a container image, a zipapp.  Each file or folder
named is copied under ``--out`` (by its last name), every module with tag
strings in its shipped plain-Python form (``shipping.modules``), every other
file byte for byte (``__pycache__`` folders are left out); ``--in-place``
rewrites the modules where they are (a build step on a copy, never on a
checkout).  Prints one line per shipped module; exits 1 with the error of
each module that cannot be shipped, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Iterator, Sequence

__all__ = ["main", "ship_file"]

_SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".hg", ".tox", ".nox", ".venv", ".mypy_cache", ".pytest_cache"})


def ship_file(source: str, target: str) -> bool:
    """Write ``source`` shipped to ``target`` (the same path: in place); ``True`` if it had tag strings."""
    from tagstr_runtime.shipping.modules import shipped_module

    with open(source, "rb") as file:
        data = file.read()
    shipped = shipped_module(data, source) if source.endswith((".py", ".pyw")) else None
    if shipped is None:
        if os.path.abspath(source) != os.path.abspath(target):
            shutil.copy2(source, target)
        return False
    with open(target, "wb") as file:
        file.write(shipped)
    if os.path.abspath(source) != os.path.abspath(target):
        shutil.copystat(source, target)
        os.utime(target)  # newer than any pyc of the original
    return True


def _files(root: str) -> Iterator[str]:
    """The files under ``root`` (a file: itself), relative to it, in a stable order."""
    if not os.path.isdir(root):
        yield ""
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        relative = os.path.relpath(folder, root)
        for name in sorted(files):
            yield os.path.normpath(os.path.join(relative, name))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_runtime --ship",
        description="Write files and folders with every module that has tag strings in its plain-Python "
        "form (same lines; needs only tagstr-toolkit at run time), for freezing, bundling and images.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--out", metavar="DIR", help="write each PATH under DIR (by its last name)")
    where.add_argument("--in-place", action="store_true", help="rewrite the modules where they are")
    args = parser.parse_args(argv)
    from tagstr_runtime.shipping.modules import ShipError

    failed = False
    for path in args.paths:
        if not os.path.exists(path):
            parser.error(f"no such file or folder: {path}")
        root = os.path.normpath(path)
        out_root = root if args.in_place else os.path.join(args.out, os.path.basename(os.path.abspath(root)))
        for relative in _files(root):
            source = os.path.join(root, relative) if relative else root
            target = os.path.join(out_root, relative) if relative else out_root
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
            try:
                if ship_file(source, target):
                    print(f"shipped {target}")
            except ShipError as exc:
                print(f"error: {exc}", file=sys.stderr)
                failed = True
    return 1 if failed else 0
