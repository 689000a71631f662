"""``python script.py`` for a script with tag strings: what the start-up hook's excepthook runs.

CPython could not compile the main script and handed its ``SyntaxError`` to
``sys.excepthook`` (``_autostart``) before running any of it: ``sys.argv``,
``sys.path[0]``, the warnings and ``-X`` options are what the command line
says, and ``__main__`` holds only the names CPython gave it.  If the file has
tag strings, it is compiled as ``python -m tagstr_runtime script.py``
compiles it and runs in that ``__main__``, in this process; then the process
ends as ``python`` ends after a script (``run._top_level``): exit status 0,
the script's ``SystemExit``, 1 after a traceback at the original lines, death
by ``SIGINT`` after an uncaught ``KeyboardInterrupt``, or the console under
``-i``.  A malformed tag string gets the runner's positioned error.  A file
without tag strings (a real syntax error) returns ``False``: CPython's own
error goes, untouched, to the next hook.  Why this way:
docs/decisions/0040-python-script-py-from-sys-excepthook.md.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from tagstr_runtime.support.patching import strict
from tagstr_runtime.run.top_level import (
    console_follows, flush_io, forget_file, forget_last_error, mark_interrupt_unhandled, show, trim,
)

if TYPE_CHECKING:
    from types import CodeType

__all__ = ["run_instead"]

_started = False  # once per process: a later SyntaxError (the malformed one, printed) is passed on


def run_instead(error: SyntaxError) -> bool:
    """Run the main script CPython failed to compile with ``error``, if tag strings are why.

    Returns ``False`` (nothing done) for a script without tag strings;
    ``True`` once the console is to follow; otherwise ends the process.
    """
    global _started
    if _started or error.filename is None:
        return False
    path = error.filename
    try:
        with open(path, "rb") as file:
            source = file.read()
    except OSError:  # gone, or a pipe CPython already read
        return False
    if _skips_first_line():  # python -x: that line is not Python
        source = b"\n" + source.partition(b"\n")[2]
    _started = True
    try:
        code = _compiled(source, path, error)
    except Exception:  # a bug of ours: CPython's error, as without the hook
        if strict():
            raise
        return False
    if code is None:
        return False
    namespace: dict[str, object] = sys.modules["__main__"].__dict__
    if isinstance(code, SyntaxError):  # a malformed tag string: the runner's error, no traceback
        show(code, None)
        return _finish(namespace, 1)
    from tagstr_runtime.run import compile_hook as _compile_hook
    from tagstr_runtime._importhook import TagSourceFileLoader

    # as the runner sets up its __main__ (the loader compiles tag strings) and the process
    namespace["__loader__"] = TagSourceFileLoader("__main__", path)
    _compile_hook.install()
    forget_last_error()  # CPython recorded the SyntaxError; a script that runs leaves none
    return _execute(code, namespace)


def _compiled(source: bytes, path: str, error: SyntaxError) -> CodeType | SyntaxError | None:
    """The script's code, the error of a malformed tag string, or None without tag strings.

    The desugarer's lexer is the one look for tag strings: without any, it
    gives back ``error`` itself, which goes on exactly as CPython made it.
    """
    from tagstr_runtime.run.compile import compile_source

    state = error.__traceback__, error.__context__, error.__cause__, error.__suppress_context__
    try:
        return compile_source(source, path, "exec", 0, True, -1, error)
    except SyntaxError as exc:
        if exc is not error:
            return exc
    # CPython's own error, re-raised by the desugarer: passed on exactly as it came
    error.__traceback__, error.__context__, error.__cause__, error.__suppress_context__ = state
    return None


def _execute(code: CodeType, namespace: dict[str, object]) -> bool:
    from tagstr_runtime.run.compile_hook import _builtin_exec

    try:
        _builtin_exec(code, namespace)
    except BaseException as exc:  # noqa: B036 - every outcome is python's top level's
        error = exc
    else:
        return _finish(namespace, 0)
    # handled outside the except clause: nothing the hooks do gets the script's error as context
    if isinstance(error, SystemExit) and not sys.flags.inspect:
        raise error  # CPython exits with its code (after atexit, flushing), __file__ still set
    flush_io()
    show(error, trim(error.__traceback__, globals()))
    if isinstance(error, KeyboardInterrupt) and not console_follows():
        if mark_interrupt_unhandled():
            return True  # CPython removes __file__, finalizes, then dies by SIGINT
        forget_file(namespace)
        raise SystemExit(130)
    return _finish(namespace, 1)


def _finish(namespace: dict[str, object], status: int) -> bool:
    """End as python ends after its main script: the console, or the exit status."""
    if console_follows():
        return True  # CPython removes __file__ itself, then starts its console
    forget_file(namespace)
    raise SystemExit(status)


def _skips_first_line() -> bool:
    """``python -x``: CPython skipped the script's first line (read from ``sys.orig_argv``)."""
    args = iter(sys.orig_argv[1:])
    for arg in args:
        if arg == "--check-hash-based-pycs":
            next(args, None)
        elif arg in ("-", "--") or not arg.startswith("-"):
            return False  # the script (or what stands for it) comes next: no more options
        elif not arg.startswith("--"):
            for index, letter in enumerate(arg[1:], 1):
                if letter in "WX":  # its value follows, in this argument or the next one
                    if index == len(arg) - 1:
                        next(args, None)
                    break
                if letter == "x":
                    return True
    return False
