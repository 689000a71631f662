"""The import hook's cache files in installed packages: recorded for uninstall, or said to be missing.

Called right after the import hook (or ``--compile``) asked for the cache of a
freshly desugared module to be written, ``__pycache__/m.cpython-3XY.tagstr-<fp>.pyc``:

- *Written, in an installed distribution*: the file is appended to that
  distribution's ``RECORD`` (without hash or size, as the spec allows for files
  made after installation, like pycs).  ``pip uninstall`` removes the files
  ``RECORD`` lists, each ``.py``'s standard pyc, and a folder only when it
  lists every file in it: without the line, the cache kept ``__pycache__``
  and the package folder alive, an empty namespace package that still
  imported.  (uv removes ``__pycache__`` folders itself; the line is harmless there.)
- *Not written* (a read-only install: a container running as another user,
  a read-only mount): the module is desugared again at every start.  One
  ``CacheWarning`` per process says where and gives the fix; CPython drops
  its own pycs silently, but a tag-string module costs 5-10x a pyc to load.

Never raises: an import must not fail for a cache.
"""

from __future__ import annotations

import csv
import os
import sys
import warnings

__all__ = ["CacheWarning", "cache_written", "installation_of"]


class CacheWarning(RuntimeWarning):
    """Modules with tag strings are desugared at every start: their cache cannot be written."""


#: installation folder -> {path RECORD lists, relative, "/"-separated: that RECORD's path}
_INDEX: dict[str, dict[str, str]] = {}
_warned = False


def cache_written(source_path: str, cache_path: str) -> None:
    """Record ``cache_path`` in the ``RECORD`` of the distribution that installed ``source_path``,
    or warn once if it was not written."""
    try:
        if os.path.exists(cache_path):
            _record(source_path, cache_path)
        else:
            _warn(source_path, cache_path)
    except Exception:  # noqa: BLE001 - never fail an import for a cache
        if os.environ.get("TAGSTR_STRICT") == "1":
            raise


def installation_of(source_path: str) -> tuple[str, str] | None:
    """``(installation folder, RECORD path)`` of the distribution that installed ``source_path``."""
    source = os.path.abspath(source_path)
    for entry in sorted({os.path.abspath(p) for p in sys.path if p}, key=len, reverse=True):
        if not source.startswith(entry + os.sep):
            continue
        index = _INDEX.get(entry)
        if index is None:
            index = _INDEX[entry] = _read_records(entry)
        record = index.get(os.path.relpath(source, entry).replace(os.sep, "/"))
        if record is not None:
            return entry, record
    return None


def _read_records(folder: str) -> dict[str, str]:
    """Every path listed by the ``RECORD`` of each distribution installed in ``folder``."""
    found: dict[str, str] = {}
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".dist-info")]
    except OSError:
        return found
    for name in names:
        record = os.path.join(folder, name, "RECORD")
        try:
            with open(record, encoding="utf-8", newline="") as file:
                for row in csv.reader(file):
                    if row:
                        found.setdefault(os.path.normpath(row[0]).replace(os.sep, "/"), record)
        except (OSError, csv.Error, UnicodeDecodeError):
            continue
    return found


def _record(source_path: str, cache_path: str) -> None:
    installed = installation_of(source_path)
    if installed is None:
        return
    folder, record = installed
    line = os.path.relpath(os.path.abspath(cache_path), folder).replace(os.sep, "/")
    index = _INDEX[folder]
    if index.get(line) == record:
        return
    with open(record, "rb+") as file:
        file.seek(0, os.SEEK_END)
        if file.tell():
            file.seek(-1, os.SEEK_END)
            needs_newline = file.read(1) != b"\n"
        else:
            needs_newline = False
        text = _row(line)
        file.write((("\n" if needs_newline else "") + text).encode("utf-8"))
    index[line] = record


def _row(path: str) -> str:
    """One ``RECORD`` row without hash and size, quoted as the csv module quotes it."""
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([path, "", ""])
    return out.getvalue()


def _warn(source_path: str, cache_path: str) -> None:
    global _warned
    if _warned or sys.dont_write_bytecode:
        return
    _warned = True
    installed = installation_of(source_path)
    if installed:  # the installed package's top folder
        relative = os.path.relpath(os.path.abspath(source_path), installed[0])
        where = os.path.join(installed[0], relative.split(os.sep)[0])
    else:
        where = os.path.dirname(os.path.abspath(source_path))
    message = (
        f"modules with tag strings under {where} are desugared at every start: their cache cannot be "
        f"written to {os.path.dirname(cache_path)}. Write it once where it can be (e.g. when the image is "
        f"built): python -m tagstr_runtime --compile {where}; or install packages built with the tagstr "
        "build hook (docs/shipping.md)"
    )
    try:
        warnings.warn_explicit(message, CacheWarning, where, 0)
    except Exception:  # noqa: BLE001 - "-W error": the import must not fail for a cache
        pass
