"""SPEC 5: the table of malformed tag strings that the runtime, mypy and flake8 tests share.

One row per error: a source, and the ``SyntaxError`` the runtime raises for
it (message, kind, and position: 1-based character offsets, as
``SyntaxError`` has them; non-ASCII text stands before the error where it
matters).  ``tests/tagstr_runtime/parser/test_errors.py`` checks the runtime
against every row, ``tests/tagstr_mypy/test_syntax_errors.py`` that mypy prints
each at the same line and column on both of its parsers, and
``tests/tagstr_flake8/test_flake8_errors.py`` that flake8's E999 does.
(``tests/`` is on ``sys.path``: see ``tests/conftest.py``.)
"""

from __future__ import annotations

import sys
from typing import NamedTuple

__all__ = ["FIELD_GRAMMAR", "SPEC_ERRORS", "SpecError"]

#: CPython 3.12+ reads f-string fields by a grammar of their own, which says what it expected
#: there; 3.11's f-string twin says "invalid syntax", where its parser stops (issue 30)
FIELD_GRAMMAR = sys.version_info >= (3, 12)


class SpecError(NamedTuple):
    id: str
    source: str
    message: str
    kind: str  # ErrorKind's value
    line: int
    offset: int
    end_line: int
    end_offset: int


SPEC_ERRORS = [
    SpecError("unterminated", 'a = tag"abc\n', "unterminated tag string (detected at line 1)", "unterminated",
              1, 5, 1, 6),
    SpecError("unterminated-triple", 'a = tag"""abc\n\n', "unterminated triple-quoted tag string (detected at line 2)",
              "unterminated", 1, 5, 1, 6),
    SpecError("empty-expression", 'a = tag"{}"\n', "tag string: valid expression required before '}'",
              "empty-expression", 1, 10, 1, 11),
    SpecError("empty-expression-blank", 'a = tag"{ }"\n', "tag string: valid expression required before '}'",
              "empty-expression", 1, 11, 1, 12),
    SpecError("empty-expression-after-text", 'x = tag"a{}"\n', "tag string: valid expression required before '}'",
              "empty-expression", 1, 11, 1, 12),
    SpecError("conversion", 'a = tag"{x!z}"\n',
              "tag string: invalid conversion character 'z': expected 's', 'r', or 'a'", "conversion", 1, 12, 1, 13),
    SpecError("conversion-missing", 'a = tag"{x!}"\n', "tag string: missing conversion character", "conversion",
              1, 12, 1, 13),
    SpecError("conversion-space", 'a = tag"{x! r}"\n',
              "tag string: conversion type must come right after the exclamation mark", "conversion", 1, 11, 1, 14),
    SpecError("conversion-non-ascii", 'é = "日本"; y = tag"{a!x}"\n',
              "tag string: invalid conversion character 'x': expected 's', 'r', or 'a'", "conversion", 1, 22, 1, 23),
    SpecError("conversion-second-line", 'x = 1\ny = (tag"{a!x}",\n     2)\n',
              "tag string: invalid conversion character 'x': expected 's', 'r', or 'a'", "conversion", 2, 13, 2, 14),
    SpecError("field-end", 'a = tag"{x!r=}"\n', "tag string: expecting ':' or '}'", "field-end", 1, 13, 1, 14),
    SpecError("single-brace", 'a = tag"é}"\n', "tag string: single '}' is not allowed", "single-brace", 1, 10, 1, 11),
    SpecError("single-brace-inside", 'x = tag"a}b"\n', "tag string: single '}' is not allowed", "single-brace",
              1, 10, 1, 11),
    SpecError("unmatched", 'a = tag"{a)}"\n', "tag string: unmatched ')'", "invalid-expression", 1, 11, 1, 12),
    SpecError("field-unclosed", 'a = tag"{x"\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
    # a literal inside a field left open: reported as such, unlike the enclosing quote just above
    SpecError("literal-in-field", 'a = tag"{\'abc}"\n', "unterminated string literal (detected at line 1)",
              "unterminated", 1, 10, 1, 11),
    SpecError("lambda", 'a = tag"{lambda x: 1}"\n',
              "tag string: lambda expressions are not allowed without parentheses", "invalid-expression",
              1, 10, 1, 19),
    SpecError("generator", 'a = tag"{x for x in y}"\n', "tag string: expecting '=', or '!', or ':', or '}'",
              "field-end", 1, 12, 1, 15),
    SpecError("await", 'async def f():\n    a = tag"{await x}"\n',
              "tag string: 'await' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
              "await-yield", 2, 14, 2, 21),
    SpecError("await-returned", 'async def f():\n    return tag"{await g()}"\n',
              "tag string: 'await' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
              "await-yield", 2, 17, 2, 26),
    SpecError("yield", 'a = tag"{yield}"\n',
              "tag string: 'yield' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
              "await-yield", 1, 10, 1, 15),
    SpecError("yield-parenthesized", 'def f():\n    return tag"{(yield)}"\n',
              "tag string: 'yield' is not allowed in an interpolation (it is evaluated lazily, in a lambda)",
              "await-yield", 2, 18, 2, 23),
    SpecError("invalid-syntax", 'a = tag"é {a b}"\n', "tag string: invalid syntax. Perhaps you forgot a comma?",
              "invalid-expression", 1, 12, 1, 15),
    SpecError("escape", 'a = tag"\\x4"\n', "tag string: (unicode error) truncated \\xXX escape", "escape",
              1, 9, 1, 12),
    SpecError("escape-name", 'a = tag"é\\N{{NO SUCH NAME}}"\n',
              "tag string: (unicode error) unknown Unicode character name", "escape", 1, 10, 1, 28),
    # at the '\N' that opened the field, naming the cause and the fix (the character only if it is one)
    SpecError("named-escape", 'x = tag"a \\N{EM DASH} b"\n',
              "tag string: '\\N{' starts an interpolation, and 'EM DASH' is not an expression; "
              "write '\\N{{EM DASH}}' for the character", "invalid-expression", 1, 11, 1, 22),
    SpecError("named-escape-spec", 'x = tag"{a:\\N{NO SUCH}}"\n',
              "tag string: '\\N{' starts an interpolation, and 'NO SUCH' is not an expression; "
              "write '\\\\N' for a backslash and N before it", "invalid-expression", 1, 12, 1, 23),
    SpecError("keyword-tag", 'a = None"x"\n', "keyword 'None' cannot be used as a tag", "keyword-tag", 1, 5, 1, 9),
    SpecError("keyword-tag-statement", 'def"x"\n', "keyword 'def' cannot be used as a tag", "keyword-tag",
              1, 1, 1, 4),
    SpecError("keyword-tag-lambda", 'a = lambda"x"\n', "keyword 'lambda' cannot be used as a tag", "keyword-tag",
              1, 5, 1, 11),
    SpecError("dotted-tag", 'a = x.tag"a"\n',
              "dotted names cannot be used as tags; bind the tag to a plain name first", "dotted-tag", 1, 7, 1, 11),
    SpecError("concatenation", 'a = tag"a" "b"\n',
              "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
              1, 12, 1, 13),
    SpecError("concatenation-before", 'a = "b" tag"a"\n',
              "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
              1, 9, 1, 13),
    SpecError("concatenation-f-string", 'a = tag"a" f"b"\n',
              "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
              1, 12, 1, 14),
    SpecError("concatenation-tag-string", 'a = tag"a" tag"b"\n',
              "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
              1, 12, 1, 16),
    SpecError("concatenation-next-line", 'a = (tag"a"\n     "b")\n',
              "tag strings cannot be implicitly concatenated with other string literals", "concatenation",
              2, 6, 2, 7),
    SpecError("format-spec-newline", 'x = tag"{y:a\nb}"\n',
              "tag string: newlines are not allowed in format specifiers for single quoted tag strings",
              "format-spec", 1, 13, 1, 14),
    SpecError("pattern", 'match 1:\n    case tag"x":\n        pass\n', "tag strings cannot be used as match patterns",
              "pattern", 2, 10, 2, 16),
    SpecError("async-comprehension", 'async def f(xs):\n    a = tag"{[y async for y in xs]}"\n',
              "tag string: an asynchronous comprehension is not allowed in an interpolation (it is evaluated lazily, "
              "in a lambda)", "await-yield", 2, 14, 2, 35),
    # NFKC: a keyword to the compiler (PEP 3131), not to CPython's tokenizer
    SpecError("keyword-nfkc", 'a = 𝐢𝐟"x"\n', "keyword 'if' cannot be used as a tag", "keyword-tag", 1, 5, 1, 7),
    # a bracket left open in a field: CPython's tokenizer error at the '}' (issue 30)
    SpecError("open-paren", 'x = tag"{fmt(item.name}"\n',
              "tag string: closing parenthesis '}' does not match opening parenthesis '('", "invalid-expression",
              1, 23, 1, 24),
    SpecError("open-paren-multiline", 'x = tag"""\n<li>{fmt(item.name}</li>\n"""\n',
              "tag string: closing parenthesis '}' does not match opening parenthesis '('", "invalid-expression",
              2, 19, 2, 20),
    SpecError("open-paren-other-line", 'x = tag"""{f(a,\n  b}"""\n',
              "tag string: closing parenthesis '}' does not match opening parenthesis '(' on line 1",
              "invalid-expression", 2, 4, 2, 5),
    SpecError("debug-then-more", 'x = tag"{a = 1}"\n', "tag string: expecting '!', or ':', or '}'", "field-end",
              1, 14, 1, 15),
    # a '}' missing at the end of a line of a single-quoted tag string: reported on that line,
    # not where the code after it breaks the field (a def's ':' read as a format spec)
    SpecError("missing-brace-def", 'x = tag"{a\ndef f(x):\n    return 1\n', "tag string: expecting '}'",
              "field-end", 1, 11, 1, 12),
    SpecError("missing-brace-non-ascii", 'x = tag"é {a\ny = 2\n', "tag string: expecting '}'", "field-end",
              1, 13, 1, 14),
    SpecError("missing-brace-quote", 'x = tag"{a\nprint(\'it\'s\')\n', "tag string: expecting '}'", "field-end",
              1, 11, 1, 12),
    SpecError("missing-brace-end", 'x = tag"{a\n', "tag string: expecting '}'", "field-end", 1, 11, 1, 12),
]

# CPython's word for what a field's expression lacks: its f-string twin's, on each version (issue 30)
if FIELD_GRAMMAR:
    SPEC_ERRORS += [
        SpecError("invalid-syntax-end", 'x = tag"{1 +}"\n', "tag string: expecting '=', or '!', or ':', or '}'",
                  "field-end", 1, 12, 1, 13),
        SpecError("invalid-syntax-multiline", 'a = tag"""\n  {x +}"""\n',
                  "tag string: expecting '=', or '!', or ':', or '}'", "field-end", 2, 6, 2, 7),
        SpecError("invalid-syntax-nested", 'x = tag"{html\'{1 +}\'}"\n',
                  "tag string: expecting '=', or '!', or ':', or '}'", "field-end", 1, 18, 1, 19),
        SpecError("keyword-in-field", 'a = tag"{import}"\n', "tag string: expecting a valid expression after '{'",
                  "invalid-expression", 1, 10, 1, 16),
        SpecError("empty-lambda", 'a = tag"{(lambda: )}"\n', "tag string: expecting a valid expression after '{'",
                  "invalid-expression", 1, 10, 1, 11),
    ]
else:
    SPEC_ERRORS += [
        SpecError("invalid-syntax-end", 'x = tag"{1 +}"\n', "tag string: invalid syntax", "invalid-expression",
                  1, 13, 1, 14),
        SpecError("invalid-syntax-multiline", 'a = tag"""\n  {x +}"""\n', "tag string: invalid syntax",
                  "invalid-expression", 2, 7, 2, 8),
        SpecError("invalid-syntax-nested", 'x = tag"{html\'{1 +}\'}"\n', "tag string: invalid syntax",
                  "invalid-expression", 1, 19, 1, 20),
        SpecError("keyword-in-field", 'a = tag"{import}"\n', "tag string: invalid syntax", "invalid-expression",
                  1, 10, 1, 16),
        SpecError("empty-lambda", 'a = tag"{(lambda: )}"\n', "tag string: invalid syntax", "invalid-expression",
                  1, 19, 1, 20),
    ]
