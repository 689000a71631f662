"""``builtins.compile``, ``exec`` and ``eval`` that also take tag strings, in processes that run them.

Tools that run a script compile it themselves, with the builtin: ``runpy``
(so every spawned or forkserver ``multiprocessing`` child re-running the main
script), ``pdb``, ``cProfile``, ``trace``, ``coverage run``, debugpy.  The
import hook never sees those, and ``exec(text)`` / ``eval(text)`` compile in
C, past ``compile``.  ``install`` therefore replaces the three builtins by
the functions below, in the processes that run code with tag strings:

- ``python -m tagstr_runtime`` (and, through ``TAGSTR_COMPILE=1``, which
  child processes inherit and ``tagstr_autoload.pth`` honours, its children);
- ``python script.py`` of a script with tag strings (``run.main_script``);
- a process started by a debugger or profiler that compiles the script
  itself (``_autostart``: debugpy, pdb, cProfile...);
- a process that imports a module with tag strings (the import hook), for
  that process only: a debugger stopped in that module evaluates what the
  user types with these builtins;
- an IPython shell with the extension loaded (``%run``).

Every call goes to the builtin first and gets its result unchanged, and its
exceptions unchanged: this module's frames are taken out of their tracebacks
(a bare ``raise`` adds no frame), which then read as the stock ones.  Only a
source the builtin rejects is handed to the desugarer, which re-raises the
builtin's own error for a source without tag strings (SPEC 1.8): for
``compile``, a source asked for as a code object (not ``PyCF_ONLY_AST``:
``ast.parse`` keeps its stock answer); for ``exec`` and ``eval``, a text whose
own compilation failed (its traceback holds no frame of it: nothing ran).
Future imports of the *calling* code are inherited as the builtin would:
``exec`` and ``eval`` call the builtin from a frame carrying the caller's
future flags, and read the caller's globals and locals as the builtin does.

Decisions: docs/decisions/0033-builtins-compile-under-the-runner.md,
docs/decisions/0042-exec-and-eval.md, docs/decisions/0043-which-processes-get-the-compile-hook.md.

Imported at start-up in those processes: it imports nothing.
"""

import builtins
import sys

TYPE_CHECKING = False  # mypy reads this as typing.TYPE_CHECKING; no typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from types import CodeType, ModuleType
    from typing import Any

ENV_VAR = "TAGSTR_COMPILE"
_builtin_compile = builtins.compile
_builtin_exec = builtins.exec
_builtin_eval = builtins.eval
_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST (ast is not imported at start-up)
_TEXT = (str, bytes, bytearray, memoryview)
_CODE = type((lambda: None).__code__)


def compile(  # noqa: A001 - it replaces the builtin
    source: "Any",
    filename: "Any",
    mode: str,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    **more: "Any",  # what the builtin also takes: _feature_version=, and module= from 3.15
) -> "Any":
    caller = sys._getframe(1).f_code
    if not dont_inherit:  # the caller's future imports, not this module's
        flags |= caller.co_flags & _future_flags()
        dont_inherit = True
    try:
        return _builtin_compile(source, filename, mode, flags, dont_inherit, optimize, **more)
    except BaseException as exc:
        _hide_own_frames(exc)
        if (
            not isinstance(exc, (SyntaxError, MemoryError))
            or flags & _ONLY_AST
            or not isinstance(source, _TEXT)
            # importlib's stock loaders (py_compile, compileall, and imports the
            # hook does not serve) would write desugared code into a standard
            # pyc that stock Python then runs: the import hook caches its own
            or caller.co_filename.startswith("<frozen importlib")
        ):
            raise
        error = exc
    try:
        return _desugared(source, filename, mode, flags, optimize, error)
    except BaseException as exc:
        _hide_own_frames(exc)
        raise


def _caller_scope(source: "Any", globals: "Any", locals: "Any") -> "tuple[Any, Any, int]":
    """What the builtin ``exec``/``eval`` takes from its caller (the caller of this helper's
    caller): the globals and locals when none are given, its future flags for a text."""
    flags = 0
    if globals is None or type(source) is not _CODE:
        caller = sys._getframe(2)
        if globals is None:
            globals = caller.f_globals
            if locals is None:
                locals = _as_read(caller.f_locals)
        if type(source) is not _CODE:
            flags = caller.f_code.co_flags & _future_flags()
    return globals, locals, flags


