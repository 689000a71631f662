"""What one module becomes in a wheel: itself, or its shipped plain-Python form.

A module that stock Python compiles is shipped as it is (SPEC 1.8: it has no
tag strings), byte for byte.  One that does not, and has tag strings, is
shipped as ``desugarer.shipped`` writes it, in its own encoding, checked to
compile and to keep its line count.  A malformed tag string stops the build
with its position: the module would fail at every import.  A module without
tag strings that this Python cannot compile (syntax of a newer Python) is
left alone, as a stock build leaves it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

__all__ = ["RUNTIME_DISTRIBUTION", "ShipError", "missing_runtime", "runtime_requirement", "shipped_module"]

#: the distribution that holds ``tagstr_runtime``: what shipped code needs installed
RUNTIME_DISTRIBUTION = "tagstr-toolkit"
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_builtin_compile = compile


class ShipError(Exception):
    """A module that cannot be shipped: the message names the file, line and column, and the fix."""


def shipped_module(data: bytes, path: str) -> bytes | None:
    """The bytes to ship for the module ``data`` read from ``path``; ``None``: ship it as it is."""
    try:
        _builtin_compile(data, path, "exec", dont_inherit=True)
        return None
    except (SyntaxError, MemoryError, ValueError) as exc:
        standard = exc
    from tokenize import detect_encoding

    from tagstr_runtime.desugarer.shipped import ship
    from tagstr_runtime.syntax.errors import TagSyntaxError
    from tagstr_runtime.syntax.parser import Broken, scan
    from tagstr_runtime.syntax.source import decode_source

    try:
        encoding, _ = detect_encoding(io.BytesIO(data).readline)
        text = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None  # CPython's error to report, at import, as without us
    found = scan(text, path, template_strings=False)
    if not isinstance(found, Broken) and not found.tag_strings:
        return None
    try:
        shipped = ship(data, path)
    except TagSyntaxError as exc:
        raise ShipError(f"{_where(path, exc)}: {exc.msg}") from None
    except SyntaxError as exc:
        raise ShipError(
            f"{_where(path, exc)}: {exc.msg} (building with the Python this module is written for "
            f"may help; this is Python {_python()}; CPython says: {standard})"
        ) from None
    if encoding == "utf-8-sig":
        out = b"\xef\xbb\xbf" + shipped.encode("utf-8")
    else:
        out = shipped.encode(encoding, "backslashreplace")  # only generated string literals can need it
    try:
        _builtin_compile(out, path, "exec", dont_inherit=True)
    except SyntaxError as exc:  # a bug of ours: never ship a module that cannot be imported
        raise ShipError(f"{_where(path, exc)}: the shipped form does not compile ({exc.msg}): "
                        "please report this as a bug of tagstr-toolkit") from None
    if shipped.count("\n") != text.count("\n"):
        raise ShipError(f"{path}: the shipped form moved lines: please report this as a bug of tagstr-toolkit")
    return out


def _where(path: str, exc: SyntaxError) -> str:
    return f"{path}:{exc.lineno or 1}:{exc.offset or 1}"


def _python() -> str:
    import sys

    return ".".join(map(str, sys.version_info[:2]))


def runtime_requirement() -> str:
    """The requirement to add to a project's dependencies: this version or later."""
    from tagstr_runtime import __version__

    return f"{RUNTIME_DISTRIBUTION}>={__version__}"


def missing_runtime(requirements: Iterable[str]) -> str | None:
    """The error for a project whose shipped modules need ``tagstr_runtime`` and whose
    dependencies do not name it; ``None`` if they do (with any version, any marker)."""
    for requirement in requirements:
        match = _NAME.match(requirement)
        if match and re.sub(r"[-_.]+", "-", match[1]).lower() == RUNTIME_DISTRIBUTION:
            return None
    return (f"the shipped modules import tagstr_runtime at run time: add \"{runtime_requirement()}\" "
            "to the dependencies in [project] of pyproject.toml")
