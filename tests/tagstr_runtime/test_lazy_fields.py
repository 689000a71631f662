"""Asynchronous comprehensions in an interpolation: refused exactly where CPython refuses them in a lambda.

An interpolation is evaluated lazily, in a lambda, and a lambda is no
``async def``: CPython refuses a list, set or dict comprehension there that
is asynchronous (an ``async for``, or an asynchronous comprehension nested in
it), not an asynchronous generator expression.  The desugarer says so in
tag-string terms (SPEC 5, as for ``await``), so every tool that desugars
reports it.  Differential: each form in a field against the same form in a
plain lambda compiled by CPython, same verdict and same position.
"""

from __future__ import annotations

import pytest

import tagstr_runtime
from tagstr_runtime import TagSyntaxError

FORMS = [
    "[y async for y in xs]",
    "{y async for y in xs}",
    "{y: 1 async for y in xs}",
    "(y async for y in xs)",
    "[y for y in xs]",
    "([z async for z in y] for y in xs)",
    "[(z async for z in y) for y in xs]",
    "[[z async for z in y] for y in xs]",
    "[z for z in [y async for y in xs]]",
    "(z for z in [y async for y in xs])",
    "([z async for z in y] async for y in xs)",
    "[y async for y in xs if [w async for w in y]]",
    "{k: [v async for v in xs] for k in xs}",
    "f([y async for y in xs], 2)",
    "(lambda: 1)()",
]

REFUSED = "asynchronous comprehension outside of an asynchronous function"


def _cpython(form: str) -> tuple[int, int] | None:
    try:
        compile(f"async def f(xs):\n    return lambda: {form}\n", "f.py", "exec")
    except SyntaxError as exc:
        assert exc.msg == REFUSED
        assert exc.offset is not None
        return exc.lineno or 0, exc.offset - len("    return lambda: ")
    return None


def _ours(form: str) -> tuple[int, int] | None:
    try:
        tagstr_runtime.compile(f'async def f(xs):\n    return h" {{ {form} }}"\n', "f.py", "exec")
    except TagSyntaxError as exc:
        assert exc.msg.startswith("tag string: an asynchronous comprehension is not allowed in an interpolation")
        assert exc.offset is not None
        return exc.lineno or 0, exc.offset - len('    return h" { ')
    return None


@pytest.mark.parametrize("form", FORMS)
def test_refused_where_cpython_refuses_it_in_a_lambda(form: str) -> None:
    assert _ours(form) == _cpython(form)


def test_both_verdicts_occur() -> None:
    assert {_cpython(form) is None for form in FORMS} == {True, False}