def exec(  # noqa: A001 - it replaces the builtin
    source: "Any", globals: "Any" = None, locals: "Any" = None, /, *, closure: "Any" = None, **unknown: "Any"
) -> None:
    if unknown:  # the builtin's own TypeError
        try:
            _builtin_exec(source, globals, locals, closure=closure, **unknown)
        except BaseException as exc:
            _hide_own_frames(exc)
            raise
    globals, locals, flags = _caller_scope(source, globals, locals)
    try:
        if flags:  # compiled from a frame carrying the caller's future flags, as by the builtin
            return _inheriting(flags).exec(source, globals, locals, closure)
        return _builtin_exec(source, globals, locals, closure=closure)
    except BaseException as exc:
        _hide_own_frames(exc)
        if exc.__traceback__ is not None or not isinstance(exc, SyntaxError) or not isinstance(source, _TEXT):
            raise
        error = exc
    try:
        _run_text(source, "exec", flags, error, globals, locals)
    except BaseException as exc:
        _hide_own_frames(exc)
        raise


def eval(  # noqa: A001 - it replaces the builtin
    source: "Any", globals: "Any" = None, locals: "Any" = None, /, **unknown: "Any"
) -> "Any":
    if unknown:  # the builtin's own TypeError (3.13: globals and locals by keyword are known)
        try:
            return _builtin_eval(source, globals, locals, **unknown)
        except BaseException as exc:
            _hide_own_frames(exc)
            raise
    globals, locals, flags = _caller_scope(source, globals, locals)
    try:
        if flags:
            return _inheriting(flags).eval(source, globals, locals)
        return _builtin_eval(source, globals, locals)
    except BaseException as exc:
        _hide_own_frames(exc)
        if exc.__traceback__ is not None or not isinstance(exc, SyntaxError) or not isinstance(source, _TEXT):
            raise
        error = exc
    try:
        return _run_text(source, "eval", flags, error, globals, locals)
    except BaseException as exc:
        _hide_own_frames(exc)
        raise


if sys.version_info >= (3, 13):  # 3.13's exec and eval take globals= and locals= by keyword too
    exec.__code__ = exec.__code__.replace(co_posonlyargcount=1)
    eval.__code__ = eval.__code__.replace(co_posonlyargcount=1)
for _function, _builtin in ((compile, _builtin_compile), (exec, _builtin_exec), (eval, _builtin_eval)):
    _function.__doc__ = _builtin.__doc__
    setattr(_function, "__wrapped__", _builtin)  # noqa: B010 - inspect.signature: the builtin's


def _desugared(source: "Any", filename: "Any", mode: str, flags: int, optimize: int,
               error: "SyntaxError | MemoryError") -> "CodeType":
    """The code of a source the builtin rejected: desugared, else the builtin's own error."""
    from tagstr_runtime.run.compile import compile_source

    data = source if isinstance(source, (str, bytes)) else bytes(source)
    state = _state(error)
    try:
        return compile_source(data, filename, mode, flags, True, optimize, error)
    except SyntaxError as exc:
        _as_compile_error(exc, error, state)
        raise


def _run_text(source: "Any", mode: str, flags: int, error: SyntaxError, globals: "Any", locals: "Any") -> "Any":
    """``exec``/``eval`` of a text the builtin could not compile: desugared, else its error."""
    if mode == "eval":  # the builtin eval skips leading blanks and tabs
        source = source.lstrip(" \t") if isinstance(source, str) else bytes(source).lstrip(b" \t")
    code = _desugared(source, "<string>", mode, flags, -1, error)
    if mode == "eval":
        return _builtin_eval(code, globals, locals)
    _builtin_exec(code, globals, locals)
    return None


def _state(error: BaseException) -> "tuple[Any, ...]":
    return error.__traceback__, error.__context__, error.__cause__, error.__suppress_context__


def _as_compile_error(exc: SyntaxError, error: BaseException, state: "tuple[Any, ...]") -> None:
    """``exc`` raised as a compile error is: the builtin's ``error`` exactly as it came
    (the desugarer re-raised it), or a malformed tag string's without our frames."""
    if exc is error:
        exc.__traceback__, exc.__context__, exc.__cause__, exc.__suppress_context__ = state
    else:
        exc.__traceback__ = None
        exc.__cause__ = None
        exc.__suppress_context__ = True


_OWN_CODE: "set[int]" = set()  # id() of the code objects whose frames tracebacks leave out


def _hide_own_frames(exc: BaseException) -> None:
    """Drop this module's frames from the head of ``exc``'s traceback.

    Raised again with a bare ``raise``, the exception gets no new entry for
    the frame re-raising it: the caller's frame comes next, as when the
    builtin itself raised.
    """
    tb = exc.__traceback__
    while tb is not None and id(tb.tb_frame.f_code) in _OWN_CODE:
        tb = tb.tb_next
    exc.__traceback__ = tb


