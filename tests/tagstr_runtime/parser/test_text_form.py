"""The readable text form (``desugar()``, ``--desugar``) keeps its promise.

For generated tag strings in generated contexts, hypothesmith programs with
tag strings spliced in, and every example file:

- the output has exactly as many lines as the input;
- every line outside a tag string is byte-identical (a shebang and a coding
  cookie stay on lines 1-2);
- each interpolation's expression stays on its line;
- the output compiles with the builtin ``compile`` and, run on stock Python,
  gives the tag exactly what the tag string gives it.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation
from tagstr_runtime.frontend import SourceText, TagSyntaxError, decode_source, parse

try:
    from . import strategies as S  # tests/tagstr_runtime/parser is a package
except ImportError:
    import strategies as S  # type: ignore[no-redef]  # rootdir-relative import mode

try:
    import hypothesmith
except ImportError:  # not installable everywhere (Pyodide: it needs libcst)
    hypothesmith = None

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.py"))
HEADER = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"
NAMESPACE_SETUP = "x = 3\ny = 'why'\nname = 'Ada'\né = 1.5\n日本 = [1, 2]\n_ = 0\nvalue_2 = None\n"


def _tag_lines(text: str) -> set[int]:
    """1-based lines touched by a tag string (nested ones are inside their outer one)."""
    src = SourceText(text)
    lines: set[int] = set()
    for tag in parse(text).tag_strings:
        lines.update(range(src.line_of(tag.span.start), src.line_of(tag.span.end) + 1))
    return lines


def assert_keeps_lines(source: str) -> str:
    text = decode_source(source)
    out = tagstr_runtime.desugar(source)
    before, after = text.split("\n"), out.split("\n")
    assert len(after) == len(before), out
    touched = _tag_lines(text)
    for number, (old, new) in enumerate(zip(before, after), start=1):
        if number not in touched:
            assert new == old, f"line {number} changed: {old!r} -> {new!r}"
    src = SourceText(text)
    for tag in parse(text).tag_strings:
        for field in tag.fields():
            if not field.nested:
                line = src.line_of(field.expr_span.start)
                assert field.expr.split("\n")[0] in after[line - 1], (field.expr, after[line - 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        compile(out, "<desugared>", "exec", dont_inherit=True)
    return out


# -- what the tag receives, both ways ------------------------------------------------


def _no_address(text: str) -> str:
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def _describe(args: tuple[Any, ...]) -> list[tuple[object, ...]]:
    seen: list[tuple[object, ...]] = []
    for arg in args:
        if isinstance(arg, Decoded):
            seen.append(("D", str(arg), arg.raw))
        else:
            assert isinstance(arg, Interpolation)
            try:
                value: object = _no_address(repr(arg.getvalue()))
            except Exception as exc:  # noqa: BLE001 - the exception type is the result
                value = type(exc).__name__
            spec = arg.format_spec
            seen.append(("I", value, arg.expr, arg.conv, spec if spec is None else _no_address(spec)))
    return seen


def _run(code: Any) -> list[object]:
    calls: list[object] = []
    namespace: dict[str, Any] = {"tg": lambda *args: calls.append(_describe(args))}
    exec(compile(NAMESPACE_SETUP, "<setup>", "exec"), namespace)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 - eager format specs may raise: same both ways
        calls.append(type(exc).__name__)
    return calls


def assert_runs_the_same(source: str) -> None:
    out = assert_keeps_lines(source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        tagged = tagstr_runtime.compile(source, "<tagged>", "exec", dont_inherit=True)
        plain = compile(out, "<desugared>", "exec", dont_inherit=True)
    assert _run(plain) == _run(tagged)


# -- generated tag strings -----------------------------------------------------------

CONTEXTS = (*S.CONTEXTS, ("class K:\n    v = ", ""), ("v = [tg'{1}', ", "]"))


@settings(max_examples=S.examples(120))
@given(S.bodies(), st.sampled_from(CONTEXTS), st.booleans())
def test_generated_tag_strings(body: S.Body, context: tuple[str, str], header: bool) -> None:
    source = (HEADER if header else "") + "a = 1  # before\n" + S.tag_source(body, "tg", context) + "b = 2\n"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            tagstr_runtime.compile(source, "<tagged>", "exec", dont_inherit=True)
    except SyntaxError:
        assume(False)
    assert_runs_the_same(source)


def _top_level_boundaries(program: str) -> list[int]:
    """Offsets where a new top-level statement may start (line starts)."""
    tree = ast.parse(program)
    src = SourceText(program)
    return [0] + [src.line_start(stmt.end_lineno) + len(src.line_text(stmt.end_lineno))
                  for stmt in tree.body if stmt.end_lineno is not None and stmt.end_lineno < src.line_count]


@pytest.mark.skipif(hypothesmith is None, reason="hypothesmith is not installed")
@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=S.examples(25), deadline=None)
@given(
    hypothesmith.from_grammar() if hypothesmith else st.nothing(),
    S.bodies(max_parts=3),
    st.data(),
)
def test_hypothesmith_programs_with_tag_strings_spliced_in(
    program: str, body: S.Body, data: st.DataObject
) -> None:
    assume(len(program) < 2000)
    try:
        compile(program, "<p>", "exec", dont_inherit=True)
        boundaries = _top_level_boundaries(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        assume(False)
        return
    program = decode_source(program)
    at = data.draw(st.sampled_from(boundaries))
    if at and not program[:at].endswith("\n"):
        assume(False)
    source = program[:at] + "v = " + S.tag_source(body, "tg") + program[at:]
    try:
        tagstr_runtime.compile(source, "<tagged>", "exec", dont_inherit=True)
    except SyntaxError:
        assume(False)
    assert_keeps_lines(source)


# -- hand-picked shapes --------------------------------------------------------------

SHAPES = {
    "header": HEADER + 'v = tg"{x}"\n',
    "multi-line": 'v = tg"""a\n{x\n + 1}\nb {y!r:>{x}}\n"""\nw = 1\n',
    "nested": "v = tg'{tg'{x}'}'\n" if sys.version_info >= (3, 12) else 'v = tg"{tg\'{x}\'}"\n',
    "nested-in-spec": 'v = tg"{x:{tg\'{y}\'}}"\n',
    "debug": 'v = tg"{x = }{y=!s:>5}"\n',
    "escapes": 'v = tg"a\\n\\x41 {x} \\N{{BULLET}}"\n',
    "comment in field": 'v = tg"""{x  # the x\n}"""\n',
    "class body": "class K:\n    z = 1\n    v = tg'{x}'\n",
    "non-ascii": "é2 = tg'é {é} 日本 {日本!a}'\n",
    "no tag string": "print('plain')\n",
}


