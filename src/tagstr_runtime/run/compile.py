"""``tagstr_runtime.compile``: the builtin ``compile`` that also accepts tag strings.

Standard Python goes straight to the builtin (SPEC 1.8: a source that compiles
as standard Python contains no tag string), so callers pay for the desugarer
only on sources that need it.  ``compile_source`` is what the import hook, the
runner and the pytest plugin call.

The desugarer (parser tables, generator) is imported inside the functions that
need it: a program without tag strings that calls ``compile`` never loads it.
"""

from __future__ import annotations

import ast
import builtins
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from types import CodeType

__all__ = ["compile", "compile_desugared", "compile_source", "desugar_ast"]

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
    if flags & ast.PyCF_ONLY_AST:
        return desugar_ast(source, filename, mode, flags=flags, standard_error=plain_error)
    return compile_source(source, filename, mode, flags, dont_inherit, optimize, plain_error)


def desugar_ast(
    source: str | bytes,
    filename: str = "<unknown>",
    mode: str = "exec",
    *,
    flags: int = 0,
    standard_error: SyntaxError | MemoryError | None = None,
    template_strings: bool | None = None,
    feature_version: tuple[int, int] | None = None,
    emit_warnings: bool = True,
) -> ast.AST:
    """The standard-Python tree of ``source``, every node at its original position.

    A source without tag strings gets exactly ``ast.parse``'s tree (or, if
    given, ``standard_error``: CPython's error for it is the best one).
    Malformed tag strings raise ``TagSyntaxError`` (SPEC 5).
    """
    from tagstr_runtime.desugarer.desugaring import Desugaring
    from tagstr_runtime.syntax.source import decode_source

    try:
        text = decode_source(source)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        # an undecodable source (bad cookie, bytes invalid in its encoding) is
        # CPython's to report, exactly as it does without us
        if standard_error is not None:
            raise standard_error from None
        raise
    work = Desugaring(
        text, filename, mode, flags=flags, standard_error=standard_error,
        template_strings=template_strings, feature_version=feature_version,
        emit_warnings=emit_warnings, original=source,
    )
    if work.tag_strings:  # code with tag strings will run: let inspect read it
        from tagstr_runtime.run.inspect_source import ensure

        ensure(filename)
    return work.tree


def compile_desugared(
    tree: ast.AST,
    filename: str,
    mode: str = "exec",
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    source: str | bytes | None = None,
) -> CodeType:
    """Compile a desugared tree; errors get the original line as their text."""
    from tagstr_runtime.desugarer.desugaring import collector_paused
    from tagstr_runtime.syntax.source import SourceText, decode_source

    try:
        with collector_paused():
            code: CodeType = _builtin_compile(
                cast(Any, tree), filename, mode, flags & ~ast.PyCF_ONLY_AST, dont_inherit, optimize
            )
        return code
    except SyntaxError as exc:
        if source is not None and exc.lineno is not None:
            src = SourceText(decode_source(source))
            if exc.lineno <= src.line_count:
                exc.text = src.line_text(exc.lineno)
        raise


def compile_source(
    source: str | bytes,
    filename: str,
    mode: str = "exec",
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    standard_error: SyntaxError | MemoryError | None = None,
) -> CodeType:
    """Desugar and compile in one go, the cyclic collector paused throughout.

    The tree is dropped before the collector resumes, so it never scans the
    tens of thousands of nodes a large module makes (a collection at that
    point cost a quarter of the whole compile).
    """
    from tagstr_runtime.desugarer.desugaring import collector_paused

    with collector_paused():
        tree = desugar_ast(source, filename, mode, flags=flags, standard_error=standard_error)
        code = compile_desugared(tree, filename, mode, flags, dont_inherit, optimize, source)
        del tree
    return code
