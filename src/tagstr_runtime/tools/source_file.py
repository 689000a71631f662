"""Source files as the tool wrappers read and write them, byte for byte where nothing changes.

The parser works on normalised text (``\\n`` newlines, decoded by the coding
cookie); a formatter or a fixer must write back what the file had: its
encoding (BOM included), its newline style.  ``SourceFile`` keeps both sides:
``raw`` bytes, ``text`` to parse, and ``encode`` for text going back to disk
or to a tool.  ``check_tag_strings`` refuses what the runtime refuses.
``find_sources`` turns the command line's paths into files the
way black and ruff walk folders by default.
"""

from __future__ import annotations

import ast
import io
import os
from collections.abc import Iterator, Sequence
from tokenize import detect_encoding
from typing import NamedTuple

from tagstr_runtime.desugarer.desugaring import Desugaring
from tagstr_runtime.desugarer.emit import Emitter, Position, TagCall
from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.model import Field
from tagstr_runtime.syntax.source import decode_source

__all__ = ["SourceFile", "check_tag_strings", "find_sources"]

# Folders black and ruff skip by default when they walk a tree (besides hidden ones).
_SKIPPED = frozenset(
    "__pycache__ __pypackages__ _build buck-out build dist node_modules site-packages venv".split()
)


class SourceFile(NamedTuple):
    path: str
    raw: bytes
    text: str  # decoded, newlines normalised: what ``parse`` reads
    encoding: str  # "utf-8-sig" when the file starts with a BOM
    newline: str  # the file's first line ending, which formatters write throughout

    @classmethod
    def from_bytes(cls, path: str, raw: bytes) -> SourceFile:
        encoding, _ = detect_encoding(io.BytesIO(raw).readline)
        first = raw.split(b"\n", 1)[0]
        newline = "\r\n" if first.endswith(b"\r") and len(first) < len(raw) else "\n"
        return cls(path, raw, decode_source(raw), encoding, newline)

    @classmethod
    def read(cls, path: str) -> SourceFile:
        with open(path, "rb") as file:
            return cls.from_bytes(path, file.read())

    def encode(self, text: str) -> bytes:
        """Normalised ``text`` in this file's encoding and newline style."""
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return text.encode(self.encoding)

    def decode(self, data: bytes) -> str:
        """A tool's output for this file, normalised like ``text``."""
        return decode_source(data)


def check_tag_strings(text: str, filename: str) -> None:
    """Raise the ``TagSyntaxError`` the runtime raises for ``text``, if any.

    The parser accepts fields whose expression is malformed (``{a b}``,
    ``\\N{EM DASH}``) or that a lambda cannot hold (``{yield}``, ``{await x}``):
    the desugarer finds those, so the wrappers run it before a tool sees the
    placeholder text and say what the runtime says.  CPython's own errors
    outside tag strings (or syntax newer than this Python) are left to the tool,
    as on the f-string twin.
    """
    try:
        Desugaring(text, filename, emitter=_Unwritten(), emit_warnings=False)
    except TagSyntaxError:
        raise
    except SyntaxError:
        pass


class _Unwritten(Emitter):
    """Generates nothing: the desugarer's checks run, and no code is wanted."""

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return _NOTHING

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        return _NOTHING

    def call(self, site: TagCall) -> ast.expr:
        return _NOTHING


_NOTHING = ast.Constant(None)


def find_sources(paths: Sequence[str]) -> Iterator[str]:
    """Each file named, and each ``.py``/``.pyi`` file under each folder named, sorted."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED)
            yield from (
                os.path.join(folder, f) for f in sorted(files) if f.endswith((".py", ".pyi"))
            )
