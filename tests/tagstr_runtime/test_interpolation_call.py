"""The generated ``Interpolation`` call read back (``desugarer.interpolation_call``): both forms
the runtime emitter writes, hoisted or in place, and the text forms ``desugar()`` and ``ship()``
write, give back what each tag string's parts are."""

from __future__ import annotations

import ast

import pytest

from tagstr_runtime.desugarer.desugaring import Desugaring
from tagstr_runtime.desugarer.emit import RuntimeEmitter
from tagstr_runtime.desugarer.interpolation_call import Fields, GeneratedModule, read_interpolation
from tagstr_runtime.desugarer.render import desugar
from tagstr_runtime.desugarer.shipped import ship

SOURCE = '''\
def tag(*args):
    return args

top = tag"a\\tb{top_name!r:>{width}}c"
def f(local):
    return tag"{GLOBAL:>3}{local}\\x41{1 + 2!a}"
'''
#: each tag string's parts, as the tag receives them: a Decoded's (cooked, raw), or an
#: interpolation's (expression text, conversion, the spec's source)
EXPECTED = [
    [("a\tb", "a\\tb"), ("top_name", "r", "f'>{width}'"), ("c", "c")],
    [("GLOBAL", None, "'>3'"), ("local", None, "None"), ("A", "\\x41"), ("1 + 2", "a", "None")],
]


def _parts(read: list[Fields | tuple[str, str]]) -> list[tuple[str | None, ...]]:
    return [(part.text, part.conversion, ast.unparse(part.spec)) if isinstance(part, Fields) else part
            for part in read]


def _tag_calls(tree: ast.AST) -> list[ast.Call]:
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "tag"]
    return sorted(calls, key=lambda call: call.lineno)


@pytest.mark.parametrize("compiled", [False, True], ids=["one-tuple", "four-arguments"])
@pytest.mark.parametrize("hoist", [False, True], ids=["in-place", "hoisted"])
def test_the_runtime_form_reads_back(compiled: bool, hoist: bool) -> None:
    tree = Desugaring(SOURCE, "<m>", emitter=RuntimeEmitter(compiled=compiled, hoist=hoist, salt="s")).tree
    assert isinstance(tree, ast.Module)
    module = GeneratedModule(tree)
    assert bool(module.hoisted) is hoist  # GLOBAL:>3, in a function, reads a global
    assert [_parts([module.argument(arg) for arg in call.args]) for call in _tag_calls(tree)] == EXPECTED
    for call in module.hoisted.values():  # made on line 1, its value read where the tag string stands
        fields = read_interpolation(call)
        assert fields is not None and call.lineno == fields.getvalue.lineno == 1 and fields.getvalue.body.lineno == 6


@pytest.mark.parametrize("form", [desugar, ship])
def test_the_text_forms_read_back(form: object) -> None:
    assert callable(form)
    text = form(SOURCE)
    calls = [fields for node in ast.walk(ast.parse(text)) if (fields := read_interpolation(node)) is not None]
    expected = [part for parts in EXPECTED for part in parts if len(part) == 3]
    read = sorted(((fields.getvalue.lineno, fields.getvalue.col_offset), fields) for fields in calls)
    assert [ast.unparse(fields.getvalue.body) for _, fields in read] == ["top_name", "GLOBAL", "local", "1 + 2"]
    assert [(fields.text, fields.conversion) for _, fields in read] == [part[:2] for part in expected]


@pytest.mark.parametrize("code", [
    "f(x)", "f((lambda: x, 'x', None))", "f(lambda y: y, 'x', None, None)", "f((lambda: x, 'x', None, None), k=1)",
    "f(*(lambda: x, 'x', None, None))",
])
def test_other_calls_are_not_read(code: str) -> None:
    assert read_interpolation(ast.parse(code, mode="eval").body) is None
