"""Cooking: a tag string's literal text as an ordinary string literal would read it (SPEC 3).

``raw.encode().decode('unicode-escape')`` (the PEP's sample) mangles
non-ASCII text, so escapes are decoded one by one and everything else is
kept as written.
"""

from __future__ import annotations

import codecs
import re
from typing import Sequence

from tagstr_runtime.syntax.model import Field, Literal

__all__ = ["BadEscape", "cook", "cook_checked", "cooked_origins", "spec_texts", "warned_escapes"]

_ESCAPE = re.compile(
    r"""\\(?:
        (?P<newline>\n)
      | (?P<simple>[\\'"abfnrtv])
      | (?P<octal>[0-7]{1,3})
      | x(?P<hex2>[0-9A-Fa-f]{2})
      | u(?P<hex4>[0-9A-Fa-f]{4})
      | U(?P<hex8>[0-9A-Fa-f]{8})
      | N\{(?P<name>[^{}\n]*)\}
      | (?P<bad>[xuUN])
      | (?P<other>.)
      | (?P<end>\Z)
    )""",
    re.VERBOSE | re.DOTALL,
)
_SIMPLE = {
    "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b",
    "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
}
_BAD = {
    "x": "truncated \\xXX escape",
    "u": "truncated \\uXXXX escape",
    "U": "truncated \\UXXXXXXXX escape",
    "N": "malformed \\N character escape",
}


class BadEscape(ValueError):
    """An escape Python rejects; ``offset`` is its index in the raw text."""

    def __init__(self, message: str, offset: int, length: int) -> None:
        super().__init__(message, offset, length)  # all in args: copy and pickle rebuild it from them
        self.message = message
        self.offset = offset
        self.length = length

    def __str__(self) -> str:
        return self.message


def cook_checked(raw: str, named_escape_may_end: bool = False) -> str:
    """Cook ``raw``; raise ``BadEscape`` where Python would reject an escape.

    ``named_escape_may_end``: the text is followed by an interpolation, so a
    trailing ``\\N`` is the first half of ``\\N{field}`` (SPEC 2) and is kept.
    """
    if "\\" not in raw:
        return raw
    out: list[str] = []
    pos = 0
    for m in _ESCAPE.finditer(raw):
        out.append(raw[pos : m.start()])
        pos = m.end()
        kind = m.lastgroup
        if kind == "newline":
            continue
        if kind == "simple":
            out.append(_SIMPLE[m.group("simple")])
        elif kind == "octal":
            out.append(chr(int(m.group("octal"), 8)))
        elif kind in ("hex2", "hex4", "hex8"):
            value = int(m.group(kind), 16)
            if value > 0x10FFFF:
                raise BadEscape("illegal Unicode character", m.start(), m.end() - m.start())
            out.append(chr(value))
        elif kind == "name":
            try:
                out.append(codecs.decode(m.group(0), "unicode_escape"))
            except UnicodeDecodeError:
                raise BadEscape("unknown Unicode character name", m.start(), m.end() - m.start())
        elif kind == "bad":
            letter = m.group("bad")
            if letter == "N" and named_escape_may_end and m.end() == len(raw):
                out.append(m.group(0))
                continue
            raise BadEscape(_BAD[letter], m.start(), len(raw) - m.start())
        else:  # unknown escapes such as \d stay verbatim; a lone trailing backslash too
            out.append(m.group(0))
    out.append(raw[pos:])
    return "".join(out)


def warned_escapes(raw: str) -> list[str]:
    """The escapes of ``raw`` (a string literal's text as written) that Python 3.12+ warns about
    in a string, f-string or t-string (``SyntaxWarning``: an error under ``-W error``):
    unknown ones such as ``\\d`` or ``\\{``, and octal ones above ``\\377``.  A tag string keeps
    them as written, silently (SPEC 3)."""
    if "\\" not in raw:
        return []
    found = []
    for m in _ESCAPE.finditer(raw):
        kind = m.lastgroup
        if kind == "other" or (kind == "octal" and int(m.group("octal"), 8) > 0o377):
            found.append(m.group(0))
    return found


def cook(raw: str) -> str:
    """Cook ``raw`` for ``Decoded(raw)``; invalid escapes raise ``ValueError``."""
    return cook_checked(raw)


def cooked_origins(raw: str) -> list[int]:
    """For each character of the cooked text of ``raw`` (cooked without error), the index
    in ``raw`` that produced it, then ``len(raw)``.

    The same escapes as ``cook_checked``, read by the same expression: an escape maps every
    character it produced to its backslash; text kept as written (unknown escapes such as
    ``\\d``, a trailing ``\\N`` before a field) maps each character to itself; a
    backslash-newline produces nothing.  Source maps of literal runs use it (``desugarer.sites``).
    """
    out: list[int] = []
    if "\\" in raw:
        pos = 0
        for m in _ESCAPE.finditer(raw):
            out.extend(range(pos, m.start()))
            pos = m.end()
            kind = m.lastgroup
            if kind == "newline":
                continue
            if kind in ("other", "end", "bad"):  # kept verbatim (a bad one did not raise: a trailing \\N)
                out.extend(range(m.start(), pos))
            else:
                out.append(m.start())
        out.extend(range(pos, len(raw)))
    else:
        out.extend(range(len(raw)))
    out.append(len(raw))
    return out


def spec_texts(parts: Sequence[Literal | Field]) -> tuple[tuple[str, ...], tuple[str, ...] | str]:
    """A spec's literal texts around its fields (a field's ``=`` text ends the one before
    it), and what ``t"..."`` makes of each: escapes processed; or why it rejects them."""
    runs: list[tuple[str, str]] = []  # (literal text, the next field's '=' text)
    text = ""
    for part in parts:
        if isinstance(part, Literal):
            text += part.raw
        else:
            runs.append((text, part.debug or ""))
            text = ""
    raws = tuple(literal + debug for literal, debug in runs) + (text,)
    try:
        # '\\N' then a field is '\\N' and an interpolation (SPEC 2), as in a body
        cooked = [cook_checked(literal, named_escape_may_end=True) + debug for literal, debug in runs]
        cooked.append(cook_checked(text))
    except BadEscape as error:
        return raws, error.message
    return raws, tuple(cooked)
