"""What another plugin gets when it parses or tokenizes a tag-string file's text itself.

flake8 hands every AST plugin the tree, yet many ignore it and re-read the
``lines`` (or stdin) with the standard parsers: flake8-annotations calls
``ast.parse``, pydocstyle (flake8-docstrings) ``compile`` and
``tokenize.generate_tokens``, flake8-async ``libcst.parse_module``,
flake8-builtins ``ast.parse`` on stdin, flake8-quotes ``generate_tokens``.
On a file with tag strings every one of them fails or misreads it.

``standing_in(tagfile)`` answers those calls while one such plugin runs on
that file (``host.plugin_run``): a call whose source is exactly the file's text
gets

- from ``compile`` (so ``ast.parse``, which calls it), a fresh lint tree (the
  tree flake8 was given, rebuilt with the caller's flags: type comments,
  feature version; a caller may change its tree), or flake8's tree compiled
  when a code object is asked for;
- from ``tokenize.generate_tokens`` / ``tokenize.tokenize``, the tokens of
  the masked text (each tag string a plain string literal at the same lines
  and columns), carrying the original physical lines as flake8's own do;
- from ``libcst.parse_module`` (only if libcst is already imported), the
  module of the placeholder text (each tag string a call of its fields, at
  the same lines and byte columns).

Any other call goes to the original untouched.  The patches are the
module attributes the plugins look up at call time, set only inside the
``with`` block: nothing changes for files without tag strings or outside
a plugin's run.  A plugin that bound one of them at import time
(``from tokenize import generate_tokens``) still gets the original.
"""

from __future__ import annotations

import ast
import builtins
import sys
import tokenize
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator

from tagstr_runtime.frontend import Desugaring, decode_source, strict, wrapped_while

from tagstr_flake8.lint.tag_file import LintEmitter, TagFile

__all__ = ["standing_in"]

_TOOL = "tagstr_flake8"
_FEATURE = "other plugins re-reading files with tag strings"
_Readline = Callable[[], Any]


@contextmanager
def standing_in(tagfile: TagFile) -> Iterator[None]:
    """Inside the block, the standard parsers answer ``tagfile``'s text with its stand-ins."""
    answers = _Answers(tagfile)
    with ExitStack() as stack:
        for owner, name, make in (
            (builtins, "compile", answers.compile),
            (tokenize, "generate_tokens", answers.generate_tokens),
            (tokenize, "tokenize", answers.tokenize),
        ):
            stack.enter_context(wrapped_while(owner, name, make, tool=_TOOL, feature=_FEATURE))
        libcst = sys.modules.get("libcst")  # never imported for this: it is slow to import
        if libcst is not None:
            stack.enter_context(
                wrapped_while(libcst, "parse_module", answers.parse_module, tool=_TOOL, feature=_FEATURE)
            )
        yield


class _Answers:
    """The wrappers' makers for one file; each wrapper recognises the file's text."""

    def __init__(self, tagfile: TagFile) -> None:
        self.tagfile = tagfile
        self.text = "".join(tagfile.lines)

    def is_text(self, source: object) -> bool:
        if isinstance(source, str):
            return source == self.text or (source.startswith("\ufeff") and source[1:] == self.text)
        if isinstance(source, (bytes, bytearray, memoryview)):
            try:
                return decode_source(bytes(source)) == self.text
            except (SyntaxError, UnicodeDecodeError, LookupError):
                return False
        return False

    # compile, and so ast.parse --------------------------------------------------------

    def compile(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def compile(  # noqa: A001 - it stands in for the builtin
            source: Any,
            filename: Any,
            mode: str,
            flags: int = 0,
            dont_inherit: bool = False,
            optimize: int = -1,
            *,
            _feature_version: int = -1,
        ) -> Any:
            if mode == "exec" and self.is_text(source):
                if not flags & ast.PyCF_ONLY_AST:  # compiling reads the tree without changing it
                    return original(self.tagfile.tree, filename, mode, flags, True, optimize)
                tree = self._tree(filename, flags, _feature_version)
                if tree is not None:
                    return tree
            return original(
                source, filename, mode, flags, dont_inherit, optimize, _feature_version=_feature_version
            )

        compile.__doc__ = original.__doc__
        return compile

    def _tree(self, filename: Any, flags: int, feature_version: int) -> ast.Module | None:
        """A fresh lint tree (the caller may change it), or None to let the original answer."""
        try:
            desugaring = Desugaring(
                self.text,
                filename if isinstance(filename, str) else "<unknown>",
                emitter=LintEmitter(),
                flags=flags & ~ast.PyCF_ONLY_AST,
                feature_version=None if feature_version < 0 else (3, feature_version),
                emit_warnings=False,
            )
        except SyntaxError:  # e.g. a type comment CPython rejects once asked to read them
            return None
        except Exception:  # a bug of ours: the plugin gets the stock answer (an error)
            if strict():
                raise
            return None
        tree = desugaring.tree
        assert isinstance(tree, ast.Module)
        return tree

    # tokenize -------------------------------------------------------------------------

    def generate_tokens(self, original: Callable[[_Readline], Iterator[Any]]) -> Callable[..., Any]:
        def generate_tokens(readline: _Readline) -> Iterator[tokenize.TokenInfo]:
            lines = _drain(readline)
            if self.tagfile.masked_lines is None or not self.is_text("".join(lines)):
                yield from original(_replay(lines, ""))
            else:
                yield from self.tagfile.masked_tokens()

        generate_tokens.__doc__ = original.__doc__
        return generate_tokens

    def tokenize(self, original: Callable[[_Readline], Iterator[Any]]) -> Callable[..., Any]:
        def tokenize_(readline: _Readline) -> Iterator[tokenize.TokenInfo]:
            lines = _drain(readline)
            if self.tagfile.masked_lines is None or not self.is_text(b"".join(lines)):
                yield from original(_replay(lines, b""))
                return
            encoding, _ = tokenize.detect_encoding(_replay(lines, b""))
            if encoding == "utf-8-sig":
                encoding = "utf-8"
            yield tokenize.TokenInfo(tokenize.ENCODING, encoding, (0, 0), (0, 0), "")
            yield from self.tagfile.masked_tokens()

        tokenize_.__doc__ = original.__doc__
        return tokenize_

    # libcst ---------------------------------------------------------------------------

    def parse_module(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def parse_module(source: Any, *args: Any, **kwargs: Any) -> Any:
            placeholder = self.tagfile.desugaring.placeholder
            if placeholder is not None and self.is_text(source):
                source = placeholder
            return original(source, *args, **kwargs)

        parse_module.__doc__ = original.__doc__
        return parse_module


def _drain(readline: _Readline) -> list[Any]:
    """Every line ``readline`` gives (a tokenizer's ``readline`` ends with an empty line or StopIteration)."""
    lines: list[Any] = []
    while True:
        try:
            line = readline()
        except StopIteration:
            return lines
        if not line:
            return lines
        lines.append(line)


def _replay(lines: list[Any], end: Any) -> _Readline:
    items = iter(lines)
    return lambda: next(items, end)
