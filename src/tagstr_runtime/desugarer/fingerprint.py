"""Which desugarer produced a cached code object.

Cached bytecode of a module with tag strings embeds the desugarer's output, so
it must go stale when the desugarer changes, even if the version number was
not bumped (an editable install during development, a patched wheel).  The
fingerprint therefore hashes the version together with the size and the
modification time (in nanoseconds) of every source file whose change can
change the generated code or what it calls at run time, as CPython's own pycs
go stale with their source's: a file edited, replaced or reinstalled gets a
new time.  It reads the files' bytes only where they have no time of their
own (a zipped install).  Reading and hashing the 26 files, as it once did, cost
about 0.6 ms in every process importing a cached tag-string module (issue 42);
their times cost 26 ``stat`` calls.  It also names the form generated code
takes: with the compiled ``_speedups`` (``_rt.SPEEDUPS``) or without
(docs/decisions/0037-the-cache-fingerprint.md).

It is computed lazily, once per process, and only when a module with tag
strings is imported: plain modules never pay for it.  CRC-32 (from ``zlib``,
a sub-millisecond import) rather than ``hashlib`` (which loads OpenSSL): the
cache needs change detection, not collision resistance, and eight hex digits
in a file name hold exactly 32 bits.
"""

# no ``from __future__ import annotations``: it imports ``__future__``, in every process
# that loads a cached tag-string module
import os
import sys

__all__ = ["DESUGARER_FILES", "fingerprint", "speedups_abi"]

#: Files whose bytes decide the generated code or what it calls at run time.
#: ``tests/tagstr_runtime/test_cache.py`` checks that this list is complete: every
#: ``tagstr_runtime`` module loaded while a tag-string module is compiled and
#: run must be listed (``run/compile.py`` chooses flags and the fallback path).
DESUGARER_FILES = (
    "desugarer/__init__.py",
    "desugarer/cpython.py",
    "desugarer/desugaring.py",
    "desugarer/emit.py",
    "desugarer/field_texts.py",
    "desugarer/first_error.py",
    "desugarer/fstring_twin.py",
    "desugarer/generator.py",
    "desugarer/interpolation_call.py",
    "desugarer/placeholder.py",
    "desugarer/repeated_warnings.py",
    "desugarer/scope_tables.py",
    "desugarer/scopes.py",
    "desugarer/sites.py",
    "run/__init__.py",
    "run/compile.py",
    "run/inspect_source.py",
    "syntax/__init__.py",
    "syntax/errors.py",
    "syntax/escapes.py",
    "syntax/model.py",
    "syntax/named_escapes.py",
    "syntax/parser.py",
    "syntax/source.py",
    "syntax/words.py",
    "_rt.py",
    "_types.py",
)

_cached: str | None = None


def fingerprint() -> str:
    """Eight hex digits naming this exact desugarer (version plus sources)."""
    global _cached
    if _cached is None:
        _cached = _compute()
    return _cached


def _compute() -> str:
    from zlib import crc32

    package = sys.modules["tagstr_runtime"]
    version = str(getattr(package, "__version__", "unknown"))
    crc = crc32(f"{version}\0speedups {speedups_abi()}".encode())
    here = os.path.dirname(os.path.dirname(__file__))  # the package: the names are relative to it
    for name in DESUGARER_FILES:
        path = os.path.join(here, *name.split("/"))
        stamp = _stamp(path)
        if stamp is not None:
            crc = crc32(f"{name}\0{stamp[0]}\0{stamp[1]}".encode(), crc)
            continue
        data = _read(path)
        if data is None:
            continue
        crc = crc32(name.encode() + b"\0" + len(data).to_bytes(8, "little"), crc)
        crc = crc32(data, crc)
    return f"{crc:08x}"


def speedups_abi() -> int:
    """``_rt.SPEEDUPS``, without importing ``_rt``: the fingerprint may be asked for while
    ``_rt`` itself is being imported (a loader naming its cache), and the runtime emitter,
    which writes the form of code it says, is below the code's runtime."""
    rt = sys.modules.get("tagstr_runtime._rt")
    if rt is not None and hasattr(rt, "SPEEDUPS"):
        return int(rt.SPEEDUPS)
    if os.environ.get("TAGSTR_PURE_PYTHON", "") not in ("", "0"):
        return 0
    try:
        from tagstr_runtime import _speedups
    except ImportError:
        return 0
    return int(_speedups.ABI)


def _stamp(path: str) -> tuple[int, int] | None:
    """The file's size and modification time (ns); ``None`` where it has none (in a zip)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def _read(path: str) -> bytes | None:
    """The file's bytes through our own loader, so a zipped install hashes too."""
    loader = globals().get("__loader__")
    get_data = getattr(loader, "get_data", None)
    try:
        if get_data is not None:
            data = get_data(path)
            return data if isinstance(data, bytes) else None
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None
