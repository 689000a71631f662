"""``python -m tagstr_runtime``: a ``python`` whose main program may use tag strings.

The import hook already makes *imported* modules work; the main program is
different because CPython compiles it itself (``python script.py`` never goes
through a loader).  So this runner re-creates what ``python`` does for its
main program, closely enough that scripts cannot tell the difference:
``sys.argv``, ``sys.path[0]`` (respecting ``-P``), a fresh ``__main__`` module
with the same attributes, exit codes (``SystemExit`` propagates untouched,
1 after an uncaught exception, death by ``SIGINT`` after an uncaught
``KeyboardInterrupt``), and error output: tracebacks are printed through
``sys.excepthook`` with this runner's own frames cut off, and a syntax error
in the main program is printed without a traceback, as ``python`` does.
``-m`` and directories go through ``runpy`` exactly as ``python -m`` does, so
their tracebacks keep the same ``<frozen runpy>`` frames.  Under ``-i`` an
uncaught ``SystemExit`` is printed and the console follows, as ``python -i``
does; a script's ``__main__`` loses ``__file__`` once it has run.
``python script.py`` itself reaches the same code through the start-up hook
(``run._main_script``).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NamedTuple

from tagstr_runtime.run.top_level import flush_io, forget_file, show, silent_excepthook, trim

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import CodeType

__all__ = ["main"]

USAGE = """\
usage: python -m tagstr_runtime [-c cmd | -m mod | file | -] [arg] ...
       python -m tagstr_runtime --desugar file
       python -m tagstr_runtime --compile path ...
       python -m tagstr_runtime --ship (--out DIR | --in-place) path ...
       python -m tagstr_runtime --format [--tool black|ruff] [--check] [--diff] path ...
       python -m tagstr_runtime --ruff-check [--fix] path ...
       python -m tagstr_runtime doctor [--json] [path]
Run Python code that uses tag strings (PEP 750 draft) as `python` would run it.

file           run the script (a directory or zip file: its __main__.py)
-c cmd         run the program passed as a string
-m mod         run a library module as a script
-              read the program from standard input
--desugar file print the file's desugared plain-Python text (- reads stdin)
--compile path ...  write the import hook's cache of every module with tag
               strings in these files and folders (what compileall cannot)
--ship (--out DIR | --in-place) path ...   write these files and folders with
               each module that has tag strings as plain Python (same lines),
               for freezing, bundles and images (docs/shipping.md)
--format path ...   format with black (or --tool ruff), tag strings kept as
               written (--check, --diff: change nothing; --help: all options)
--ruff-check path ...   ruff check, with tag strings understood (--fix:
               apply fixes, never inside a tag string; --help: all options)
doctor         check that tag strings work here (hook, cache, mypy, flake8,
               pytest, coverage...), each problem with its fix; a script
               named doctor runs as ./doctor or -- doctor
