"""The findings about tags named like a string prefix (``analysis.prefixed``): TAG003, TAG014 and MIG012.

In-process, so that Python 3.14 (pyodide), where ``t"..."`` is a t-string, runs
them too: the flake8 plugin's example files cannot run there.
"""

from __future__ import annotations

import sys
from textwrap import dedent

import pytest

from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.prefixed import (
    PREFIXES, PREFIXES_314, prefix_named_tags, prefixed_strings, string_kind,
)

PY314 = sys.version_info >= (3, 14)
HEAD = "from tagstr_runtime import Decoded, Interpolation, template_tag\n"


def strings(source: str, *, template_strings: bool | None = None, prefixes: frozenset[str] = PREFIXES
            ) -> list[tuple[int, int, str, bool]]:
    """(line, col, prefix, the binding is a tag) of each prefixed string whose name is bound."""
    module = ModuleAnalysis.read(HEAD + dedent(source), "<test>", template_strings=template_strings)
    return [
        (s.line - 1, s.col, s.name, s.definition.is_tag_function)
        for s in prefixed_strings(module, TagResolver(), prefixes)
    ]


@pytest.mark.parametrize(("prefix", "kind"), [
    ("R", "a raw string"), ("u", "a string"), ("F", "an f-string"), ("rf", "a raw f-string"),
    ("b", "a bytes literal"), ("Rb", "a raw bytes literal"), ("t", "a t-string"), ("rT", "a raw t-string"),
])
def test_string_kinds(prefix: str, kind: str) -> None:
    assert string_kind(prefix) == kind


LEFT_ALONE = [
    pytest.param('x = R"{a}"\n', id="no binding of R"),
    pytest.param('b = 1\nx = r"\\d"\n', id="other prefix bound"),
    pytest.param('R = 1\nx = html"R{a}" + html"R"\n', id="the literal text of tag strings"),
    pytest.param('R = 1\nx = f"R\'{a}\'" + f"{a:R\'}"\n', id="an f-string's text and spec"),
    pytest.param('x = "a" R"b"\n', id="implicit concatenation, R unbound"),
]


@pytest.mark.parametrize("source", LEFT_ALONE)
def test_left_alone(source: str) -> None:
    assert strings(source) == []


def test_a_string_named_after_a_binding_in_scope() -> None:
    source = """\
        R = template_tag(str)
        x = R"Hello {x}"
        def g(R):
            return R"Hello"
        class C:
            b = 1
            def m(self):
                return b"x", R"y"
        y = (f"{R'nested'}", "a" R"b")
    """
    assert strings(source) == [
        (2, 4, "R", True), (4, 11, "R", False), (8, 21, "R", True), (9, 8, "R", True),
    ]


def test_a_t_string_with_t_in_scope() -> None:
    source = """\
        def t(*args: Interpolation) -> str: ...
        x = t"Hello {x}"
        def g():
            t = 1
            return t"x"
    """
    found = [(2, 4, "t", True), (5, 11, "t", False)]
    # read as the running Python reads it (a t-string from 3.14, a tag string named t before),
    # and as a tag string named t on any Python (how the migration reads it)
    assert strings(source, prefixes=PREFIXES_314) == found
    assert strings(source, template_strings=False, prefixes=PREFIXES_314) == found
    assert strings(source) == (found if PY314 else [])  # before 3.14, t is no prefix: TAG001's case


def test_prefix_named_tags() -> None:
    source = """\
        def t(*args: Interpolation) -> str: ...
        R = template_tag(str)
        b = 1
        class U:
            def __init__(self, *args: Decoded) -> None: ...
        tr = t
    """
    module = ModuleAnalysis.read(HEAD + dedent(source), "<test>")
    found = [(f.name, f.node.lineno - 1) for f in prefix_named_tags(module, TagResolver(), PREFIXES_314)]
    assert found == [("t", 1), ("R", 2), ("U", 4), ("tr", 6)]
