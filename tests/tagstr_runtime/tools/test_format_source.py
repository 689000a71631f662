"""``format_source`` in-process, with formatters that misbehave: nothing wrong is written.

The real tools never break code; these stand-ins for them check that if one
did (or if a future version rewrote strings in a new way), the file would be
refused rather than formatted into something else.
"""

from __future__ import annotations

from typing import Callable

import pytest

from tagstr_runtime.tools.format import FormatError, format_source
from tagstr_runtime.tools.source_file import SourceFile


class Fake:
    """A formatter that applies ``change`` to the text it is given."""

    name = "fake"
    parallel = False
    batches = False

    def __init__(self, change: Callable[[str], str]) -> None:
        self.change = change
        self.seen: list[str] = []

    def format(self, source: bytes, path: str | None) -> bytes:
        self.seen.append(source.decode())
        return self.change(source.decode()).encode()

    def format_files(self, paths: list[str], *, check: bool) -> bool:
        return False


def _format(text: str, change: Callable[[str], str]) -> tuple[bytes, Fake]:
    fake = Fake(change)
    return format_source(SourceFile.from_bytes("x.py", text.encode()), fake), fake


@pytest.mark.parametrize(
    ("text", "change", "expected"),
    [
        pytest.param('x=h"{a}"\n', lambda t: t.replace("x=", "x = "), 'x = h"{a}"\n', id="formatted"),
        pytest.param("x=h'{a}'\n", lambda t: t.replace("'", '"'), "x=h'{a}'\n", id="quotes-flipped"),
        pytest.param("x=1\n", lambda t: "x = 1\n", "x = 1\n", id="no-tag-strings"),
        pytest.param('x=h"{a}"\n', lambda t: t, 'x=h"{a}"\n', id="unchanged"),
        pytest.param(  # the original does not compile here either: the tool's call
            'x=h"{a}"\ndef f(:\n', lambda t: t.replace("x=", "x = "), 'x = h"{a}"\ndef f(:\n', id="broken-anyway",
        ),
    ],
)
def test_accepted(text: str, change: Callable[[str], str], expected: str) -> None:
    assert _format(text, change)[0] == expected.encode()


def test_files_without_tag_strings_reach_the_tool_untouched() -> None:
    raw = "x  =  'caf\xe9'\r\n"
    _, fake = _format(raw, lambda t: t)
    assert fake.seen == [raw]


@pytest.mark.parametrize(
    ("text", "change", "message"),
    [
        pytest.param('x = h"{a}"\n', lambda t: t.replace("= ", "= y"), "line 1: the formatter rewrote", id="glued"),
        pytest.param('x = h"{a}"\n', lambda t: t + 'y = h"{b}"\n', "would change a tag string", id="added"),
        pytest.param('x = h"{a}"\n', lambda t: t + "y = (\n", "would not compile (2:", id="broken"),
        pytest.param('x = h"{a}"\n', lambda t: t.replace("\n", ' "b"\n'), "would not parse", id="concatenated"),
        pytest.param('x = h"{a"\n', lambda t: t, "line 1, column 9: tag string: expecting '}'", id="malformed"),
        pytest.param('x = h"{a}"\n', lambda t: t.replace('"', '"""'), "line 1: the formatter rewrote", id="requoted"),
    ],
)
def test_refused(text: str, change: Callable[[str], str], message: str) -> None:
    with pytest.raises(FormatError, match=message.replace("(", r"\(")):
        _format(text, change)
