"""What CPython's top level does when a main program ends, for the runner and the start-up hook.

An uncaught exception is printed through ``sys.excepthook`` (after the
standard streams are flushed) and recorded for ``pdb.pm()``; a hook that
fails is reported as CPython reports it; ``__main__`` loses ``__file__``
once its script has run; ``python -i`` (or ``PYTHONINSPECT``) goes on to the
console; an uncaught ``KeyboardInterrupt`` ends the process by ``SIGINT``
after finalization.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["console_follows", "flush_io", "forget_file", "mark_interrupt_unhandled", "show", "silent_excepthook",
           "trim"]

_LAST = ("last_type", "last_value", "last_traceback", "last_exc")


def show(exc: BaseException, tb: TracebackType | None) -> None:
    """Print like python's top level: through ``sys.excepthook``, recorded for ``pdb.pm()``.

    A hook that fails is reported as CPython reports it (its ``SystemExit``
    ends the process, as there).
    """
    exc.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    if sys.version_info >= (3, 12):
        sys.last_exc = exc
    try:
        sys.excepthook(type(exc), exc, tb)
    except SystemExit:
        raise
    except BaseException as hook_error:  # noqa: B036 - printed, as CPython does
        failure = hook_error
    else:
        return
    flush_io()
    sys.stderr.write("Error in sys.excepthook:\n")
    sys.__excepthook__(type(failure), failure, failure.__traceback__)
    sys.stderr.write("\nOriginal exception was:\n")
    sys.__excepthook__(type(exc), exc, tb)


def flush_io() -> None:
    """Flush the standard streams before an error is printed, as python does (errors ignored)."""
    for stream in (sys.stderr, sys.stdout):
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # noqa: S110 - CPython ignores these too
            pass


def trim(tb: TracebackType | None, own: dict[str, object]) -> TracebackType | None:
    """Drop the leading frames that run in the module whose globals are ``own``."""
    while tb is not None and tb.tb_frame.f_globals is own:
        tb = tb.tb_next
    return tb


def forget_file(namespace: dict[str, object]) -> None:
    """What python does to ``__main__`` once its script has run (or failed): ``__file__`` goes."""
    namespace.pop("__file__", None)
    namespace.pop("__cached__", None)


def forget_last_error() -> None:
    """No ``sys.last_*``: what a program that ran without an uncaught exception leaves."""
    for name in _LAST:
        if hasattr(sys, name):
            delattr(sys, name)


def console_follows() -> bool:
    """Whether python goes on to its console once the main script is done (``-i``, ``PYTHONINSPECT``).

    CPython's ``pymain_repl``: inspect mode (the flag, or the variable as the
    program left it, unless ``-E``), and a console to read from (standard
    input a terminal, or ``-i`` given).
    """
    inspect = sys.flags.inspect or (not sys.flags.ignore_environment and os.environ.get("PYTHONINSPECT"))
    if not inspect:
        return False
    if sys.flags.interactive:
        return True
    try:
        return os.isatty(0)
    except OSError:
        return False


def silent_excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    pass


def mark_interrupt_unhandled() -> bool:
    """Make CPython end this process by ``SIGINT`` after finalization, as for a main program interrupted.

    CPython records an unhandled ``KeyboardInterrupt`` only when code it runs
    at its top level raises it; the start-up hook runs the script from
    ``sys.excepthook``, after that point.  So the same top level runs one
    ``raise KeyboardInterrupt`` (``PyRun_SimpleString``), printed by no hook
    and leaving ``sys.last_*`` as they were.  False where that is not
    possible (no ``ctypes``).
    """
    try:
        import ctypes

        run = ctypes.pythonapi.PyRun_SimpleString
    except (ImportError, AttributeError, OSError):
        return False
    run.argtypes = [ctypes.c_char_p]
    run.restype = ctypes.c_int
    hook = sys.excepthook
    last = {name: getattr(sys, name) for name in _LAST if hasattr(sys, name)}
    sys.excepthook = silent_excepthook
    try:
        run(b"raise KeyboardInterrupt")
    finally:
        sys.excepthook = hook
        forget_last_error()
        for name, value in last.items():
            setattr(sys, name, value)
    return True
