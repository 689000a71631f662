"""Minimal reproducers of core bugs found by the property tests.

Each test states the expected behaviour: what CPython 3.12+ does with the same
body written as an ``rf"..."`` string (SPEC 2: the body is lexed as a raw
f-string per PEP 701 on every Python version), or what SPEC 5 requires.  They
are ordinary tests, not xfail.  All of them failed on the core they were found
in and pass since the fixes of commit 1a5c9d2; they stay as regression tests.
While a bug is open, ``strategies.KNOWN_BUGS`` can keep its shape out of the
generated bodies so that the properties keep guarding everything else.
"""

from __future__ import annotations

import sys
from pathlib import Path
import warnings

import pytest

import tagstr_runtime
from tagstr_runtime.syntax.model import Field
from tagstr_runtime.syntax.parser import parse


def only_field(src: str) -> Field:
    (tag,) = parse(src).tag_strings
    fields = [p for p in tag.parts if isinstance(p, Field)]
    assert len(fields) == 1
    return fields[0]


def compile_quietly(src: str) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tagstr_runtime.compile(src, "f.py", "exec")


# -- comments in replacement fields (PEP 701) --------------------------------------
#
# PEP 701 allows a comment wherever whitespace may stand in a replacement field;
# CPython 3.12/3.13 accept all of these and drop the comments from the debug
# text of '{expr=}':
#
#   rf"""{x # c\n=}"""    ->  debug text 'x \n='
#   rf"""{x = # c\n}"""   ->  debug text 'x = \n'
#   rf"""{(a # c\n)=}"""  ->  debug text '(a \n)='
#   rf"""{x!r # c\n}"""   ->  conversion 'r', no error


def test_comment_after_debug_equals_is_allowed() -> None:
    # was: TagSyntaxError "tag string: expecting '=', or '!', or ':', or '}'" at the '#'
    field = only_field('tg"""{x = # c\n}"""\n')
    assert field.expr == "x"
    assert field.debug == "x = \n"
    assert field.effective_conv == "r"


def test_comment_after_conversion_is_allowed() -> None:
    # was: TagSyntaxError "tag string: expecting ':' or '}'" at the '#'
    field = only_field('tg"""{x!r # c\n}"""\n')
    assert (field.expr, field.conv, field.spec) == ("x", "r", None)


def test_comment_after_conversion_of_a_spec_field_is_allowed() -> None:
    # CPython: rf"{x:{y!r # c\n}}" is x with the spec {y!r}
    field = only_field('tg"{x:{y!r # c\n}}"\n')
    assert field.spec is not None
    (inner,) = field.spec
    assert isinstance(inner, Field) and (inner.expr, inner.conv) == ("y", "r")


def test_debug_text_drops_comment_before_equals() -> None:
    # was: 'x # c\n=' (the comment is passed to the tag as literal text)
    assert only_field('tg"""{x # c\n=}"""\n').debug == "x \n="


def test_debug_text_drops_comment_inside_expression() -> None:
    # was: '(a # c\n)='; the expression text itself keeps the comment (SPEC 3)
    field = only_field('tg"""{(a # c\n)=}"""\n')
    assert field.expr == "(a # c\n)"
    assert field.debug == "(a \n)="


# -- deep nesting ------------------------------------------------------------------
#
# CPython reports too deep nesting as a SyntaxError ("too many nested
# f-strings", "too many nested parentheses"; MemoryError only past its parser
# stack, ~1000 levels).  The lexer recursed a few Python frames per nesting
# level and hit RecursionError at ~190 levels, which escaped from parse() and
# from tagstr_runtime.compile(): malformed (or merely absurd) input must only
# ever give SyntaxError (SPEC 5).


@pytest.mark.parametrize(
    "src",
    [
        pytest.param('tg"{' * 200 + "x" + '}"' * 200, id="tag-strings"),
        pytest.param('tg"{' + 'f"{' * 200 + "x" + '}"' * 200 + '}"', id="f-strings-in-tag"),
        pytest.param('f"{' * 200 + 'tg"x"' + '}"' * 200, id="tag-in-f-strings", marks=pytest.mark.xfail(
            # a broken plain f-string is CPython's to report (SPEC 1.8), and that
            # build's parser overflows its stack on 200 nested f-strings
            sys.platform == "emscripten" and sys.version_info[:2] == (3, 15)
            and sys.version_info.releaselevel != "final",
            reason="CPython 3.15.0rc1 under WebAssembly: the builtin raises MemoryError (parser stack)",
            raises=MemoryError, strict=True,
        )),
    ],
)
def test_deep_nesting_is_a_syntax_error_not_recursion_error(src: str) -> None:
    assert sys.getrecursionlimit() <= 10_000
    with pytest.raises(SyntaxError):
        compile_quietly(src)
    try:
        parse(src)
    except SyntaxError:
        pass  # parse() may report the nesting; it must not crash


# -- the fast path must not swallow the fallback ---------------------------------
#
# tagstr_runtime.compile first tries the builtin compile and falls back to the
# desugarer on SyntaxError.  With ~1000 tag strings in one expression (a table
# of gettext-style _"..." messages, say) CPython's parser fails on the tag
# strings with MemoryError("Parser stack overflowed - Python source too complex
# to parse") instead of SyntaxError, and that escaped although the desugarer
# handles the source fine (desugar_ast works; the desugared tree compiles).


def test_many_tag_strings_in_one_expression_compile() -> None:
    src = "x = [" + ", ".join(['tg"{a}"'] * 1000) + "]\n"
    code = compile_quietly(src)
    assert code is not None


# -- nested strings that reuse the enclosing quote --------------------------------
#
# A string nested in a field may reuse the tag string's quote (PEP 701); if it
# is an f-string (or a tag string) its own fields may span lines even when it is
# single-quoted.  CPython 3.12+: rf'{f'{x\n}'}' is one field, f'{x\n}'.  The
# bug (_Lexer.unterminated_here tried the *plain*-literal pattern on the nested
# literal): "tag string: expecting '}'".


@pytest.mark.parametrize(
    "src, expr",
    [
        pytest.param("tg'{f'{x\n}'}'\n", "f'{x\n}'", id="f-string"),
        pytest.param("tg'{f'{[\n  x,\n  y\n]}':>3}'\n", "f'{[\n  x,\n  y\n]}'", id="f-string-with-spec"),
        pytest.param("tg'{tg'{x\n}'}'\n", "tg'{x\n}'", id="tag-string"),
    ],
)
def test_nested_string_reusing_the_quote_may_span_lines_in_its_fields(src: str, expr: str) -> None:
    assert only_field(src).expr == expr
    if sys.version_info >= (3, 12) or expr.startswith("tg"):  # 3.11 cannot compile f'{x\n}'
        compile_quietly(src)


def test_error_column_when_the_file_exists_on_disk(tmp_path: Path) -> None:
    # CPython converts a placeholder error's byte column with the *file's* line
    # when the file exists: non-ASCII text before the error used to shift it.
    source = 'a = tag"é {a b}"\n'
    path = tmp_path / "on_disk.py"
    path.write_text(source, encoding="utf-8")
    for filename in (str(path), str(tmp_path / "not_on_disk.py")):
        with pytest.raises(SyntaxError) as info:
            tagstr_runtime.compile(source, filename, "exec")
        assert (info.value.lineno, info.value.offset, info.value.end_offset) == (1, 12, 15), filename
