"""TOML: the standard library's ``tomllib``; a hole is a number (a value, and a bare key).

tomllib stops at the first error and names its line and column in the
message.  It also rejects duplicate keys and tables, at the end of the
offending line: those are reported at the line's key instead.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any, Iterator, Sequence

from tagstr_runtime.analysis.embedded import Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined
from tagstr_runtime.analysis.embedded.keys import numeric_placeholder

__all__ = ["check"]

_WHERE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_DUPLICATE = ("Cannot overwrite a value", "Cannot declare", "Cannot mutate")
_INLINE = re.compile(r"Duplicate inline table key '(.*)'$")


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    joined = Joined(strings, numeric_placeholder)
    try:
        data = tomllib.loads(joined.text)
    except tomllib.TOMLDecodeError as exc:
        return [_error(joined, str(exc))]
    placeholders = {numeric_placeholder(i): i for i in range(len(joined.holes))}
    return sorted({f for f in _key_holes(joined, data, placeholders)}, key=lambda f: f.hole or 0)


def _error(joined: Joined, message: str) -> Finding:
    found = _WHERE.search(message)
    text = joined.text
    detail = message[: found.start()] if found else message
    if found and found.group(1):
        line, column = int(found.group(1)), int(found.group(2))
        starts = joined.line_starts()
        at = starts[line - 1] + column - 1
    else:
        line, at = text.count("\n") + 1, len(text)
    inline = _INLINE.match(detail)
    if inline and found and found.group(1):  # tomllib names the inline table's end: the key is before it
        key = inline.group(1)
        keys = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(key)}\s*=", text[:at])]
        if keys:
            return joined.finding("data.duplicate-key", keys[-1], language="TOML", key=key)
    if detail.startswith(_DUPLICATE):
        starts = joined.line_starts()
        line_start = starts[min(line, len(starts)) - 1]
        if at == len(text):  # "at end of document": the last line with a key
            stripped = text.rstrip()
            line_start = stripped.rfind("\n") + 1
        at = line_start + len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))
        key = re.split(r"\s*(?:=|\]|$)", text[at:].lstrip("["), maxsplit=1)[0]
        return joined.finding("data.duplicate-key", at, language="TOML", key=key)
    return joined.finding("data.syntax", at, language="TOML", detail=detail)


def _key_holes(joined: Joined, data: Any, placeholders: dict[str, int]) -> Iterator[Finding]:
    todo = [data]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                for placeholder, hole in placeholders.items():
                    if placeholder in key:
                        yield joined.at_hole("data.hole-key", hole, language="TOML")
                todo.append(value)
        elif isinstance(node, list):
            todo.extend(node)
