"""The checker tree's record of each tag string (``SiteRecord``): what the hooks read
instead of telling the generated call's arguments apart by their nodes.

Each record is keyed by the position mypy gives the generated call (the tag
string's start, in the column unit of the parser mypy would use), says what
each argument after the tag is, and carries each interpolation's source text.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

from tagstr_mypy.parse.checker_tree import DECODED, INTERPOLATION, SPEC, checker_tree  # noqa: E402

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
