"""IPython extension: ``%load_ext tagstr_runtime`` makes cells accept tag strings.

IPython parses a cell with its shell's ``compile.ast_parse`` (the builtin
``compile`` with ``PyCF_ONLY_AST`` and the future flags earlier cells turned
on), then compiles and runs the tree's statements one by one, the last one
displayed.  The extension wraps ``ast_parse`` *on that shell's compiler
instance*: the standard parse first, untouched; only a cell it rejects goes to
the desugarer, whose tree has every node at its original position in the
cell.  IPython caches the cell's own text under the cell's name, so
tracebacks show the cell's lines, tag strings and all; a malformed tag string
is a ``SyntaxError`` that IPython shows as it shows its own.

The input transformers (magics, ``!cmd``, ``x?``) work on text before the
parse and see a tag string as a name followed by a string: they leave it
alone.  Nothing is changed at class level, so other shells in the process,
and this one after ``%unload_ext``, behave as stock.  IPython is never
imported here: the shell is handed in.

``%run script.py`` compiles the file with the builtin ``compile`` and the
debugger (``%debug``, ``%run -d``) evaluates with the builtin ``eval``: while
the extension is loaded, the process has the builtins of ``run.compile_hook``
(unless something else installed them, they go again at ``%unload_ext``).
"""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["load_ipython_extension", "unload_ipython_extension"]

_MARK = "__tagstr_wrapped__"
_LOADED_BY: set[int] = set()  # id() of the shells whose loading installed the compile hook


def load_ipython_extension(shell: Any) -> None:
    """Called by ``%load_ext tagstr_runtime`` (and ``--ext`` / ``extensions`` at start-up)."""
    compiler = shell.compile
    if getattr(compiler.ast_parse, _MARK, False):
        return
    original = compiler.ast_parse

    def ast_parse(source: str, filename: str = "<unknown>", symbol: str = "exec") -> ast.AST:
        try:
            tree: ast.AST = original(source, filename, symbol)
            return tree
        except (SyntaxError, MemoryError) as exc:
            error = exc
        from tagstr_runtime.run.compile import desugar_ast

        try:
            return desugar_ast(source, filename, symbol, flags=compiler.flags, standard_error=error)
        except SyntaxError as exc:  # shown by IPython without our frames
            raise exc.with_traceback(None) from None

    setattr(ast_parse, _MARK, True)
    ast_parse.__doc__ = original.__doc__
    compiler.ast_parse = ast_parse
    from tagstr_runtime.run import compile_hook

    if not compile_hook.installed():
        compile_hook.install(children=False)
        _LOADED_BY.add(id(shell))


def unload_ipython_extension(shell: Any) -> None:
    """Called by ``%unload_ext tagstr_runtime``: the compiler's own ``ast_parse`` again."""
    compiler = shell.compile
    if getattr(compiler.ast_parse, _MARK, False):
        del compiler.ast_parse
    if id(shell) in _LOADED_BY:
        _LOADED_BY.discard(id(shell))
        from tagstr_runtime.run import compile_hook

        compile_hook.uninstall(children=False)
