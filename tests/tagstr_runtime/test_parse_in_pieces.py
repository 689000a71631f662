"""A large module is parsed a piece at a time (``desugarer.cpython``), with the whole parse's result.

CPython's parser holds every token and its own tree of the whole text until it
has built the ``ast`` one; a module of tens of thousands of tag strings is
parsed in pieces of about ``_PIECE`` characters instead.  Differential: the
same source desugared with pieces of every size from a few characters up
(so that a piece starts at every line of it) and in one parse gives the same
tree, positions included, the same warnings, each once and in order, and
the same error.
"""

from __future__ import annotations

import ast
import sys
import textwrap
import warnings
from typing import Iterator, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tagstr_runtime.desugarer.cpython as cpython
from tagstr_runtime.desugarer.desugaring import Desugaring
from tagstr_runtime.syntax.errors import TagSyntaxError

#: what a warning of an invalid escape sequence is on this Python
ESCAPE_WARNING = SyntaxWarning if sys.version_info >= (3, 12) else DeprecationWarning

#: statements whose lines at column 0 are, and are not, where a statement starts
STATEMENTS = [
    "import sys\n",
    "def html(*args):\n    return args\n",
    "x = html\"<p>{sys.argv}</p>\"\n",
    "@staticmethod\ndef f():\n    return html'{x!r:>{len(x)}}'\n",
    "@decorate(\n    1,\n)\nclass C:\n    y = html'{x}'\n",
    "if x:\n    pass\nelif sys:\n    pass\nelse:\n    z = html'{x}'\n",
    "try:\n    pass\nexcept Exception:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
    "s = '''\ncolumn 0 inside a string\n{x}\n'''\n",
    "t = html'''\ncolumn 0 inside a tag string {x}\n'''\n",
    "u = (\n1,\nhtml'{x}',\n)\n",
    "v = 1 + \\\n2\n",
    "# a comment at column 0\n\n",
    "match x:\n    case [a]:\n        pass\n",
    "async def g():\n    await h(html'{x}')\n",
    "w = [i for i in x]  # type: ignore\n",
    "r = '\\d'\n",
    "q = html'\\\\d{x}'\n",
    "else_ = elif_ = 1\n",
    "p = 2\n",
]


def desugared(text: str, piece: int, flags: int = 0) -> tuple[str, list[tuple[type, str, int]]]:
    """The tree's dump (positions included) and the warnings shown, parsed with pieces of ``piece``."""
    saved = cpython._PIECE
    cpython._PIECE = piece
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tree = Desugaring(text, "<pieces>", flags=flags).tree
    finally:
        cpython._PIECE = saved
    return ast.dump(tree, include_attributes=True), [(w.category, str(w.message), w.lineno) for w in caught]


def error(
    text: str, piece: int, action: Literal["always", "error"] = "always"
) -> tuple[type, str, int | None, int | None]:
    saved = cpython._PIECE
    cpython._PIECE = piece
    try:
        with warnings.catch_warnings(record=True):  # shown warnings are desugared()'s to compare
            warnings.simplefilter(action)
            with pytest.raises(SyntaxError) as raised:
                Desugaring(text, "<pieces>")
    finally:
        cpython._PIECE = saved
    exc = raised.value
    return type(exc), exc.msg, exc.lineno, exc.offset


WHOLE = 1 << 30  # one piece: the reference


