"""In-process checks of what the hooks hand to flake8 (no subprocess)."""

from __future__ import annotations

import ast
import tokenize

import pytest

from tagstr_flake8.lint.tag_file import analyse, mask_text, physical_lines

from flake8_harness import EXAMPLES, runs_here

WITH_TAGS = []
for _path in sorted(p for p in EXAMPLES.glob("*.py") if runs_here(p)):
    _lines = physical_lines(_path.read_text(encoding="utf-8"))  # as flake8 reads the file
    try:
        ast.parse("".join(_lines))
    except SyntaxError as _exc:
        WITH_TAGS.append(pytest.param(_lines, _exc, id=_path.stem))


@pytest.mark.parametrize(("lines", "error"), WITH_TAGS)
def test_lint_tree_has_no_generated_names(lines: list[str], error: SyntaxError) -> None:
    tagfile = analyse(lines, "x.py", error)
    names = {n.id for n in ast.walk(tagfile.tree) if isinstance(n, ast.Name)}
    assert not {n for n in names if n.startswith("__tagstr")}
    written = sum(line.startswith("from tagstr") for line in lines)  # the file's own (lang_*.py)
    assert len([s for s in tagfile.tree.body if isinstance(s, ast.ImportFrom) and "tagstr" in (s.module or "")]) \
        == written
    assert compile(tagfile.tree, "x.py", "exec")  # still a valid module


@pytest.mark.parametrize(("lines", "error"), WITH_TAGS)
def test_masked_lines_keep_columns_and_tokenize(lines: list[str], error: SyntaxError) -> None:
    tagfile = analyse(lines, "x.py", error)
    masked = tagfile.masked_lines
    assert masked is not None
    assert [len(line) for line in masked] == [len(line) for line in lines]
    tokens = list(tokenize.generate_tokens(iter(masked).__next__))
    outside = {(t.start, t.string) for t in tokens if t.type == tokenize.NAME}
    # every tag name is still a NAME token at its place
    for tag in tagfile.outermost:
        pos = tagfile.source.pos(tag.span.start)
        if "\n" not in tag.quote and len(tag.quote) == 1 and "\n" in tagfile.source.text[tag.span.start:tag.span.end]:
            continue  # multi-line single-quoted: may be written as a triple-quoted literal
        assert ((pos.line, pos.col_char), tag.tag) in outside


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param('x = tag"{a}b"\n', 'x = tag"xxxx"\n', id="simple"),
        pytest.param('x = tag"{d["k"]}"\n', 'x = tag"xxxxxxxx"\n', id="reused-quote"),
        pytest.param("x = tag\"{d['k']}\"\n", "x = tag\"xxx'x'xx\"\n", id="other-quote-kept"),
        pytest.param("x = tag'''{d[\"k\"]}\n'''\n", "x = tag'''xxx\"x\"xx\n'''\n", id="other-quote-triple"),
        pytest.param("x = tag\"{a +\n b['k']}\"\n", "x = tag\"xxx\\\nxxx'x'xx\"\n", id="other-quote-continued"),
        pytest.param('x = tag"{a +\n b}"\n', 'x = tag"xxx\\\nxxx"\n', id="continued"),
        pytest.param('x = tag"{a +\n\n b}"\n', 'x = """xxxxx\n\nx"""\n', id="empty-line"),
        pytest.param('x = tag"""{a}\n"""\n', 'x = tag"""xxx\n"""\n', id="triple"),
    ],
)
def test_mask_text(text: str, expected: str) -> None:
    lines = text.splitlines(keepends=True)
    try:
        ast.parse(text)
    except SyntaxError as exc:
        tagfile = analyse(lines, "x.py", exc)
    assert mask_text(tagfile.source.text, tagfile.outermost) == expected


def test_generated_positions_exclude_user_nodes() -> None:
    text = 'x = tag"a{b}c{d:>{w}}"\n'
    try:
        ast.parse(text)
    except SyntaxError as exc:
        tagfile = analyse([text], "x.py", exc)
    user = {(n.lineno, n.col_offset) for n in ast.walk(tagfile.tree) if isinstance(n, ast.Name)}
    # the tag name (col 4) and the fields' names b, d, w are the user's
    assert user == {(1, 0), (1, 4), (1, 10), (1, 14), (1, 18)}
    assert not user & tagfile.generated_positions
    assert {(1, 8), (1, 9), (1, 12), (1, 13), (1, 16)} <= tagfile.generated_positions


def test_malformed_tag_string_is_a_plain_syntax_error() -> None:
    text = 'x = tag"{a!x}"\n'
    with pytest.raises(SyntaxError) as raised:
        ast.parse(text)
    with pytest.raises(SyntaxError) as info:
        analyse([text], "x.py", raised.value)
    assert type(info.value) is SyntaxError
    assert info.value.offset == 11  # flake8 adds one: E999 at column 12, the 'x'
