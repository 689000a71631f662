"""The interactive console of ``python -m tagstr_runtime``: a REPL that accepts tag strings.

``code.InteractiveConsole`` does everything except compiling, which it
delegates to ``codeop``: its "is this input complete?" test relies on the
builtin ``compile``, which rejects every tag string.  ``TagCommandCompiler``
keeps codeop's algorithm and its remembered ``__future__`` flags but compiles
with ``tagstr_runtime.compile``, and also reads the tag-specific unterminated
triple-quoted errors as "more input needed", so a multi-line ``html\"\"\"...``
can be typed line by line.
"""

from __future__ import annotations

import __future__

import code
import codeop
import sys
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import CodeType

__all__ = ["TagCommandCompiler", "TagConsole", "interact"]

# The flags codeop itself uses (module constants there, not in its public API).
_PyCF_DONT_IMPLY_DEDENT = 0x200
_PyCF_ALLOW_INCOMPLETE_INPUT = 0x4000
_INCOMPLETE_PREFIXES = (
    "unterminated triple-quoted tag string",
    # The desugarer's own message for a plain triple-quoted string left open
    # in a source that also has tag strings (CPython says "incomplete input").
    "unterminated triple-quoted string literal",
)
_FUTURE_FLAGS = tuple(
    getattr(__future__, name).compiler_flag for name in __future__.all_feature_names
)


def _is_incomplete(error: SyntaxError) -> bool:
    message = error.msg or ""
    return "incomplete input" in message or message.startswith(_INCOMPLETE_PREFIXES)


class TagCommandCompiler(codeop.CommandCompiler):
    """``codeop.CommandCompiler`` with ``tagstr_runtime.compile`` as the compiler.

    Returns a code object for complete input, ``None`` for incomplete input,
    and raises ``SyntaxError`` (or ``ValueError``/``OverflowError``) otherwise.
    """

    def __init__(self) -> None:
        super().__init__()
        self.flags = 0  # __future__ features seen so far

    def __call__(
        self, source: str, filename: str = "<input>", symbol: str = "single"
    ) -> CodeType | None:
        if all(not line.strip() or line.strip().startswith("#") for line in source.split("\n")):
            if symbol != "eval":
                source = "pass"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
            try:
                self._compile(source, filename, symbol, incomplete_input=True)
            except SyntaxError:
                try:
                    self._compile(source + "\n", filename, symbol, incomplete_input=True)
                    return None
                except SyntaxError as error:
                    if _is_incomplete(error):
                        return None
        return self._compile(source, filename, symbol, incomplete_input=False)

    def _compile(self, source: str, filename: str, symbol: str, *, incomplete_input: bool) -> CodeType:
        from tagstr_runtime.run.compile import compile as tag_compile

        flags = self.flags
        if incomplete_input:
            flags |= _PyCF_DONT_IMPLY_DEDENT | _PyCF_ALLOW_INCOMPLETE_INPUT
        result: CodeType = tag_compile(source, filename, symbol, flags, True)
        for flag in _FUTURE_FLAGS:
            if result.co_flags & flag:
                self.flags |= flag
        return result


class TagConsole(code.InteractiveConsole):
    """``code.InteractiveConsole`` compiling through ``TagCommandCompiler``."""

    def __init__(self, locals: dict[str, object] | None = None, filename: str = "<stdin>") -> None:
        super().__init__(locals, filename)
        self.compile = TagCommandCompiler()


def interact(namespace: dict[str, object]) -> None:
    """Run the console on ``namespace`` (the ``__main__`` module's), like ``python``'s REPL."""
    try:
        import readline  # noqa: F401 - line editing and history for input()
    except ImportError:  # pragma: no cover - platform without readline
        pass
    from tagstr_runtime import __version__

    console = TagConsole(namespace)
    _run_startup_file(console)
    banner = (
        f"Python {sys.version} on {sys.platform}\n"
        'Type "help", "copyright", "credits" or "license" for more information.\n'
        f"Tag strings enabled (tagstr_runtime {__version__})."
    )
    console.interact(banner=banner, exitmsg="")


def _run_startup_file(console: TagConsole) -> None:
    """``PYTHONSTARTUP``, as python's interactive mode runs it (tag strings allowed)."""
    import os

    path = None if sys.flags.ignore_environment else os.environ.get("PYTHONSTARTUP")
    if not path:
        return
    try:
        with open(path, "rb") as file:
            source = file.read()
    except OSError:
        return
    from tagstr_runtime.run.compile import compile as tag_compile

    try:
        startup = tag_compile(source, path, "exec", dont_inherit=True)
    except SyntaxError:
        console.showsyntaxerror(path)
        return
    console.runcode(startup)
