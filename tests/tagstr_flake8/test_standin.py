"""``standing_in``: the standard parsers answering a tag-string file's own text, in-process.

The end-to-end proof is ``test_thirdparty_plugins.py`` (real plugins through
real flake8); this covers each entry point and each way a call is left alone.
"""

from __future__ import annotations

import ast
import builtins
import io
import tokenize

import pytest

from tagstr_flake8.lint.tag_file import TagFile, analyse
from tagstr_flake8.host.reparse import standing_in

TEXT = (
    "def greet(name):  # type: (str) -> str\n"
    "    return html\"<p>{name}</p>\"  # a tag string\n"
    "x = html'{d[\"k\"]}'\n"
)


def tagfile_of(text: str) -> TagFile:
    lines = text.splitlines(keepends=True)
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return analyse(lines, "t.py", exc)
    raise AssertionError("no tag string")


@pytest.fixture
def tagfile() -> TagFile:
    return tagfile_of(TEXT)


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def test_ast_parse_gets_a_fresh_lint_tree(tagfile: TagFile) -> None:
    with standing_in(tagfile):
        first = ast.parse(TEXT)
        second = ast.parse(TEXT.encode("utf-8"), "t.py")
        with_bom = ast.parse("\ufeff" + TEXT)
    assert _dump(first) == _dump(second) == _dump(with_bom) == _dump(tagfile.tree)
    assert first is not second and first is not tagfile.tree  # the caller may change its copy
    with pytest.raises(SyntaxError):  # outside the block: the stock answer
        ast.parse(TEXT)


def test_type_comments_and_feature_version_are_honoured(tagfile: TagFile) -> None:
    with standing_in(tagfile):
        typed = ast.parse(TEXT, type_comments=True, feature_version=(3, 11))
    func = typed.body[0]
    assert isinstance(func, ast.FunctionDef) and func.type_comment == "(str) -> str"
    assert isinstance(tagfile.tree.body[0], ast.FunctionDef) and tagfile.tree.body[0].type_comment is None


def test_compile_to_code_compiles_the_lint_tree(tagfile: TagFile) -> None:
    with standing_in(tagfile):
        code = compile(TEXT, "t.py", "exec")
    names: dict[str, object] = {"html": lambda *args: args, "d": {"k": 42}}
    exec(code, names)
    assert callable(names["greet"])
    value = names["x"]
    assert isinstance(value, tuple)
    [getvalue] = value  # the lint tree has an interpolation's closure, reading the field lazily
    assert callable(getvalue) and getvalue() == 42


def test_other_sources_and_modes_are_left_alone(tagfile: TagFile) -> None:
    with standing_in(tagfile):
        assert isinstance(ast.parse("x = 1\n"), ast.Module)
        assert isinstance(ast.parse(TEXT.splitlines()[0] + "\n    pass\n"), ast.Module)
        with pytest.raises(SyntaxError):
            ast.parse(TEXT, mode="single")
        with pytest.raises(SyntaxError):
            ast.parse(TEXT.replace("x =", "y ="))
        with pytest.raises(SyntaxError):
            ast.parse(TEXT.encode("utf-16"))  # not the file's text once decoded as a source
        assert compile(ast.parse("1\n"), "t.py", "exec").co_filename == "t.py"


def test_a_type_comment_cpython_rejects_gets_the_stock_error() -> None:
    text = "x = html\"{a}\"  # type: int\npass  # type: int\n"
    with standing_in(tagfile_of(text)), pytest.raises(SyntaxError):
        ast.parse(text, type_comments=True)


def _strings(tokens: list[tokenize.TokenInfo]) -> list[tuple[int, str]]:
    return [(t.type, t.string) for t in tokens]


def test_generate_tokens_gets_the_masked_tokens(tagfile: TagFile) -> None:
    masked = tagfile.masked_lines
    assert masked is not None
    with standing_in(tagfile):
        from_lines = list(tokenize.generate_tokens(iter(tagfile.lines).__next__))  # StopIteration ends
        from_file = list(tokenize.generate_tokens(io.StringIO(TEXT).readline))
    expected = list(tagfile.masked_tokens())
    assert from_lines == from_file == expected
    assert ("NAME", "html") in [(tokenize.tok_name[t.type], t.string) for t in expected]
    assert (tokenize.STRING, '"xxxxxxxxxxxxx"') in _strings(expected)
    assert expected[4].line == tagfile.lines[0]
    string = next(t for t in expected if t.string.startswith("'"))
    assert string.string == "'xxx\"x\"xx'" and string.line == tagfile.lines[2]  # the original line


def test_tokenize_bytes_gets_an_encoding_token_then_the_masked_tokens(tagfile: TagFile) -> None:
    data = b"\xef\xbb\xbf" + TEXT.encode("utf-8")
    with standing_in(tagfile):
        tokens = list(tokenize.tokenize(io.BytesIO(data).readline))
    assert tokens[0] == tokenize.TokenInfo(tokenize.ENCODING, "utf-8", (0, 0), (0, 0), "")
    assert tokens[1:] == list(tagfile.masked_tokens())


def test_tokenizing_other_text_is_left_alone(tagfile: TagFile) -> None:
    other = "a = 'x'\n"
    with standing_in(tagfile):
        tokens = list(tokenize.generate_tokens(io.StringIO(other).readline))
        raw = list(tokenize.tokenize(io.BytesIO(other.encode()).readline))
    assert tokens == list(tokenize.generate_tokens(io.StringIO(other).readline))
    assert raw == list(tokenize.tokenize(io.BytesIO(other.encode()).readline))


def test_unmaskable_file_tokenizes_its_own_text(tagfile: TagFile) -> None:
    tagfile.__dict__["masked_lines"] = None  # what TagFile says when its mask cannot stand for the lines
    with standing_in(tagfile):
        tokens = list(tokenize.generate_tokens(io.StringIO(TEXT).readline))
        raw = list(tokenize.tokenize(io.BytesIO(TEXT.encode()).readline))
    assert tokens == list(tokenize.generate_tokens(io.StringIO(TEXT).readline))
    assert raw == list(tokenize.tokenize(io.BytesIO(TEXT.encode()).readline))


def test_libcst_parse_module_gets_the_placeholder(tagfile: TagFile) -> None:
    libcst = pytest.importorskip("libcst")
    with standing_in(tagfile):
        module = libcst.parse_module(TEXT)
        other = libcst.parse_module("y = 2\n")
    assert module.code == tagfile.desugaring.placeholder
    assert other.code == "y = 2\n"


def test_everything_is_given_back(tagfile: TagFile) -> None:
    before = (builtins.compile, tokenize.generate_tokens, tokenize.tokenize)
    with pytest.raises(RuntimeError), standing_in(tagfile):
        assert builtins.compile is not before[0]
        raise RuntimeError("a plugin failed")
    assert (builtins.compile, tokenize.generate_tokens, tokenize.tokenize) == before
