"""Text with tag strings run as code of a paused frame: what a debugger's user types.

A debugger evaluates a command with ``eval``/``exec`` and two namespaces,
the frame's globals and a mapping of its locals.  Module-level code run that
way reads and writes the mapping, but a lambda compiled in it (every
interpolation is one, SPEC 3) reads only the globals: ``p html"{local}"``
stopped in a function would raise ``NameError`` where the same text written
in that function works (issue 36).  So the text runs as the body of a
function nested in one that binds each name of the mapping: interpolations,
and functions the text defines, close over them as they would in the frame's
own code.  Names the text binds or rebinds go back to the mapping
afterwards, as pdb 3.13 does for its own lambdas (``Pdb._exec_in_closure``).

This is for debuggers only (``integrations.pdb_commands``): ``exec(code, g,
l)`` of code compiled from such a text keeps the rule of lambdas
(docs/decisions/0021-table-names-live-in-the-globals.md).
"""

from __future__ import annotations

import ast
import keyword
import sys
from typing import TYPE_CHECKING, Any

from tagstr_runtime.run.compile_hook import _builtin_compile, _builtin_eval, _builtin_exec

if TYPE_CHECKING:
    from collections.abc import MutableMapping

__all__ = ["has_tag_strings", "run_in_frame"]

_VALUES, _BACK, _SHOW, _OUTER, _SCOPE = (
    "__tagstr_values__", "__tagstr_back__", "__tagstr_show__", "__tagstr_outer__", "__tagstr_scope__"
)


def has_tag_strings(text: str, filename: str, mode: str) -> bool:
    """Whether ``text`` is for us: CPython cannot parse it, the desugarer can (or reports a
    malformed tag string).  A text without tag strings is the stock tool's to run or reject."""
    try:
        _builtin_compile(text, filename, mode, ast.PyCF_ONLY_AST, True)
        return False
    except (SyntaxError, MemoryError, ValueError) as exc:
        error = exc
    if isinstance(error, ValueError):  # null bytes: the stock tool's error
        return False
    from tagstr_runtime.run.compile import desugar_ast

    try:
        desugar_ast(text, filename, mode, standard_error=error, emit_warnings=False)
    except SyntaxError as exc:
        return exc is not error
    return True


def run_in_frame(
    text: str, filename: str, mode: str, globals: dict[str, Any], locals: MutableMapping[str, Any] | None
) -> Any:
    """Run ``text`` (``mode``: ``eval``, ``single`` or ``exec``) as code of the frame whose
    namespaces these are; ``eval`` returns the value, ``single`` shows each expression
    statement's value with ``sys.displayhook``, as the interactive mode does."""
    from tagstr_runtime.run.compile import compile_source

    code = compile_source(text, filename, mode, 0, True)  # the errors, positioned, as a compile gives them
    if locals is None or locals is globals:
        return _builtin_eval(code, globals) if mode == "eval" else _builtin_exec(code, globals)
    names = [name for name in list(locals) if _closable(name)]
    scope = _scope(text, filename, mode, names, globals)
    if scope is None:  # the text cannot be a function's body: run as module-level code
        return _builtin_eval(code, globals, locals) if mode == "eval" else _builtin_exec(code, globals, locals)
    before = {name: locals[name] for name in names}
    after: dict[str, Any] = {}
    function = scope(before, lambda: after.update(sys._getframe(1).f_locals), lambda value: sys.displayhook(value))
    try:
        return function()
    finally:
        _write_back(locals, before, after)


def _closable(name: object) -> bool:
    return (isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)
            and not name.startswith("__tagstr") and name != "__class__")


def _scope(text: str, filename: str, mode: str, names: list[str], globals: dict[str, Any]) -> Any:
    """``__tagstr_outer__(values, back, show)``, which binds ``names`` and returns the
    function whose body is the text, or None when the text cannot be one."""
    from tagstr_runtime.run.compile import desugar_ast

    tree = desugar_ast(text, filename, "exec", emit_warnings=False)
    assert isinstance(tree, ast.Module)
    body = tree.body
    if mode == "eval":
        last = body[-1]
        assert isinstance(last, ast.Expr)
        body[-1] = ast.copy_location(ast.Return(last.value), last)
    elif mode == "single":
        body = [_Shown().visit(statement) for statement in body]
    declared = _declared(body)
    names = [name for name in names if name not in declared]
    inner: list[ast.stmt] = [ast.Nonlocal(names=names)] if names else []
    call_back = ast.Expr(ast.Call(ast.Name(_BACK, ast.Load()), [], []))
    inner.append(ast.Try(body=body, handlers=[], orelse=[], finalbody=[call_back]))
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(_VALUES), ast.arg(_BACK), ast.arg(_SHOW)],
                              kwonlyargs=[], kw_defaults=[], defaults=[])
    no_arguments = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    values = ast.Name(_VALUES, ast.Load())
    outer_body: list[ast.stmt] = [
        ast.Assign([ast.Name(name, ast.Store())], ast.Subscript(values, ast.Constant(name), ast.Load()))
        for name in names
    ]
    outer_body.append(ast.FunctionDef(_SCOPE, no_arguments, inner, [], None, None, **_type_params()))
    outer_body.append(ast.Return(ast.Name(_SCOPE, ast.Load())))
    module = ast.Module([ast.FunctionDef(_OUTER, arguments, outer_body, [], None, None, **_type_params())], [])
    _place(module)
    try:
        code = _builtin_compile(module, filename, "exec", 0, True)
    except SyntaxError:  # return, yield, await, a future import at the top of the text
        return None
    namespace: dict[str, Any] = {}
    _builtin_exec(code, globals, namespace)
    outer = namespace[_OUTER]

    def make(values: dict[str, Any], back: Any, show: Any) -> Any:
        function = outer(values, back, show)
        function.__code__ = function.__code__.replace(co_name="<module>", co_qualname="<module>")
        return function

    return make


def _type_params() -> dict[str, Any]:
    return {"type_params": []} if sys.version_info >= (3, 12) else {}


class _Shown(ast.NodeTransformer):
    """Expression statements outside nested scopes show their value (``PRINT_EXPR``)."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        show = ast.Call(ast.Name(_SHOW, ast.Load()), [node.value], [])
        return ast.copy_location(ast.Expr(ast.copy_location(show, node.value)), node)

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


def _declared(body: list[ast.stmt]) -> set[str]:
    """Names the text declares ``global`` or ``nonlocal`` in its own scope."""
    found: set[str] = set()
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _place(module: ast.Module) -> None:
    """Generated nodes on line 1 (the text's own keep their positions)."""
    for node in ast.walk(module):
        if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
            node.lineno, node.col_offset = 1, 0  # type: ignore[attr-defined]
            node.end_lineno, node.end_col_offset = 1, 0  # type: ignore[attr-defined]


def _write_back(locals: MutableMapping[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
    """The names the text bound, rebound or deleted, into the frame's mapping."""
    for name in (_VALUES, _BACK, _SHOW):
        after.pop(name, None)
    for name, value in after.items():
        if name not in before or before[name] is not value:
            locals[name] = value
    for name in before:
        if name not in after:
            try:
                del locals[name]
            except (KeyError, ValueError, TypeError):  # 3.13's frame proxy cannot delete a fast local
                pass
