"""The generated ``Interpolation`` call: the one place that writes its shape and the one that reads it.

Each field of a tag string reaches its tag as an ``Interpolation`` made of four
fields: the lambda that evaluates the expression (``getvalue``), the
expression's text, the conversion and the format spec.  Generated code makes
it one of two ways (``_rt``):

* ``F((lambda: x, 'x', None, None))``: one 4-tuple, for the class itself
  (``_rt.table``'s slot 0; the text forms ``desugar()`` and ``ship()`` too);
* ``F(lambda: x, 'x', None, None)``: four arguments, for the compiled
  constructor (``_rt.fields_table``'s slot 0, where ``_speedups`` is built).

``interpolation_call`` and ``place_call`` (the runtime emitter) and
``write_interpolation`` (the text forms, ``desugarer.render`` and
``desugarer.shipped``) are the only writers of that shape; ``read_interpolation``
is its only reader, for the emitter's hoisting and for the tests and tools that
take generated code apart (``GeneratedModule`` reads a whole module the runtime
emitter wrote: its table of ``Decoded`` slots and its hoisted calls).
``tests/test_architecture.py`` fails if another module builds or unpacks the
four fields.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, NamedTuple, Union

from tagstr_runtime.syntax.model import Field

__all__ = [
    "Fields", "GeneratedModule", "interpolation_call", "is_thunk", "place_call", "read_interpolation", "thunk",
    "write_interpolation",
]

#: ``(lineno, col_offset, end_lineno, end_col_offset)`` (``desugarer.emit.Position``)
Position = tuple[int, int, int, int]
_LOAD = ast.Load()
# Shared: ``arguments`` carries no position, and compile() reads a shared node as often as it occurs.
# It also tells a generated lambda from the user's (``is_thunk``): CPython gives each its own.
_NO_ARGUMENTS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)


def thunk(value: ast.expr, at: Position) -> ast.Lambda:
    """``lambda: value``: how an interpolation's expression is deferred."""
    node = ast.Lambda(_NO_ARGUMENTS, value)
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at
    return node


def is_thunk(node: ast.AST) -> bool:
    """A lambda ``thunk`` wrote (every emitter defers an interpolation through it), not one of
    the source's: asked of every lambda of a tree, and kept nowhere."""
    return isinstance(node, ast.Lambda) and node.args is _NO_ARGUMENTS


def _fields(field: Field, value: ast.expr, spec: ast.expr, at: Position) -> list[ast.expr]:
    """The four fields' nodes, each at ``at`` (attribute assignment, inlined: one call per
    interpolation of every module the runtime compiles)."""
    getvalue = ast.Lambda(_NO_ARGUMENTS, value)
    text = ast.Constant(field.expr)
    conv = ast.Constant(field.effective_conv)
    for node in (getvalue, text, conv):
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at
    return [getvalue, text, conv, spec]


