"""What the command says: one line per reason, a diff that applies, a summary, on any terminal.

A reason or a note goes to one stream (standard output, or standard error
when standard output holds the diff); a character that stream cannot encode
is written as an escape rather than failing the run.  The diff is made of
the files' own bytes, line endings and encoding included, so ``patch`` and
``git apply`` apply it to a CRLF or latin-1 file as they find it.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from typing import IO, NamedTuple

from tagstr_runtime.migrate.rewrite import Migration

__all__ = ["FileResult", "Summary", "say", "write_diff"]


class FileResult(NamedTuple):
    path: str
    source: bytes
    new: bytes
    before: str  # the text the offsets of the migration are in
    migration: Migration
    encoding: str = "utf-8"  # the file's


class Summary:
    """What one run did, for its last line."""

    def __init__(self) -> None:
        self.migrated = self.changed = self.kept = self.kept_files = self.errors = 0
        self.reasons: Counter[str] = Counter()

    def add(self, result: FileResult) -> None:
        migration = result.migration
        self.migrated += migration.migrated
        self.changed += result.new != result.source
        self.kept += migration.kept
        self.kept_files += bool(migration.kept)
        self.reasons.update(flag.code for flag in migration.flags)

    def line(self, dry_run: bool) -> str:
        verb = "would migrate" if dry_run else "migrated"
        text = f"{verb} {_count(self.migrated, 'tag string')} in {_count(self.changed, 'file')}"
        if self.kept or self.reasons:
            reasons = ", ".join(f"{code} x{n}" for code, n in sorted(self.reasons.items()))
            text += f"; kept {_count(self.kept, 'tag string')} in {_count(self.kept_files, 'file')} ({reasons})"
        else:
            text += "; kept none"
        if self.errors:
            text += f"; {_count(self.errors, 'file')} could not be migrated (errors above)"
        return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def say(text: str, out: IO[str]) -> None:
    """Write a line to ``out``, escaping what its encoding cannot hold (a tag named ``é`` on
    an ASCII terminal) instead of failing."""
    try:
        out.write(text + "\n")
    except UnicodeEncodeError:
        encoding = getattr(out, "encoding", None) or "ascii"
        out.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace") + "\n")


def write_diff(result: FileResult, new: bytes, out: IO[str]) -> None:
    """A unified diff of one file's bytes, to ``out``'s binary buffer when it has one."""
    name = os.fsencode(result.path)
    lines = difflib.diff_bytes(
        difflib.unified_diff, result.source.splitlines(keepends=True), new.splitlines(keepends=True),
        b"a/" + name, b"b/" + name,
    )
    chunks: list[bytes] = []
    for line in lines:
        chunks.append(line)
        if not line.endswith(b"\n"):  # the file's last line has no newline: say so, as diff does
            chunks.append(b"\n\\ No newline at end of file\n")
    data = b"".join(chunks)
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(data)
        buffer.flush()
    else:  # a text stream only (a test's StringIO): the text the bytes are in the file's encoding
        out.write(data.decode(result.encoding, "surrogateescape"))
