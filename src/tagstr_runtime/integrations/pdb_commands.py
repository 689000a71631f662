"""pdb's commands that evaluate text (``p``, ``pp``, ``display``, ``!stmt``...) with tag strings.

pdb evaluates an expression with ``eval(arg, frame.f_globals, frame's locals)``
(``Pdb._getval``, ``_getval_except``) and runs a statement with
``exec(compile(line, "<stdin>", "single"), globals, locals)``
(``Pdb.default``); 3.12+'s ``display`` first compiles its expression
(``_compile_error_message``).  With the builtins of ``run.compile_hook`` that compiles,
but every interpolation would read the frame's globals only (a lambda in
module-level code run with separate locals): ``p html"{local}"`` stopped in
a function would be a ``NameError``.  These methods are wrapped at
class level (pdb makes its own ``Pdb``; IPython's and ipdb's subclass it):
a text CPython parses goes to pdb's own method untouched, so everything
without tag strings is stock; only a text CPython rejects and the desugarer
accepts is run as code of the frame (``run.frame_eval``), with pdb's own
output, display hook and error lines.

Patched by ``run.compile_hook.install`` (now, or when ``pdb`` is imported).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from tagstr_runtime.support.patching import wrap_once
from tagstr_runtime.run.frame_eval import has_tag_strings, run_in_frame

__all__ = ["patch"]

_TOOL = "tagstr_runtime (pdb)"


def patch(pdb: ModuleType) -> None:
    """Wrap ``pdb.Pdb``'s evaluating methods (idempotent)."""
    owner = getattr(pdb, "Pdb", None)
    if not isinstance(owner, type):
        return
    wrap_once(owner, "default", _default, tool=_TOOL, feature="tag strings in pdb statements (!stmt)")
    wrap_once(owner, "_getval", _getval, tool=_TOOL, feature="tag strings in pdb's p and pp")
    wrap_once(owner, "_getval_except", lambda original: _getval_except(original, pdb), tool=_TOOL,
              feature="tag strings in pdb's display")
    if hasattr(owner, "_compile_error_message"):  # 3.12+: display checks its expression first
        wrap_once(owner, "_compile_error_message", _compile_error_message, tool=_TOOL,
                  feature="tag strings in pdb's display")


def _default(original: Any) -> Any:
    def default(self: Any, line: str) -> Any:
        text = line[1:] if line[:1] == "!" else line
        if sys.version_info >= (3, 13):
            text = text.strip()
        if not has_tag_strings(text + "\n", "<stdin>", "single"):
            return original(self, line)
        saved = sys.stdin, sys.stdout, sys.displayhook
        try:
            sys.stdin, sys.stdout, sys.displayhook = self.stdin, self.stdout, self.displayhook
            try:
                run_in_frame(text + "\n", "<stdin>", "single", self.curframe.f_globals, self.curframe_locals)
            finally:
                sys.stdin, sys.stdout, sys.displayhook = saved
        except BaseException:  # noqa: B036 - pdb's own default reports every error this way
            self._error_exc()
        return None

    return default


def _getval(original: Any) -> Any:
    def _getval(self: Any, arg: str) -> Any:
        if not has_tag_strings(arg, "<string>", "eval"):
            return original(self, arg)
        try:
            return run_in_frame(arg, "<string>", "eval", self.curframe.f_globals, self.curframe_locals)
        except BaseException:  # noqa: B036 - as pdb's own
            self._error_exc()
            raise

    return _getval


def _compile_error_message(original: Any) -> Any:
    def _compile_error_message(self: Any, expr: str) -> Any:
        if has_tag_strings(expr, "<stdin>", "eval"):
            return ""
        return original(self, expr)

    return _compile_error_message


def _getval_except(original: Any, pdb: ModuleType) -> Any:
    def _getval_except(self: Any, arg: str, frame: Any = None) -> Any:
        if not has_tag_strings(arg, "<string>", "eval"):
            return original(self, arg, frame)
        try:
            if frame is None:
                return run_in_frame(arg, "<string>", "eval", self.curframe.f_globals, self.curframe_locals)
            return run_in_frame(arg, "<string>", "eval", frame.f_globals, frame.f_locals)
        except BaseException as exc:  # noqa: B036 - as pdb's own
            format_exc = getattr(self, "_format_exc", None)
            if format_exc is not None:
                text = format_exc(exc)
            else:
                import traceback

                text = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return pdb._rstr(f"** raised {text} **")

    return _getval_except