_PROXY: "type | None" = None
if sys.version_info >= (3, 13):  # PEP 667: a function's frame.f_locals is a live proxy
    _PROXY = type((lambda: sys._getframe().f_locals)())


def _as_read(frame_locals: "Mapping[str, Any]") -> "Mapping[str, Any]":
    """The locals the builtin reads for a caller giving none: on 3.13+ a function's are a
    snapshot (``PyEval_GetFrameLocals``), elsewhere the mapping ``frame.f_locals`` is."""
    if _PROXY is not None and type(frame_locals) is _PROXY:
        return dict(frame_locals)
    return frame_locals


class _Inheriting:
    """The builtins called from frames whose code has the caller's future flags."""

    def __init__(self, flags: int) -> None:
        def call_exec(source: "Any", globals: "Any", locals: "Any", closure: "Any") -> None:
            _builtin_exec(source, globals, locals, closure=closure)

        def call_eval(source: "Any", globals: "Any", locals: "Any") -> "Any":
            return _builtin_eval(source, globals, locals)

        for function in (call_exec, call_eval):
            function.__code__ = function.__code__.replace(co_flags=function.__code__.co_flags | flags)
            _OWN_CODE.add(id(function.__code__))
        self.exec = call_exec
        self.eval = call_eval


_BY_FLAGS: "dict[int, _Inheriting]" = {}


def _inheriting(flags: int) -> _Inheriting:
    found = _BY_FLAGS.get(flags)
    if found is None:
        found = _BY_FLAGS[flags] = _Inheriting(flags)
    return found


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


_OWN_CODE.update(id(f.__code__) for f in (compile, exec, eval, _desugared, _run_text))


def install(children: bool = True) -> None:
    """Replace the builtins (idempotent); ``children``: also in child processes (``TAGSTR_COMPILE=1``).

    Also lets ``pdb`` evaluate tag strings in the frame it stopped in
    (``integrations.pdb_commands``), now or when it is imported.
    """
    if builtins.compile is not compile:
        builtins.compile = compile
    if builtins.exec is not exec:
        builtins.exec = exec
    if builtins.eval is not eval:
        builtins.eval = eval
    if children:
        import os

        os.environ[ENV_VAR] = "1"
    debuggers()


def debuggers() -> None:
    """Let ``pdb`` evaluate tag strings in the frame it stopped in (``integrations.pdb_commands``),
    now or when it is imported; the builtins stay as they are (idempotent)."""
    _when_imported("pdb", "tagstr_runtime.integrations.pdb_commands")


def installed() -> bool:
    return builtins.compile is compile


def uninstall(children: bool = True) -> None:
    """Undo ``install`` (for an in-process run of the runner's ``main``); ``children``:
    child processes too (``TAGSTR_COMPILE`` goes)."""
    for name, ours, builtin in (("compile", compile, _builtin_compile), ("exec", exec, _builtin_exec),
                                ("eval", eval, _builtin_eval)):
        if getattr(builtins, name) is ours:
            setattr(builtins, name, builtin)
    if children:
        import os

        os.environ.pop(ENV_VAR, None)


def _when_imported(name: str, integration: str) -> None:
    """``integration.patch(module)`` for the module ``name``: now if imported, else right
    after its import (a one-shot meta path finder; ``python -m pdb`` imports ``pdb``
    too, from its ``__main__``)."""
    module = sys.modules.get(name)
    if module is not None:
        _patch(integration, module)
    elif not any(getattr(finder, "_tagstr_watches", None) == name for finder in sys.meta_path):
        sys.meta_path.insert(0, _Watch(name, integration))


def _patch(integration: str, module: "ModuleType") -> None:
    from importlib import import_module

    patch: "Callable[[ModuleType], None]" = import_module(integration).patch
    patch(module)


class _Watch:
    """A one-shot meta path finder: ``_patch`` right after the module is executed."""

    def __init__(self, name: str, integration: str) -> None:
        self._tagstr_watches = name
        self.integration = integration

    def find_spec(self, name: str, path: "Any" = None, target: "Any" = None) -> "Any":
        if name != self._tagstr_watches or self not in sys.meta_path:
            return None
        # Staying in place until the module runs: ``python -m pdb`` finds ``pdb`` for
        # ``runpy`` (which runs its code as ``__main__``), then imports it.
        sys.meta_path.remove(self)
        try:
            from importlib.util import find_spec

            spec = find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return None
        integration = self.integration

        def exec_module(module: "ModuleType") -> None:
            del loader.exec_module  # the loader as it was (a stock one compares equal again)
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
            loader.exec_module(module)
            _patch(integration, module)

        try:
            loader.exec_module = exec_module
        except (AttributeError, TypeError):  # a loader class, not an instance: patched at the next install
            return None
        return spec
