"""``tagstr_runtime.compile``: the builtin ``compile`` that also accepts tag strings.

Standard Python goes straight to the builtin (SPEC 1.8: a source that compiles
as standard Python contains no tag string), so callers pay for the desugarer
only on sources that need it.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any, cast

__all__ = ["compile"]

_builtin_compile = builtins.compile


def compile(  # noqa: A001 - deliberately mirrors the builtin
    source: str | bytes | ast.AST,
    filename: str = "<unknown>",
    mode: str = "exec",
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
) -> Any:
    """Compile ``source`` like the builtin ``compile``, desugaring tag strings.

    With ``ast.PyCF_ONLY_AST`` in ``flags`` the desugared tree is returned.
    Malformed tag strings raise ``SyntaxError`` at their original position.
    """
    if isinstance(source, ast.AST):
        return _builtin_compile(cast(Any, source), filename, mode, flags, dont_inherit, optimize)
    try:
        return _builtin_compile(source, filename, mode, flags, dont_inherit, optimize)
    except (SyntaxError, MemoryError) as exc:
        # MemoryError: "Parser stack overflowed" on sources that are valid once
        # desugared (say, a list of 1,000 tag strings on 3.11).
        plain_error = exc
    return _compile_tag_source(source, filename, mode, flags, dont_inherit, optimize, plain_error)


def _compile_tag_source(
    source: str | bytes,
    filename: str,
    mode: str,
    flags: int,
    dont_inherit: bool,
    optimize: int,
    plain_error: SyntaxError | MemoryError,
) -> Any:
    from tagstr_runtime._desugar import compile_source, desugar_ast

    if flags & ast.PyCF_ONLY_AST:
        return desugar_ast(source, filename, mode, flags=flags, standard_error=plain_error)
    return compile_source(source, filename, mode, flags, dont_inherit, optimize, plain_error)
