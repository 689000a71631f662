"""Start-up activation of the import hook, run once per interpreter start.

Two files reach ``activate`` and site processes exactly one of them:
``tagstr_autoload.start`` (PEP 829, read by Python 3.15+, whose ``site``
then skips the import line of the ``.pth`` of the same name) names it as
its entry point; ``tagstr_autoload.pth`` (read by 3.11–3.14, which ignore
``.start`` files) imports ``_autohook``, which calls it.  Importing this
module does nothing: the entry point is called, so nothing runs twice.

Runs in every interpreter start of the environment, so it must cost next to
nothing: ``_importhook`` imports only modules ``site`` has already loaded,
and the desugarer is imported only when some module fails to compile as
standard Python.  ``TAGSTR_AUTOLOAD=0`` (or ``false``/``no``/``off``) leaves
the interpreter untouched, e.g. to compare against stock behaviour.
``TAGSTR_COMPILE=1`` (set by ``python -m tagstr_runtime`` for its child
processes) also replaces ``builtins.compile``, ``exec`` and ``eval``
(``run.compile_hook``), as does a process started by a debugger or profiler
that compiles the script itself (``_script_compiled_by_a_tool``).

``python script.py`` (issue 29): CPython compiles the main script after
``site`` ran, and hands its ``SyntaxError`` to ``sys.excepthook`` before any
of the script has run.  ``_arm_main_script`` puts a hook there, chained to
whatever hook was there before (and outermost again after ``sitecustomize``
and ``usercustomize``, which may install their own); it imports nothing
until the main script fails to compile, and then ``run._main_script``
decides, and runs the script as the runner would if tag strings are why.
"""

import os
import sys

TYPE_CHECKING = False  # mypy reads this as typing.TYPE_CHECKING; no typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType, FrameType, ModuleType, TracebackType

    ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]

#: ``sys.argv[0]`` at start-up when no script file is named (``-c``, ``-m``, stdin, the REPL)
_NO_SCRIPT = ("", "-c", "-m", "-")
_MARK = "_tagstr_main_script"  # on our hooks: ``sys.excepthook`` already is one


def activate() -> None:
    """The entry point of ``tagstr_autoload.start``; ``_autohook`` calls it for the ``.pth``."""
    if os.environ.get("TAGSTR_AUTOLOAD", "1").strip().lower() in {"0", "false", "no", "off"}:
        return
    from tagstr_runtime._importhook import install

    install()
    if os.environ.get("TAGSTR_COMPILE") == "1":  # set by the runner for its child processes
        from tagstr_runtime.run import compile_hook as _compile_hook

        _compile_hook.install()
    elif _script_compiled_by_a_tool():
        from tagstr_runtime.run import compile_hook as _compile_hook

        _compile_hook.install(children=False)
    _arm_main_script()


#: ``python -m NAME script.py`` where NAME compiles the script itself, and evaluates what its user types
_TOOL_MODULES = frozenset({"debugpy", "pdb", "cProfile", "profile", "trace"})


def _script_compiled_by_a_tool() -> bool:
    """``sys.orig_argv`` starts a debugger or profiler that compiles the script with the builtin.

    ``python -m debugpy ... script.py`` (VS Code's "Run and Debug" starts
    ``python <debugpy folder> --connect ... script.py`` through its launcher),
    PyCharm's ``python .../pydevd.py --file script.py``, ``python -m pdb``,
    ``-m cProfile``, ``-m profile``, ``-m trace``: the import hook never sees
    the script, and the debugger compiles what its user types.  Not under
    ``-I``, which leaves script runs stock
    (docs/decisions/0043-which-processes-get-the-compile-hook.md).  A few string
    comparisons: no other process pays more.
    """
    if sys.flags.isolated:
        return False
    args = iter(getattr(sys, "orig_argv", ())[1:])
    for arg in args:
        if arg == "--":
            return _is_tool_script(next(args, ""))
        if arg == "--check-hash-based-pycs":
            next(args, None)
        elif arg == "-" or not arg.startswith("-"):
            return _is_tool_script(arg)
        elif not arg.startswith("--"):
            for index, letter in enumerate(arg[1:], 1):
                if letter in "cmWX":  # its value: the rest of the argument, or the next one
                    value = arg[index + 1 :] or next(args, "")
                    if letter == "c":
                        return False
                    if letter == "m":
                        return value.partition(".")[0] in _TOOL_MODULES
                    break
    return False