def fields_tuple(field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.Tuple:
    """``(lambda: value, 'expr', conv, spec)``: the one argument of the 4-tuple form."""
    node = ast.Tuple(_fields(field, value, spec, at), _LOAD)
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at
    return node


def interpolation_call(
    function: ast.expr, field: Field, value: ast.expr, spec: ast.expr, at: Position, four_arguments: bool
) -> ast.Call:
    """``function((lambda: value, 'expr', conv, spec))``, or with ``four_arguments``
    ``function(lambda: value, 'expr', conv, spec)``; every node of it at ``at`` but
    ``value`` and ``spec``, which keep their own positions."""
    arguments: list[ast.expr] = (
        _fields(field, value, spec, at) if four_arguments else [fields_tuple(field, value, spec, at)]
    )
    node = ast.Call(function, arguments, [])
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at
    return node


def place_call(call: ast.Call, at: Position) -> None:
    """Move the nodes of a call ``interpolation_call`` wrote to ``at``: the call, its
    function, the 4-tuple and the four fields; the lambda's body keeps its place (the
    runtime's hoisting makes the call on line 1, its value is still read where the tag
    string stands)."""
    fields = read_interpolation(call)
    assert fields is not None, ast.dump(call)
    for node in (call, call.func, *call.args, *fields):
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at


def write_interpolation(
    put: Callable[[str], None], function: str, expression: str, text: str, conv: str,
    spec: Callable[[], None],
) -> None:
    """The text form of the 4-tuple form: ``function((lambda: expression, text, conv, spec))``,
    written piece by piece through ``put`` (``expression``, ``text`` and ``conv`` are written
    as given; ``spec()`` writes the format spec, on the lines it chooses)."""
    put(f"{function}((lambda: ")
    put(expression)
    put(f", {text}, {conv}, ")
    spec()
    put("))")


# -- the reader ---------------------------------------------------------------------------


class Fields(NamedTuple):
    """The four fields of one generated ``Interpolation`` call, as nodes."""

    getvalue: ast.Lambda
    expr: ast.expr  # the expression's text: a constant (shipped code: a name inside an f-string)
    conv: ast.expr  # the conversion: a constant
    spec: ast.expr  # the format spec: a constant, an f-string, a ``RawSpec`` slot or its call

    @property
    def text(self) -> str | None:
        """The expression's text, where it is written as a constant."""
        value = getattr(self.expr, "value", None)
        return value if isinstance(value, str) else None

    @property
    def conversion(self) -> str | None:
        """``'r'``, ``'s'``, ``'a'`` or None (a conversion not written as a constant: None)."""
        value = getattr(self.conv, "value", None)
        return value if isinstance(value, str) else None


def read_interpolation(node: ast.AST) -> Fields | None:
    """The fields of ``node`` if it is an ``Interpolation`` call as generated code writes it
    (either form), else None."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    arguments = node.args
    if len(arguments) == 1 and isinstance(arguments[0], ast.Tuple):
        arguments = arguments[0].elts
    if len(arguments) != 4:
        return None
    getvalue, expr, conv, spec = arguments
    if not isinstance(getvalue, ast.Lambda) or getvalue.args.args or getvalue.args.vararg:
        return None
    return Fields(getvalue, expr, conv, spec)


#: one argument of a tag's call, read back: a ``Decoded``'s ``(cooked, raw)`` or an interpolation's fields
Argument = Union[tuple[str, str], Fields]


class GeneratedModule:
    """A module the runtime emitter wrote (``exec`` mode, its generated names bound by the
    prologue), read back: what each name of its table holds, and its hoisted calls.

    The prologue is ``global ...``, the table's import, ``S0, S1, ... = T(TEXTS[, RAWS[,
    SPECS]])`` and, when calls were hoisted, ``H1, ... = (call, ...)``
    (``desugarer.emit.RuntimeEmitter.prologue``).
    """

    def __init__(self, tree: ast.Module, start: int = 0) -> None:
        """``start``: the index of the prologue's first statement in ``tree.body``."""
        body = tree.body
        if not (isinstance(body[start], ast.Global) and isinstance(body[start + 1], ast.ImportFrom)):
            raise ValueError("not a module the runtime emitter wrote (no prologue)")
        build = body[start + 2]
        assert isinstance(build, ast.Assign) and isinstance(build.value, ast.Call)
        targets = build.targets[0]
        assert isinstance(targets, ast.Tuple)
        constants: list[Any] = [arg.value for arg in build.value.args if isinstance(arg, ast.Constant)]
        texts: tuple[str, ...] = constants[0]
        raw_of: dict[int, str] = dict(constants[1]) if len(constants) > 1 else {}
        specs: set[int] = {spec[0] for spec in constants[2]} if len(constants) > 2 else set()
        names = [target.id for target in targets.elts if isinstance(target, ast.Name)]
        #: the name of each ``Decoded`` slot -> its (cooked, raw): slot 0 (the constructor)
        #: and the format specs' slots left out
        self.decoded: dict[str, tuple[str, str]] = {
            name: (text, raw_of.get(index, text))
            for index, (name, text) in enumerate(zip(names[1:], texts)) if index not in specs
        }
        #: the name of each hoisted ``Interpolation`` -> its call
        self.hoisted: dict[str, ast.Call] = {}
        if len(body) > start + 3 and isinstance(body[start + 3], ast.Assign):
            hoisted = body[start + 3]
            assert isinstance(hoisted, ast.Assign)
            targets, values = hoisted.targets[0], hoisted.value
            if isinstance(targets, ast.Tuple) and isinstance(values, ast.Tuple):
                for target, value in zip(targets.elts, values.elts):
                    if isinstance(target, ast.Name) and isinstance(value, ast.Call):
                        self.hoisted[target.id] = value

    def argument(self, node: ast.expr) -> Argument:
        """What one argument of a tag's call passes: a ``Decoded`` slot's ``(cooked, raw)``, or
        the fields of an ``Interpolation`` (written in place or hoisted)."""
        if isinstance(node, ast.Name):
            if node.id in self.decoded:
                return self.decoded[node.id]
            node = self.hoisted[node.id]
        fields = read_interpolation(node)
        if fields is None:
            raise ValueError(f"not a generated argument: {ast.dump(node)}")
        return fields
