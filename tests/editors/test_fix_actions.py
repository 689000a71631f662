"""The TAG quick fixes as code actions (``tagstr_lsp.actions``), in-process: which fixes a range
meets and where their edits land, in LSP's UTF-16 columns (the proxy) and in characters (pylsp),
on a line where an astral character makes the two differ."""

from __future__ import annotations

from typing import Any

import pytest

from tagstr_lsp.actions import fix_actions
from tagstr_runtime.frontend import PlaceholderView

URI = "file:///m.py"
TEXT = 'x = html"\U0001F600 \\N{BULLET}"\n'
BRACE = TEXT.index("{")  # the hole's "{", in characters; one UTF-16 unit more after the emoji


def at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def edits(requested: dict[str, Any], utf16: bool) -> list[dict[str, Any]]:
    found = fix_actions(PlaceholderView(TEXT, "m.py"), "m.py", URI, requested, [], utf16)
    return [edit for _, action in found for edit in action["edit"]["changes"][URI]]


@pytest.mark.parametrize("utf16", [True, False])
def test_edits_land_on_the_hole_s_braces(utf16: bool) -> None:
    shift = 1 if utf16 else 0
    found = edits({"start": at(0, 0), "end": at(1, 0)}, utf16)
    assert [(e["range"]["start"], e["range"]["end"], e["newText"]) for e in found] == [
        (at(0, BRACE + shift), at(0, BRACE + shift + 1), "{{"),
        (at(0, BRACE + shift + 7), at(0, BRACE + shift + 8), "}}"),
    ]
    line = TEXT.encode("utf-16-le") if utf16 else TEXT
    unit = 2 if utf16 else 1
    assert line[found[0]["range"]["start"]["character"] * unit:][:unit] == ("{".encode("utf-16-le") if utf16 else "{")


@pytest.mark.parametrize("utf16", [True, False])
def test_a_range_meets_the_fix_at_its_own_columns(utf16: bool) -> None:
    shift = 1 if utf16 else 0
    backslash = TEXT.index("\\") + shift
    assert edits({"start": at(0, backslash), "end": at(0, backslash + 1)}, utf16)
    assert not edits({"start": at(0, 0), "end": at(0, 3)}, utf16)  # "x =": before the tag string


def test_no_fix_in_a_malformed_or_plain_text() -> None:
    everything = {"start": at(0, 0), "end": at(1, 0)}
    for text in ('x = html"{y"\n', 'x = "\\N{BULLET}"\n'):
        assert fix_actions(PlaceholderView(text, "m.py"), "m.py", URI, everything, [], True) == []