def _is_tool_script(arg: str) -> bool:
    """The script named is debugpy's folder (or its ``__main__.py``) or pydevd's ``pydevd.py``."""
    path = os.path.normpath(arg)
    name = os.path.basename(path)
    if name == "__main__.py":
        name = os.path.basename(os.path.dirname(path))
    return name in ("debugpy", "pydevd.py")


def _arm_main_script() -> None:
    """Make ``python script.py`` run a script with tag strings (see the module's docstring).

    Only at interpreter start-up (inside ``site.main``, not a later
    ``site.addsitedir``), only when a script file is named, and not under
    ``-I`` (docs/decisions/0040-python-script-py-from-sys-excepthook.md).
    """
    if sys.flags.isolated or not sys.argv or sys.argv[0] in _NO_SCRIPT:
        return
    site = sys.modules.get("site")
    if site is None or not _running(getattr(getattr(site, "main", None), "__code__", None)):
        return
    outermost()
    for name in ("execsitecustomize", "execusercustomize"):
        original = getattr(site, name, None)
        if callable(original):
            setattr(site, name, _then_outermost(site, name, original))


def _running(code: "CodeType | None") -> bool:
    """``code`` is running in this thread (a few frames up: ``site.main`` processing the ``.pth``)."""
    frame: "FrameType | None" = sys._getframe(1)
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def _then_outermost(site: "ModuleType", name: str, original: "Callable[[], object]") -> "Callable[[], object]":
    """``site``'s ``name`` step, after which our hook is outermost again; ``site`` gets its function back."""

    def run_then_chain() -> object:
        setattr(site, name, original)
        if name == "execsitecustomize" and not getattr(site, "ENABLE_USER_SITE", True):
            other = getattr(site, "execusercustomize", None)  # never called: give it back now
            vars(site)["execusercustomize"] = getattr(other, "__wrapped__", other)
        try:
            return original()
        finally:
            outermost()

    run_then_chain.__wrapped__ = original  # type: ignore[attr-defined]
    return run_then_chain


def outermost() -> None:
    """Put our hook in front of ``sys.excepthook`` unless it is one of ours already."""
    current = sys.excepthook
    if not getattr(current, _MARK, False):
        sys.excepthook = _chained_to(current)


def _chained_to(next_hook: "ExceptHook") -> "ExceptHook":
    def excepthook(kind: "type[BaseException]", value: BaseException, tb: "TracebackType | None") -> object:
        """Run a main script that failed to compile because of tag strings; else pass ``value`` on."""
        if tb is None and isinstance(value, SyntaxError) and _main_script_failed(value):
            from tagstr_runtime.run.main_script import run_instead

            if run_instead(value):
                return None
        return next_hook(kind, value, tb)

    setattr(excepthook, _MARK, True)
    excepthook.__wrapped__ = next_hook  # type: ignore[attr-defined]
    return excepthook


def _main_script_failed(error: SyntaxError) -> bool:
    """``error`` is CPython's for the main script: nothing of it has run yet.

    CPython set ``__file__`` and a ``SourceFileLoader`` named ``__main__`` on
    the ``__main__`` module before compiling the file; the runner's (and
    every other tool's) main modules have other loaders.
    """
    main = sys.modules.get("__main__")
    namespace = getattr(main, "__dict__", None)
    if namespace is None or error.filename is None or namespace.get("__file__") != error.filename:
        return False
    loader = namespace.get("__loader__")
    stock = getattr(sys.modules.get("_frozen_importlib_external"), "SourceFileLoader", None)
    if stock is None or type(loader) is not stock or getattr(loader, "name", None) != "__main__":
        return False
    return all(name[:2] == "__" == name[-2:] for name in namespace)
