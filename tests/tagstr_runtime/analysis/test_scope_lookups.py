"""The scope index asked about something other than a name read: a name at a string, the
binding the resolver follows, the functions and classes around a binding (in-process)."""

from __future__ import annotations

import ast
from textwrap import dedent

import pytest

from tagstr_runtime.frontend import ModuleAnalysis, SourceText

SOURCE = dedent('''\
    R = 1
    x = R"a"
    def f(R):
        y = (R"b", f"{R'c'}")
        return lambda: R"d"
    class C:
        R = 2
        z = R"e"
        def m(self):
            return R"f"
    for i in range(3):
        R = i
    w = R"g"
''')


def module(text: str = SOURCE) -> ModuleAnalysis:
    """The tree as CPython parses it (no tag strings: no desugaring needed)."""
    return ModuleAnalysis(SourceText(text), ast.parse(text))


def string_at(text: str, written: str) -> tuple[int, int]:
    """(line, byte column) where ``written`` (a string's text) starts."""
    offset = text.index(written)
    line = text.count("\n", 0, offset) + 1
    return line, len(text[text.rfind("\n", 0, offset) + 1 : offset].encode("utf-8"))


@pytest.mark.parametrize(("written", "bound_on"), [
    ('R"a"', [1]),  # the module's R, bound before
    ('R"b"', [3]),  # the parameter
    ("R'c'", [3]),  # in an f-string's field: the same scope
    ('R"d"', [3]),  # a lambda sees the function's parameter
    ('R"e"', [7]),  # the class body's own R
    ('R"f"', [1, 12]),  # a method skips the class body: the module's, both bindings before the read
    ('R"g"', [1, 12]),
])
def test_bindings_of_a_name_at_a_string(written: str, bound_on: list[int]) -> None:
    line, col = string_at(SOURCE, written)
    found = module().scopes.bindings_of("R", line, col)
    assert [b.line for b in found] == bound_on


def test_bindings_of_a_name_bound_nowhere_or_where_nothing_starts() -> None:
    scopes = module().scopes
    line, col = string_at(SOURCE, 'R"a"')
    assert scopes.bindings_of("t", line, col) == []  # not bound: a builtin or nothing
    assert scopes.bindings_of("R", line, col + 1) == []  # no expression starts there


def test_read_binding_is_the_last_before_the_read_else_the_last() -> None:
    text = dedent('''\
        def f():
            for _ in range(2):
                print(g)
                g = 1
                g = 2
            h = 1
            h = 2
            return h
    ''')
    scopes = module(text).scopes
    g = scopes.read_binding(3, 14)
    h = scopes.read_binding(8, 11)
    assert g is not None and g.line == 5  # none before: a loop's later one
    assert h is not None and h.line == 7
    assert scopes.read_binding(3, 8) is None  # print: a builtin
    line, col = string_at(SOURCE, 'R"g"')
    found = module().scopes.read_binding(line, col, "R")
    assert found is not None and found.line == 12


@pytest.mark.parametrize(("line", "col", "expected"), [
    (1, 0, ()),  # R = 1, at the top
    (3, 6, ("f",)),  # f's parameter R
    (4, 4, ("f",)),  # y = ...
    (5, 11, ("f",)),  # the lambda, in f
    (5, 19, ("f", "<lambda>")),  # its body
    (7, 4, ("C",)),  # the class body's R
    (9, 4, ("C",)),  # def m, bound in C's body
    (10, 15, ("C", "m")),
    (12, 4, ()),  # a loop at the top
])
def test_enclosing(line: int, col: int, expected: tuple[str, ...]) -> None:
    assert module().scopes.enclosing(line, col) == expected
