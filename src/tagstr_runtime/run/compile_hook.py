"""``builtins.compile`` that also compiles tag strings, while code runs under the runner.

Tools that run a script compile it themselves, with the builtin: ``runpy``
(so every spawned or forkserver ``multiprocessing`` child re-running the main
script), ``pdb``, ``cProfile``, ``trace``, ``coverage run``.  The import hook
never sees those.  So ``python -m tagstr_runtime`` replaces ``builtins.compile``
by ``compile`` below and sets ``TAGSTR_COMPILE=1``, which child processes
inherit and ``tagstr_autoload.pth`` honours; a user can set it too.

Every call goes to the builtin first and gets its result unchanged; only a
source the builtin rejects, asked for as a code object (not ``PyCF_ONLY_AST``:
``ast.parse`` keeps its stock answer), is handed to the desugarer, which
re-raises the builtin's own error for a source without tag strings (SPEC 1.8).
Future imports of the *calling* code are inherited as the builtin would.

Imported at start-up when the variable is set: it imports nothing.
"""

import builtins
import sys

TYPE_CHECKING = False  # mypy reads this as typing.TYPE_CHECKING; no typing at start-up
if TYPE_CHECKING:
    from types import CodeType
    from typing import Any

ENV_VAR = "TAGSTR_COMPILE"
_builtin_compile = builtins.compile
_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST (ast is not imported at start-up)


def compile(  # noqa: A001 - it replaces the builtin
    source: "Any",
    filename: "Any",
    mode: str,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    *,
    _feature_version: int = -1,
) -> "Any":
    caller = sys._getframe(1).f_code
    if not dont_inherit:  # the caller's future imports, not this module's
        flags |= caller.co_flags & _future_flags()
        dont_inherit = True
    try:
        return _builtin_compile(
            source, filename, mode, flags, dont_inherit, optimize, _feature_version=_feature_version
        )
    except (SyntaxError, MemoryError) as exc:
        if (
            flags & _ONLY_AST
            or not isinstance(source, (str, bytes, bytearray, memoryview))
            # importlib's stock loaders (py_compile, compileall, and imports the
            # hook does not serve) would write desugared code into a standard
            # pyc that stock Python then runs: the import hook caches its own
            or caller.co_filename.startswith("<frozen importlib")
        ):
            raise
        error = exc
    from tagstr_runtime.run.compile import compile_source

    data = source if isinstance(source, (str, bytes)) else bytes(source)
    try:
        code: "CodeType" = compile_source(data, filename, mode, flags, dont_inherit, optimize, error)
        return code
    except SyntaxError as exc:
        raise exc.with_traceback(None) from None


compile.__doc__ = _builtin_compile.__doc__
_FUTURE_FLAGS = -1


def _future_flags() -> int:
    global _FUTURE_FLAGS
    if _FUTURE_FLAGS < 0:
        import __future__

        flags = 0
        for name in __future__.all_feature_names:
            flags |= getattr(__future__, name).compiler_flag
        _FUTURE_FLAGS = flags
    return _FUTURE_FLAGS


def install(children: bool = True) -> None:
    """Replace ``builtins.compile`` (idempotent); ``children``: also in child processes."""
    if builtins.compile is not compile:
        builtins.compile = compile
    if children:
        import os

        os.environ[ENV_VAR] = "1"


def uninstall() -> None:
    """Undo ``install`` (for an in-process run of the runner's ``main``)."""
    import os

    if builtins.compile is compile:
        builtins.compile = _builtin_compile
    os.environ.pop(ENV_VAR, None)
