"""The checker tree's record of each tag string (``SiteRecord``): what the hooks read
instead of telling the generated call's arguments apart by their nodes.

Each record is keyed by the position mypy gives the generated call (the tag
string's start, in the column unit of the parser mypy would use), says what
each argument after the tag is, and carries each interpolation's source text.
The last tests convert the tree with mypy's own converter, as the parse hook
does, and look each call up as the hooks do (``BuildState.site``), on lines
with non-ASCII text in both column units.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mypy")

from tagstr_mypy.parse.checker_tree import CALL_NAME, DECODED, INTERPOLATION, SPEC, checker_tree  # noqa: E402

D, I, S = DECODED, INTERPOLATION, SPEC


Found = dict[tuple[int, int], tuple[tuple[int, ...], tuple[str | None, ...]]]


def records(text: str, *, char_columns: bool = True) -> Found:
    built = checker_tree(text, "m.py", (3, 11), char_columns=char_columns)
    assert built is not None
    return {at: (record.kinds, record.texts) for at, record in built.sites.items()}


def calls(text: str, *, char_columns: bool = True) -> dict[tuple[int, int], int]:
    """The generated calls of the tree (by position) and their argument counts after the tag."""
    built = checker_tree(text, "m.py", (3, 11), char_columns=char_columns)
    assert built is not None
    return {
        (node.lineno, node.col_offset): len(node.args) - 1
        for node in ast.walk(built.tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__tagstr_call__"
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('v = tag"a{x}b"\n', {(1, 4): ((D, I, D), (None, "x", None))}),
        ('v = tag"{x!r}{y:>3}"\n', {(1, 4): ((I, I), ("x", "y"))}),
        # a spec with fields of its own follows its interpolation, and is not a tag argument
        ('v = tag"a{x:>{w}}b"\n', {(1, 4): ((D, I, S, D), (None, "x", None))}),
        # a debug field: its text joins the literal part before the interpolation
        ('v = tag"a{ y = }"\n', {(1, 4): ((D, I), (None, "y"))}),
        ('v = tag"{  a  +  b  }"\n', {(1, 4): ((I,), ("a  +  b",))}),
        ('v = tag""\n', {(1, 4): ((), ())}),
        # nested: each tag string its own record, at its own start
        ('v = outer"<{inner"{z}!"}>"\n',
         {(1, 4): ((D, I, D), (None, 'inner"{z}!"', None)), (1, 12): ((I, D), ("z", None))}),
        # multi-line
        ('v = tag"""\n{a}\n  {b:{c}}"""\n', {(1, 4): ((D, I, D, I, S), (None, "a", None, "b"))}),
    ],
    ids=["plain", "conversions", "spec-with-fields", "debug", "spaces", "empty", "nested", "multi-line"],
)
def test_each_tag_string_has_its_record(text: str, expected: dict[object, object]) -> None:
    found = records(text)
    assert found == expected
    # the record is the call's: one kind per argument, keyed where the call is
    assert {at: len(kinds) for at, (kinds, _) in found.items()} == calls(text)


def test_a_record_is_keyed_in_the_parser_s_column_unit() -> None:
    text = 'é = ""\nv = (é, tag"{é}")\n'
    # mypy's native parser counts characters, its stdlib-ast parser UTF-8 bytes
    assert records(text) == {(2, 8): ((I,), ("é",))}
    assert records(text, char_columns=False) == {(2, 9): ((I,), ("é",))}
    assert set(calls(text, char_columns=True)) == {(2, 8)}


def test_a_tag_string_where_no_hook_is_called_has_no_record() -> None:
    # in an annotation mypy judges the f-string twin; as a base, the call names the tag
    text = 'def f(x: tag"{int}") -> None: ...\nclass C(tag"{b}"): ...\nv = tag"{a}"\n'
    assert records(text) == {(3, 4): ((I,), ("a",))}


def test_the_hooks_fall_back_to_mypy_without_a_record(tmp_path: Path) -> None:
    """A call of the checker's stand-in that the checker tree did not write (no record) is
    left to mypy's own signature: no crash, no tag-string message."""
    from mypy import api

    from tagstr_runtime.frontend import CHECKER_MODULE

    path = tmp_path / "m.py"
    path.write_text(
        "def html(*args: object) -> str:\n    return ''\n\n\n"
        f"from {CHECKER_MODULE} import tag_call\n"
        "x = tag_call(html, lambda: 1)\n"
        "y = html'{x}'\n",
        encoding="utf-8",
    )
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = tagstr_mypy\n", encoding="utf-8")
    limit = sys.getrecursionlimit()  # mypy's main raises it for the process: the next tests keep theirs
    try:
        out, err, status = api.run(["--no-incremental", "--cache-dir", "/dev/null", "--config-file", str(config),
                                    "--show-traceback", str(path)])
    finally:
        sys.setrecursionlimit(limit)
    assert "INTERNAL ERROR" not in out + err and "Traceback" not in out + err, out + err
    assert status in (0, 1), out + err


