"""An f-string or t-string field that holds a tag string shows the tag string's text, as written.

CPython copies an ``=`` field's text (and, on 3.14, a t-string field's
``expression``) from the text it parses, which for a module with tag strings
is the placeholder (``up'x{x}'`` reads ``up(  x,)``): the desugarer puts the
source's text back (``desugarer.field_texts``).  Compared with the f-string
twin: the same line, the tag string written as a call of the same result.
"""

from __future__ import annotations

import sys

import pytest

import tagstr_runtime

PRELUDE = '''
from tagstr_runtime import accepts_template

@accepts_template
def up(*args):
    return "".join(a.upper() if isinstance(a, str) else str(a.getvalue()).upper() for a in args)

x = "abc"
'''


def run(line: str) -> str:
    namespace: dict[str, object] = {}
    exec(tagstr_runtime.compile(PRELUDE + f"result = {line}\n", "<field-texts>", "exec"), namespace)
    return str(namespace["result"])


CASES = [
    pytest.param("""f"{up'x{x}'=}\"""", "up'x{x}'='XABC'", id="the issue's example"),
    pytest.param("""f"{ up'x{x}' = }\"""", " up'x{x}' = 'XABC'", id="blanks kept"),
    pytest.param("""f"a{up'y'=!s:>6}b\"""", "aup'y'=     Yb", id="conversion and spec"),
    pytest.param("""f"{(up'z')=}\"""", "(up'z')='Z'", id="parenthesised"),
    pytest.param("""f"{up'é{x}'=} {x=}\"""", "up'é{x}'='ÉABC' x='abc'", id="non-ASCII, and a plain field after"),
    pytest.param("""f"{up'{up"q"}'=}\"""", """up'{up"q"}'='Q'""", id="nested tag strings"),
    pytest.param("""f"{f'{up"w"=}'=}\"""", """f'{up"w"=}'='up"w"=\\'W\\''""", id="an f-string in an f-string"),
    pytest.param("""up"{up'v'=}\"""", "UP'V'=V", id="a tag string's own '=' field"),
]


@pytest.mark.parametrize(("line", "shown"), CASES)
def test_an_equals_field_shows_the_tag_string_as_written(line: str, shown: str) -> None:
    assert run(line) == shown


def test_a_module_without_tag_strings_in_its_fields_is_untouched() -> None:
    assert run('f"{x=} {x.upper()=}"') == "x='abc' x.upper()='ABC'"


@pytest.mark.skipif(sys.version_info < (3, 14), reason="t-strings: Python 3.14+")
def test_a_t_string_field_keeps_the_tag_string_as_its_expression() -> None:
    found = run("""[(i.expression, i.value) for i in t"{up'x'} { up'y' = }".interpolations]""")
    assert found == "[(\"up'x'\", 'X'), (\" up'y'\", 'Y')]"