@pytest.mark.parametrize("source", SHAPES.values(), ids=SHAPES.keys())
def test_shapes(source: str) -> None:
    assert_runs_the_same(source)


def test_text_form_names_no_private_name() -> None:
    out = tagstr_runtime.desugar('v = tg"{x=}\\n"\n')
    assert "_from_parts" not in out and "__tagstr_" not in out
    assert "Decoded('x=', raw='x=')" not in out  # the plain form when cooking gives the same text


def test_errors_are_raised_at_their_position() -> None:
    with pytest.raises(TagSyntaxError) as info:
        tagstr_runtime.desugar("a = 1\nv = tg'{}'\n")
    assert (info.value.lineno, info.value.offset) == (2, 9)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_keep_their_lines(path: Path) -> None:
    assert_keeps_lines(path.read_bytes())


# run_all runs the others by path, quickstart runs run_all and the checkers
RUNNABLE = [p for p in EXAMPLES if p.name not in ("run_all.py", "quickstart.py")]


@pytest.mark.subprocess
@pytest.mark.parametrize("path", RUNNABLE, ids=[p.name for p in RUNNABLE])
def test_examples_run_the_same_desugared(path: Path, tmp_path: Path) -> None:
    """Each example run by the runner, and its text form run by stock Python, print the same."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAGSTR_")}
    env.update(TAGSTR_AUTOLOAD="0", PYTHONPATH=os.pathsep.join([str(REPO / "examples"), str(REPO / "src")]))
    desugared = tmp_path / path.name
    desugared.write_text(tagstr_runtime.desugar(path.read_bytes()), encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "tagstr_runtime", str(path)], env=env, capture_output=True, text=True, timeout=120
    )
    stock = subprocess.run([sys.executable, str(desugared)], env=env, capture_output=True, text=True, timeout=120)
    assert (stock.returncode, stock.stdout) == (ran.returncode, ran.stdout), stock.stderr
    assert ran.returncode == 0, ran.stderr
