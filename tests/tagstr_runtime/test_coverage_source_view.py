"""The source view of coverage's HTML report for a tag-string module (``integrations.coverage_report.token_lines``).

coverage shows a file as token lines; for a tag-string module they come from
a mask in which each tag string is one string literal.  The text shown must
be the original, line for line, and a text without tag strings must get
coverage's own token lines.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

pytest.importorskip("coverage")

from coverage.phystokens import source_token_lines  # noqa: E402
from coverage.python import get_python_source  # noqa: E402

from tagstr_runtime.integrations.coverage_report import token_lines  # noqa: E402

LAYOUTS = [
    pytest.param('x = html"a\tb{x}"\t# tab\ny = 1\n', id="tabs inside and after"),
    pytest.param('x = html"a{\n  y\n}b"\n', id="single quotes, field over lines"),
    pytest.param('x = html"a{\n\n  y}b"\n', id="single quotes, empty line in a field"),
    pytest.param('x = ht"{\n\ny}"\n', id="short first line"),
    pytest.param("x = f\"{html'<b>{y}</b>'}\"\n", id="inside an f-string"),
    pytest.param('def f():\n\treturn html"""a\n\t{b}\n"""\n', id="triple quotes, tab indent"),
    pytest.param('match = html"m"\nmatch x:\n    case 1:\n        pass\n', id="soft keywords"),
]


def shown(lines: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(text for _, text in line) for line in lines]


@pytest.mark.parametrize("source", LAYOUTS)
def test_the_original_text_is_shown(source: str) -> None:
    lines = token_lines(source)
    assert shown(lines) == [line.rstrip() for line in source.expandtabs(8).split("\n")[:-1]]
    tag_tokens = [text for line in lines for kind, text in line if "html" in text or "ht" in text]
    assert tag_tokens and all(
        kind == "str" for line in lines for kind, text in line if text in tag_tokens
    )


def test_soft_keywords_keep_their_class() -> None:
    lines = token_lines('match = html"m"\nmatch x:\n    case 1:\n        pass\n')
    assert lines[0][0] == ("nam", "match")
    assert lines[1][0] == ("key", "match") and ("key", "case") in lines[2]


def test_a_layout_the_mask_cannot_keep_is_shown_plain() -> None:
    """An empty line in a field and a two-character last line: no literal fits."""
    source = 'f(q"{\n\nx\n}",\n  1)\n'
    assert token_lines(source) == [[("txt", line)] for line in source.split("\n")[:-1]]


@pytest.mark.parametrize("name", ["ast.py", "tokenize.py", "dataclasses.py", "textwrap.py", "difflib.py"])
def test_without_tag_strings_the_tokens_are_coverages(name: str) -> None:
    source = get_python_source(str(Path(sysconfig.get_paths()["stdlib"]) / name))
    assert token_lines(source) == list(source_token_lines(source))
