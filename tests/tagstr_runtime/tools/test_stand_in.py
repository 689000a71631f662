"""The stand-ins the formatter wrapper puts in place of tag strings, and their return.

In-process: the shapes (same display width on every line, a literal of the
right kind) and every way a formatter's output is refused.  End to end with
the real tools: ``test_format_tool.py``.
"""

from __future__ import annotations

import ast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tagstr_runtime.tools.literal_swap import StandInError, StandIns, display_width, restore, stand_in
from tagstr_runtime.frontend import SourceText, parse


def _stand_in(text: str) -> StandIns:
    tags = parse(text).tag_strings
    source = SourceText(text)
    return stand_in(text, tags, [source.line_of(t.span.start) for t in tags])


def _widths(text: str) -> list[int]:
    return [sum(display_width(c) for c in line) for line in text.split("\n")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param('x = h"{a}"\n', 'x = f"QQQ"\n', id="one-letter"),
        pytest.param('x = html"<p>{a}</p>"\n', 'x = f"QQQQQQQQQQQQQ"\n', id="longer"),
        pytest.param("x = h''\n", "x = 'Q'\n", id="shortest"),  # no room for an f: a plain literal
        pytest.param("x = h'\t'\n", "x = 'Q\t'\n", id="shortest-with-a-tab"),
        pytest.param('x = h"日本 {a}"\n', 'x = f"QQQQQQQQ"\n', id="wide"),
        pytest.param('x = h"e\u0301 {a}"\n', 'x = f"QQQQQ"\n', id="combining"),
        pytest.param('x = h"\t{a}"\n', 'x = f"\tQQQ"\n', id="tab"),
        pytest.param('x = h"""a\n {b}\n\n"""\n', 'x = f"""Q\nQQQQ\n\n"""\n', id="triple"),
        pytest.param('x = h"""\n{b}"""\n', 'x = f"""\nQQQ"""\n', id="triple-first-line-empty"),
        pytest.param("x = h'{a\n + b}'\n", "x = f'Q\\\nQQQQQ'\n", id="single-quoted-lines"),
        pytest.param('x = f"{h\'{a}\'}" + h"Q{b}"\n', 'x = f"{f\'ZZZ\'}" + f"ZZZZ"\n', id="marker-in-source"),
        pytest.param('a = h"{b}"; c = h"{d}"\n', 'a = f"QQQ"; c = f"QQQ"\n', id="two"),
    ],
)
def test_shapes(text: str, expected: str) -> None:
    stand = _stand_in(text)
    assert stand.text == expected
    assert _widths(stand.text) == _widths(text)
    ast.parse(stand.text)
    assert restore(stand.text, stand) == text


def test_marker_when_every_ascii_candidate_is_used() -> None:
    used = "# " + "".join(chr(c) for c in range(33, 127)) + "\n"
    stand = _stand_in(used + 'x = h"{a}"\n')
    assert stand.marker == "\u0100" and stand.text == used + 'x = f"\u0100\u0100\u0100"\n'


@pytest.mark.parametrize(
    ("formatted", "message"),
    [
        pytest.param('x = (\n    f"QQQ"\n)\n', None, id="moved"),
        pytest.param("x = f'QQQ'\n", None, id="quotes-flipped"),
        pytest.param('x = f"Q" f"QQ"\n', "rewrote", id="split"),
        pytest.param('x = f"""QQQ"""\n', "rewrote", id="requoted"),
        pytest.param('x = f"QQ"\n', "rewrote", id="shortened"),
        pytest.param('x = f"QQQ "\n', "rewrote", id="extended"),
        pytest.param('x = "QQQ"\n', "rewrote", id="prefix-dropped"),
        pytest.param('x = rf"QQQ"\n', "rewrote", id="prefix-extended"),
        pytest.param("x = 1\n", "dropped", id="dropped"),
        pytest.param('x = f"QQQ"\ny = f"QQQ"\n', "duplicated", id="duplicated"),
        pytest.param('x = f"QQQ\'\n', "rewrote", id="quotes-mismatched"),
    ],
)
def test_restore(formatted: str, message: str | None) -> None:
    stand = _stand_in('x = h"{a}"\n')
    if message is None:
        restored = restore(formatted, stand)
        assert restored == formatted.replace("f'QQQ'", 'h"{a}"').replace('f"QQQ"', 'h"{a}"')
        return
    with pytest.raises(StandInError, match=message) as caught:
        restore(formatted, stand)
    assert caught.value.line == 1


def test_blank_line_in_a_single_quoted_field() -> None:
    with pytest.raises(StandInError, match="has a line that is empty") as caught:
        _stand_in("x = 1\ny = h'{a\n\n}'\n")
    assert caught.value.line == 3


_PIECES = st.sampled_from(["a", " ", "<p>", "日本", "e\u0301", "\t", "é", "{x}", "{y!r:>{w}}", "{{", "}}"])


@given(
    bodies=st.lists(st.lists(_PIECES, max_size=6).map("".join), min_size=1, max_size=4),
    triple=st.booleans(),
    newline=st.booleans(),
)
def test_width_and_round_trip(bodies: list[str], triple: bool, newline: bool) -> None:
    quote = '"""' if triple else '"'
    joint = "\n" if triple and newline else " "
    text = "x = [" + ", ".join(f"tag{quote}{joint.join([b, b])}{quote}" for b in bodies) + "]\n"
    stand = _stand_in(text)
    assert _widths(stand.text) == _widths(text)
    statement = ast.parse(stand.text).body[0]
    assert isinstance(statement, ast.Assign) and isinstance(statement.value, ast.List)
    assert [type(e) for e in statement.value.elts] == [ast.JoinedStr] * len(bodies)
    assert restore(stand.text, stand) == text
