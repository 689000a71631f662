"""Which desugarer produced a cached code object.

Cached bytecode of a module with tag strings embeds the desugarer's output, so
it must go stale when the desugarer changes, even if the version number was
not bumped (an editable install during development, a patched wheel).  The
fingerprint therefore hashes the version together with the bytes of every
source file whose change can change the generated code or what it calls at
run time.

It is computed lazily, once per process, and only when a module with tag
strings is imported: plain modules never pay for it.  CRC-32 (from ``zlib``,
a sub-millisecond import) rather than ``hashlib`` (which loads OpenSSL): the
cache needs change detection, not collision resistance, and eight hex digits
in a file name hold exactly 32 bits.
"""

from __future__ import annotations

import os
import sys

__all__ = ["DESUGARER_FILES", "fingerprint"]

#: Files whose bytes decide the generated code or what it calls at run time.
#: ``tests/tagstr_runtime/test_cache.py`` checks that this list is complete: every
#: ``tagstr_runtime`` module loaded while a tag-string module is compiled and
#: run must be listed (``run/compile.py`` chooses flags and the fallback path).
DESUGARER_FILES = (
    "analysis/__init__.py",
    "analysis/scope_tables.py",
    "analysis/scopes.py",
    "analysis/sites.py",
    "desugarer/__init__.py",
    "desugarer/cpython.py",
    "desugarer/desugaring.py",
    "desugarer/emit.py",
    "desugarer/field_texts.py",
    "desugarer/first_error.py",
    "desugarer/fstring_twin.py",
    "desugarer/generator.py",
    "desugarer/placeholder.py",
    "desugarer/repeated_warnings.py",
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
    crc = crc32(version.encode())
    here = os.path.dirname(__file__)
    for name in DESUGARER_FILES:
        data = _read(os.path.join(here, *name.split("/")))
        if data is None:
            continue
        crc = crc32(name.encode() + b"\0" + len(data).to_bytes(8, "little"), crc)
        crc = crc32(data, crc)
    return f"{crc:08x}"


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