def sizes(text: str) -> Iterator[int]:
    """Piece sizes that make a piece start at every line (and the size that makes one piece)."""
    yield from range(1, min(len(text) // 2, 400), 3)


def test_every_split_gives_the_whole_parse() -> None:
    text = "".join(STATEMENTS) * 2
    expected = desugared(text, WHOLE)
    assert expected[1], "the module shows warnings to compare"
    for piece in sizes(text):
        assert desugared(text, piece) == expected, piece


def test_the_pieces_are_parsed_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above would pass if pieces were never used: count CPython's parses."""
    parses: list[int] = []
    compile_text = cpython.compile_text

    def counted(text: str | bytes, *args: object) -> ast.AST:
        parses.append(len(text))
        return compile_text(text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cpython, "compile_text", counted)
    # a piece never ends with a decorator, nor begins with "else:": no piece fails, no whole parse
    # nor inside a tag string, where a field at column 0 is a parenthesised argument; a piece
    # left open by a string is parsed again with the next piece, not the whole text
    for text in ("x = html'{y}'\n" * 50, "@decorate\ndef f():\n    return html'{y}'\n" * 20,
                 "if x:\n    y = html'{z}'\nelse:\n    pass\n" * 20,
                 "q = sql'''\n{a + b}\n{c}\n'''\n" * 20, "s = '''\nx = 1\n'''\nt = html'{x}'\n" * 20):
        expected = desugared(text, WHOLE)
        for piece in range(40, 80, 3):
            parses.clear()
            assert desugared(text, piece) == expected
            assert len(parses) > 5
            assert max(parses) < len(text), f"the whole text was parsed (pieces of {piece})"


#: a block's header, and what follows its body at column 0 (a clause, or the next statement)
BLOCKS = [
    pytest.param("def f():\n", "", id="function"),
    pytest.param("@decorate\nasync def f():\n", "", id="async function"),
    pytest.param("class C(B):\n", "x = 1\n", id="class"),
    pytest.param("with x as y:\n", "", id="with"),
    pytest.param("if x:\n", "else:\n    pass\n", id="if with else"),
    pytest.param("if x:\n", "elif y:\n    pass\n", id="if with elif"),
    pytest.param("for i in x:\n", "else:\n    pass\n", id="for with else"),
    pytest.param("while x:\n", "z = 2\n", id="while"),
    pytest.param("try:\n", "except E:\n    pass\n", id="try"),
    pytest.param("match x:\n    case 1:\n", "", id="match"),
    pytest.param("class C:\n    def m(self):\n", "", id="method"),
    pytest.param("def f():\n    for i in x:\n", "    y = 3\n", id="loop in a function"),
]


@pytest.mark.parametrize(("header", "after"), BLOCKS)
def test_every_split_inside_a_block_gives_the_whole_parse(header: str, after: str) -> None:
    """Inside one statement longer than a piece, a piece starts at an indented line, under a
    wrapper ``if 1:``: its statements join the block it continues, or the piece fails."""
    depth = "    " * (header.count(":\n"))
    text = "import sys\n" + header + textwrap.indent("".join(STATEMENTS) * 2, depth) + after + "p = html'{x}'\n"
    expected = desugared(text, WHOLE)
    for piece in sizes(text):
        assert desugared(text, piece) == expected, piece


@pytest.mark.parametrize(("header", "continued"), [
    pytest.param("def f():\n", True, id="function"),
    pytest.param("class C:\n", True, id="class"),
    pytest.param("if __name__ == '__main__':\n", True, id="if"),
    pytest.param("class C:\n    def m(self):\n", True, id="method"),
    pytest.param("if x:\n", False, id="an else after the body"),
])
def test_a_huge_block_is_parsed_in_pieces(monkeypatch: pytest.MonkeyPatch, header: str, continued: bool) -> None:
    """The test above would pass if no piece ever started inside a block: count the wrappers
    parsed, and the whole parses."""
    parses: list[str] = []
    compile_text = cpython.compile_text

    def counted(text: str, *args: object) -> ast.AST:
        parses.append(text)
        return compile_text(text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cpython, "compile_text", counted)
    depth = "    " * header.count(":\n")
    body = "".join(f"{depth}v{i} = html'{{x}}'\n" for i in range(200))
    text = header + body + ("" if continued else "else:\n    pass\n") + "w = 1\n"
    expected = desugared(text, WHOLE)
    parses.clear()
    assert desugared(text, 300) == expected
    wrapped = [p for p in parses if p.lstrip("\n").startswith("if 1:\n")]
    if continued:
        assert len(wrapped) > 5 and max(map(len, parses)) < len(text)
    else:  # the else joins the wrapper: its piece fails, then the whole text is parsed
        assert max(map(len, parses)) == len(text)


def test_type_ignores_of_every_piece() -> None:
    text = "".join(f"v{i} = html'{{x}}'  # type: ignore[misc]\n" for i in range(40))
    for piece in (30, 200):
        dump, _ = desugared(text, piece, ast.PyCF_TYPE_COMMENTS)
        assert dump == desugared(text, WHOLE, ast.PyCF_TYPE_COMMENTS)[0]
        assert dump.count("TypeIgnore(") == 40


@pytest.mark.parametrize("broken", [
    pytest.param("y = (1,\n", id="never closed"),
    pytest.param("y = 1 +\n", id="invalid syntax"),
    pytest.param("z = html'{x'\n", id="a field not closed"),
    pytest.param("z = html'{x y}'\n", id="invalid syntax in a field"),
    pytest.param("  indented = 1\n", id="unexpected indent"),
])
def test_an_error_is_the_whole_parse_s(broken: str) -> None:
    head = "".join(STATEMENTS)
    for where in (0, len(STATEMENTS) // 2, len(STATEMENTS)):
        text = "".join(STATEMENTS[:where]) + broken + head
        expected = error(text, WHOLE)
        for piece in sizes(text):
            assert error(text, piece) == expected, (where, piece)


def test_a_warning_as_error_is_the_whole_parse_s() -> None:
    text = "x = html'{y}'\n" * 20 + "r = '\\d'\n" + "x = html'{y}'\n" * 20
    expected = error(text, WHOLE, "error")
    assert expected[0] in (SyntaxError, TagSyntaxError)
    for piece in sizes(text):
        assert error(text, piece, "error") == expected, piece


def test_warnings_once_when_a_piece_fails() -> None:
    """A line at column 0 inside a string: the piece before it fails and the whole text is
    parsed; the warnings the pieces showed are not shown again."""
    text = "r = '\\d'\nx = html'{y}'\n" * 10 + "s = '''\n" + "column 0\n" * 30 + "'''\n" + "q = '\\w'\n"
    _, shown = desugared(text, WHOLE)
    assert [w[0] for w in shown] == [ESCAPE_WARNING] * 11
    for piece in sizes(text):
        assert desugared(text, piece)[1] == shown, piece


@pytest.mark.parametrize("after", ["ok = 1 <> 2\n", "ok = 1 != 2\n"])
def test_barry_as_flufl(after: str) -> None:
    """The one future import that changes how the lines after it parse in the same compile
    (from 3.14: ``<>``; before, its flag applies to the next compile only)."""
    text = "from __future__ import barry_as_FLUFL\n" + "x = html'{y}'\n" * 20 + after
    try:
        expected: object = desugared(text, WHOLE)
    except SyntaxError:
        assert error(text, 10) == error(text, WHOLE)
    else:
        assert desugared(text, 10) == expected


@settings(deadline=None)  # the examples: the profile's (tests/conftest.py)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=12), st.integers(1, 120))
def test_any_module_any_piece(statements: list[str], piece: int) -> None:
    _same_as_the_whole_parse("".join(statements), piece)


@settings(deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=12), st.sampled_from(BLOCKS),
       st.lists(st.sampled_from(STATEMENTS), max_size=3), st.integers(1, 120))
def test_any_block_any_piece(statements: list[str], block: object, outside: list[str], piece: int) -> None:
    header, after = block.values  # type: ignore[attr-defined]
    text = header + textwrap.indent("".join(statements), "    " * header.count(":\n")) + after + "".join(outside)
    _same_as_the_whole_parse(text, piece)


def _same_as_the_whole_parse(text: str, piece: int) -> None:
    try:
        expected: object = desugared(text, WHOLE)
    except SyntaxError:
        assert error(text, piece) == error(text, WHOLE)
        return
    assert desugared(text, piece) == expected