# -- looked up as the hooks look them up ----------------------------------------------

#: where the nodes of these cases keep their children (mypy's traversers are compiled)
_CHILDREN = ("expr", "rvalue", "body", "callee", "args", "left", "right", "items", "operands", "base", "index")


def _generated_calls(node: object, found: list[Any]) -> list[Any]:
    """The generated calls of a converted tree, in source order (a nested one after the one
    holding it); the test, not the plugin, recognises them by their name."""
    from mypy.nodes import Block, CallExpr, Expression, LambdaExpr, NameExpr, Statement

    if isinstance(node, (list, tuple)):
        for item in node:
            _generated_calls(item, found)
    elif isinstance(node, LambdaExpr):
        _generated_calls(node.expr(), found)
    elif isinstance(node, (Expression, Statement, Block)):
        if isinstance(node, CallExpr) and isinstance(node.callee, NameExpr) and node.callee.name == CALL_NAME:
            found.append(node)
        for name in _CHILDREN:
            _generated_calls(getattr(node, name, None), found)
    return found


Looked = tuple[tuple[int, ...], tuple[str | None, ...], tuple[str | None, ...]]


def looked_up(text: str, *, char_columns: bool) -> list[Looked]:
    """Each generated call of the tree mypy checks (converted by mypy's own converter, as the
    parse hook converts it), looked up in the build's records as the hooks look it up."""
    from mypy.options import Options

    from tagstr_mypy.hooks.build_state import BuildState
    from tagstr_mypy.parse.builds import Pending
    from tagstr_mypy.parse.hook import convert

    built = checker_tree(text, "m.py", (3, 11), char_columns=char_columns)
    assert built is not None
    state = BuildState()
    state.sites["m.py"] = built.sites
    tree = convert(Pending(built.tree, False, text), "m.py", Options())
    calls = _generated_calls(tree.defs, [])
    assert len(calls) == len(built.sites)
    found = []
    for call in calls:
        record = state.site("m.py", call)
        assert record is not None, f"no record for the call at {call.line}:{call.column}"
        found.append((record.kinds, record.texts, record.demands))
    return found


@pytest.mark.parametrize("char_columns", [True, False], ids=["chars", "bytes"])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after non-ASCII text on its line, the call's column differs in each unit
        ('s = "é" ; t = q"ü{x}é{y:{w}}"\n', [((D, I, D, I, S), (None, "x", None, "y"))]),
        ('s = "日本" + q"{x}" + q"語{y!r}"\n', [((I,), ("x",)), ((D, I), (None, "y"))]),
        ("s = q\"é{q'ü{x}'}\"  # ö\n", [((D, I), (None, "q'ü{x}'")), ((D, I), (None, "x"))]),
        ("s = q\"{x:{q'{y}é'}}\"\n", [((I, S), ("x",)), ((I, D), ("y", None))]),
        ('s = "é" ; t = q"""\nü{x}\n"""\n', [((D, I, D), (None, "x", None))]),
        ('s = "é" ; t = q"{x=}"\n', [((D, I), (None, "x"))]),
    ],
    ids=["spec-fields", "two-on-a-line", "nested", "nested-in-a-spec", "multi-line", "debug"],
)
def test_mypy_s_calls_find_their_records(text: str, expected: list[object], char_columns: bool) -> None:
    found = looked_up("x = y = w = 1\nq = print\n" + text, char_columns=char_columns)
    assert [(kinds, texts) for kinds, texts, _ in found] == expected


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("sqlglot",)),
    reason="the SQL parser (tagstr-toolkit[sql]) is not installed",
)
@pytest.mark.parametrize("char_columns", [True, False], ids=["chars", "bytes"])
def test_a_record_carries_the_demands_of_its_language(char_columns: bool) -> None:
    text = (
        "from typing import Annotated\n"
        "from tagstr_runtime import Decoded, Interpolation\n"
        'def sql(*args: Annotated[Decoded | Interpolation[object], "sql"]) -> str:\n'
        '    return ""\n'
        'table = n = "t"\n'
        's = "é" ; r = sql"SELECT * FROM {table} WHERE a = {n}"\n'
    )
    assert looked_up(text, char_columns=char_columns) == [
        ((D, I, D, I), (None, "table", None, "n"), (None, "identifier", None, None))
    ]