-h, --help     show this help and exit
-V, --version  show the tagstr_runtime and Python versions and exit
With no arguments: an interactive console (a script on stdin if not a terminal).
"""

_TRY_HELP = "Try `python -m tagstr_runtime -h' for more information."


class _Command(NamedTuple):
    """What the command line asks for; ``target`` is the file, code or module."""

    # script | code | module | stdin | console | desugar | compile | format | ruff-check | ship | doctor | help
    # | version
    kind: str
    target: str
    args: list[str]


class _UsageError(Exception):
    pass


def _parse(argv: Sequence[str]) -> _Command:
    """Python's own option syntax: options end at the first non-option."""
    args = list(argv)
    if args[:1] == ["doctor"]:  # a command, not a script: a file named doctor runs as ./doctor
        return _Command("doctor", "", args[1:])
    index = 0
    while index < len(args):
        arg = args[index]
        rest = args[index + 1 :]
        if arg in {"-h", "-?", "--help"}:
            return _Command("help", "", [])
        if arg in {"-V", "--version"}:
            return _Command("version", "", [])
        if arg == "--desugar" or arg.startswith("--desugar="):
            target = arg.partition("=")[2] if "=" in arg else None
            if target is None:
                if not rest:
                    raise _UsageError("Argument expected for the --desugar option")
                target, rest = rest[0], rest[1:]
            if rest:
                raise _UsageError(f"--desugar takes one file, got extra arguments: {' '.join(rest)}")
            return _Command("desugar", target, [])
        if arg == "--compile":
            if not rest:
                raise _UsageError("Argument expected for the --compile option")
            return _Command("compile", rest[0], rest[1:])
        if arg in {"--format", "--ruff-check", "--ship"}:  # the command parses its own options
            return _Command(arg[2:], "", rest)
        if arg[:2] in {"-c", "-m"}:
            value = arg[2:]
            if not value:
                if not rest:
                    raise _UsageError(f"Argument expected for the {arg[:2]} option")
                value, rest = rest[0], rest[1:]
            return _Command("code" if arg[1] == "c" else "module", value, rest)
        if arg == "-":
            return _Command("stdin", "-", rest)
        if arg == "--":  # what follows is the script, even if it starts with "-"
            if rest and rest[0] != "-":
                return _Command("script", rest[0], rest[1:])
            index += 1
            continue
        if arg.startswith("-"):
            raise _UsageError(f"Unknown option: {arg}")
        return _Command("script", arg, rest)
    return _Command("console", "", [])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``) like ``python``.

    With ``argv=None`` this is the process's own command line, and an
    uncaught ``KeyboardInterrupt`` ends the process by ``SIGINT`` after the
    normal shutdown, as ``python`` does; otherwise it returns 130.
    """
    as_process = argv is None
    try:
        command = _parse(sys.argv[1:] if argv is None else argv)
    except _UsageError as exc:
        print(f"{exc}\n{USAGE.splitlines()[0]}\n{_TRY_HELP}", file=sys.stderr)
        return 2
    if command.kind == "help":
        sys.stdout.write(USAGE)
        return 0
    if command.kind == "version":
        from tagstr_runtime import __version__

        print(f"tagstr_runtime {__version__} (Python {sys.version.split()[0]})")
        return 0
    if command.kind == "desugar":
        return _print_desugared(command.target)
    if command.kind == "compile":
        from tagstr_runtime.run.precompile import compile_tree

        return compile_tree([command.target, *command.args])
    if command.kind == "format":
        from tagstr_runtime.tools.format import main as format_main

        return format_main(command.args)
    if command.kind == "ruff-check":
        from tagstr_runtime.tools.ruff_check import main as ruff_check_main

        return ruff_check_main(command.args)
    if command.kind == "ship":
        from tagstr_runtime.shipping.tree import main as ship_main

        return ship_main(command.args)
    if command.kind == "doctor":
        from tagstr_runtime.doctor import main as doctor

        return doctor(command.args)

    from tagstr_runtime.run import compile_hook as _compile_hook
    from tagstr_runtime._importhook import install

    install()
    # Tools that compile the main script themselves (runpy in multiprocessing
    # children, pdb, cProfile, trace, coverage) reach the builtin compile.
    _compile_hook.install()
    try:
        if command.kind == "script":
            return _run_path(command.target, command.args)
        if command.kind == "module":
            return _run_module(command.target, command.args)
        if command.kind == "code":
            return _run_source(command.target, "<string>", ["-c", *command.args])
        if command.kind == "stdin" or sys.stdin is None or not sys.stdin.isatty():
            return _run_stdin(["-" if command.kind == "stdin" else "", *command.args])
        return _run_console()
    except SystemExit as exc:
        if not (as_process and sys.flags.inspect):
            raise
        error: BaseException = exc  # python -i prints it, and its console follows
    except BaseException as exc:  # noqa: B036 - printed like python's top level does
        error = exc
    finally:
        if not as_process:  # called as a function: leave the caller's process as it was
            _compile_hook.uninstall()
    return _uncaught(error, as_process)


# -- the kinds of main program ---------------------------------------------------


def _run_path(path: str, args: list[str]) -> int:
    sys.argv = [path, *args]
    if os.path.isdir(path) or _is_zipfile(path):
        # CPython runs <path>/__main__.py through runpy with <path> first on sys.path.
        _set_path0(os.path.abspath(path))
        return _run_main_module("__main__", alter_argv=False)
    try:
        with open(path, "rb") as file:
            source = file.read()
    except OSError as exc:
        print(
            f"{sys.executable}: can't open file {os.path.abspath(path)!r}: "
            f"[Errno {exc.errno}] {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    filename = os.path.abspath(path)
    _set_path0(os.path.dirname(os.path.realpath(path)))
    from tagstr_runtime._importhook import TagSourceFileLoader

    namespace = _fresh_main(
        __file__=filename, __cached__=None, __loader__=TagSourceFileLoader("__main__", filename)
    )
    try:
        status = _exec_main(source, filename, namespace)
    except SystemExit:
        if sys.flags.inspect:
            forget_file(namespace)
        raise  # without -i python exits at once: __file__ stays for the atexit handlers
    except BaseException:
        forget_file(namespace)
        raise
    forget_file(namespace)
    return status


def _run_source(source: str, filename: str, argv: list[str]) -> int:
    sys.argv = argv
    _set_path0("")
    return _exec_main(source, filename, _fresh_main(__loader__=_builtin_importer()))


def _run_stdin(argv: list[str]) -> int:
    sys.argv = argv
    _set_path0("")
    source = b"" if sys.stdin is None else sys.stdin.buffer.read()
    namespace = _fresh_main(__file__="<stdin>", __cached__=None, __loader__=_builtin_importer())
    return _exec_main(source, "<stdin>", namespace)


def _run_module(name: str, args: list[str]) -> int:
    sys.argv = ["-m", *args]  # runpy replaces argv[0] with the module's file once found
    _set_path0(os.getcwd())
    return _run_main_module(name, alter_argv=True)


def _run_main_module(name: str, *, alter_argv: bool) -> int:
    import runpy

    _fresh_main()
    # The entry point ``python -m`` itself uses: same lookup, same errors
    # ("No module named ...", exit status 1), same __main__ attributes.
    run: Callable[[str, bool], object] = runpy._run_module_as_main  # type: ignore[attr-defined]  # not in typeshed
    run(name, alter_argv)
    return 0


def _run_console() -> int:
    from tagstr_runtime.run.console import interact

    sys.argv = [""]
    _set_path0("")
    interact(_fresh_main(__loader__=_builtin_importer()))
    return 0


def _exec_main(source: str | bytes, filename: str, namespace: dict[str, object]) -> int:
    from tagstr_runtime.run.compile import compile_source
    from tagstr_runtime.run.compile_hook import _builtin_compile, _builtin_exec

    try:
        try:
            code: CodeType = _builtin_compile(source, filename, "exec", dont_inherit=True)
        except (SyntaxError, MemoryError) as exc:
            code = compile_source(source, filename, "exec", 0, True, -1, exc)
        else:  # a plain script's __main__ has CPython's loader, as under `python script.py`
            _stock_loader(namespace)
    except SyntaxError as exc:
        # python prints a syntax error in the main program without a traceback.
        show(exc, None)
        return 1
    # the builtin itself: the script's frame follows this one, as under python (no hook between)
    _builtin_exec(code, namespace)
    return 0


def _stock_loader(namespace: dict[str, object]) -> None:
    from tagstr_runtime._importhook import TagSourceFileLoader

    loader = namespace.get("__loader__")
    if type(loader) is TagSourceFileLoader:
        import importlib.machinery

        loader.__class__ = importlib.machinery.SourceFileLoader  # type: ignore[assignment]


# -- the __main__ module and sys.path --------------------------------------------


def _fresh_main(**attributes: object) -> dict[str, object]:
    """A new ``__main__`` module, with the attributes ``python`` gives it."""
    import builtins
    from types import ModuleType

    module = ModuleType("__main__")
    namespace = module.__dict__
    namespace["__builtins__"] = builtins
    if "__annotations__" in vars(sys.modules["__main__"]):  # CPython < 3.14 pre-creates it
        namespace["__annotations__"] = {}
    if sys.version_info >= (3, 15):  # 3.15 stopped setting __cached__ (gh-65961), on __main__ too
        attributes.pop("__cached__", None)
    namespace.update(attributes)
    sys.modules["__main__"] = module
    return namespace


def _set_path0(entry: str) -> None:
    """Replace the entry ``python -m tagstr_runtime`` put first (none under ``-P``)."""
    if getattr(sys.flags, "safe_path", False):
        return
    if sys.path:
        sys.path[0] = entry
    else:
        sys.path.insert(0, entry)


def _builtin_importer() -> object:
    import _frozen_importlib

    return _frozen_importlib.BuiltinImporter


def _is_zipfile(path: str) -> bool:
    if not os.path.isfile(path):
        return False
    import zipfile

    return zipfile.is_zipfile(path)


# -- --desugar --------------------------------------------------------------------


def _print_desugared(path: str) -> int:
    from tagstr_runtime.desugarer.render import desugar

    filename = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            source = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                source = file.read()
    except OSError as exc:
        print(f"{sys.executable} -m tagstr_runtime: can't open file {path!r}: {exc}", file=sys.stderr)
        return 2
    try:
        text = desugar(source)
    except SyntaxError as exc:
        if not exc.filename or exc.filename.startswith("<"):
            exc.filename = filename
        show(exc, None)
        return 1
    sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
    return 0


# -- errors -----------------------------------------------------------------------


def _uncaught(exc: BaseException, as_process: bool) -> int:
    flush_io()
    show(exc, trim(exc.__traceback__, globals()))
    if not isinstance(exc, KeyboardInterrupt):
        return 1
    if not as_process or sys.flags.inspect:  # python -i: its console follows
        return 130
    # python exits by SIGINT after finalization (atexit handlers included).
    # Re-raising reaches that path; the top level must not print it again.
    sys.excepthook = silent_excepthook
    raise KeyboardInterrupt from None
