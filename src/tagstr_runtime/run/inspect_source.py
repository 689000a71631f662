"""``inspect.getsource`` and ``getsourcelines`` in modules with tag strings (pdb's ``ll`` too).

Two places of ``inspect`` read a source as standard Python:

* ``getblock``, on every version, runs the stdlib tokenizer from a def,
  class or lambda to the end of its block, and a tag string that is no valid
  literal to it (a field spanning lines in a single-quoted one, a quote in a
  field: ``show"{'"'.join(xs)}"``) raises ``TokenError`` (pdb's ``ll`` then
  goes post-mortem), or on 3.11 may misplace the end.  ``getblock`` becomes
  one that, for the lines of a file with tag strings, runs the same tokenizer
  over them with each tag string masked (``desugarer.placeholder.mask_text``: same
  lines, same columns, one plain literal) and returns the original lines of
  the block found; other lines get the stock answer, as fast.
* before 3.13 (which records ``__firstlineno__`` on classes), the class
  finder ``ast.parse``-es the whole file, which a tag string makes fail:
  ``inspect``'s own reference to ``ast`` becomes a proxy whose ``parse``
  falls back to the desugared tree, every class at its original lines, when
  the standard parse fails; a source without tag strings gets the standard
  error.

Only ``inspect`` sees either.  They are installed when code with tag strings
is about to run (``ensure``, from a desugaring or a load from the import
hook's cache): at once if ``inspect`` is imported, else right after
``inspect`` is (a one-shot finder), so a program without tag strings never
meets them and one with tag strings does not import ``inspect`` for them.
This module imports nothing at import time: a cached module's load calls it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # mypy reads this as typing.TYPE_CHECKING; typing costs 10-20 ms to import
if TYPE_CHECKING:
    import ast
    from collections.abc import Callable, Iterator, Sequence
    from types import ModuleType
    from typing import Any

__all__ = ["ensure"]

_NEEDS_AST = sys.version_info < (3, 13)
_done = False
#: the files whose code with tag strings runs in this process (as ``co_filename`` names them)
_TAG_FILES: set[str] = set()
#: file name -> (its lines as ``linecache`` holds them, those lines masked or None: unreadable)
_MASKED: dict[str, tuple[list[str], list[str] | None]] = {}
#: the files ``getblock`` was asked about once already
_ASKED: set[str] = set()
#: lines masked at first; twice as many each time the text so far leaves a literal open
_FIRST_LINES = 32


class _AstProxy(type(sys)):  # type: ignore[misc]  # types.ModuleType, without importing types
    """``ast`` as ``inspect`` sees it: the real module, with a tag-string-aware ``parse``."""

    def __init__(self, real: ModuleType) -> None:
        super().__init__(real.__name__, real.__doc__)
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def parse(self, source: Any, filename: Any = "<unknown>", mode: str = "exec",
              *args: Any, **kwargs: Any) -> ast.AST:
        try:
            tree: ast.AST = self._real.parse(source, filename, mode, *args, **kwargs)
            return tree
        except SyntaxError as exc:
            if args or kwargs or not isinstance(source, (str, bytes)):
                raise
            error = exc
        from tagstr_runtime.desugarer.desugaring import Desugaring
        from tagstr_runtime.syntax.source import decode_source

        try:
            return Desugaring(decode_source(source), str(filename), mode, standard_error=error).tree
        except (SyntaxError, UnicodeDecodeError, LookupError):
            raise error from None


def _reading_tag_strings(real: Callable[[Sequence[str]], list[str]]) -> Callable[[Sequence[str]], list[str]]:
    """``inspect.getblock`` that reads tag strings as the literals they are to the tokenizer."""
    import functools
    import tokenize

    def masked_block(lines: Sequence[str], known_file: bool) -> list[str] | None:
        """The block read from ``lines`` masked; None if that cannot be (not a file with
        tag strings, or broken without them too: the stock answer then)."""
        try:
            masked = _masked_file_end(lines) if known_file else _MaskedLines(lines)
            if masked is None:
                return None
            return list(lines[: len(real(masked))])  # type: ignore[arg-type]
        except (SyntaxError, tokenize.TokenError):
            return None
        except Exception:
            from tagstr_runtime.support.patching import strict

            if strict():
                raise
            return None

    @functools.wraps(real)
    def getblock(lines: Sequence[str]) -> list[str]:
        block = masked_block(lines, True)
        if block is not None:
            return block
        try:
            return real(lines)
        except (SyntaxError, tokenize.TokenError) as exc:
            # lines of no file we know of (a copy, a file changed since): try them masked
            block = masked_block(lines, False)
            if block is None:
                raise exc from None
            return block

    getblock.reads_tag_strings = True  # type: ignore[attr-defined]
    return getblock


def _masked_file_end(lines: Sequence[str]) -> list[str] | _MaskedLines | None:
    """``lines`` masked, if they end a file with tag strings as ``linecache`` holds it
    (``findsource`` slices those lines: the same string objects), else None.

    A file's first block is masked as far as it goes (``_MaskedLines``: pdb's
    ``ll`` scans one function, not the file); from its second, the whole file
    is masked once (again when ``linecache`` reads it again) and sliced.
    """
    import linecache

    count = len(lines)
    if not count or not _TAG_FILES:
        return None
    for name in _TAG_FILES:
        entry = linecache.cache.get(name)
        if entry is None or len(entry) < 3:  # not read yet, or only a lazy loader
            continue
        held = entry[2]
        if count <= len(held) and lines[-1] is held[-1] and lines[0] is held[-count]:
            if name not in _ASKED:
                _ASKED.add(name)
                return _MaskedLines(lines)
            masked = _masked_file(name, held)
            return None if masked is None else masked[len(masked) - count :]
    return None


def _masked_file(name: str, held: list[str]) -> list[str] | None:
    cached = _MASKED.get(name)
    if cached is not None and cached[0] is held:
        return cached[1]
    from tagstr_runtime.syntax.parser import Broken, scan
    from tagstr_runtime.desugarer.placeholder import mask_text

    text = "".join(held)
    masked = None
    if "\r" not in text:  # linecache's lines have "\n" only
        found = scan(text)
        if not isinstance(found, Broken) and found.complete:
            masked = _split(mask_text(text, found.tag_strings))
            if len(masked) != len(held):
                masked = None
    _MASKED[name] = (held, masked)
    return masked


class _MaskedLines:
    """``lines`` of no file we know of, as ``getblock`` reads them: iterated with each tag
    string masked, sliced as written.

    The first lines are masked, then twice as many, and so on, each time the
    text so far closes every literal it opens: the tokenizer stops at the end
    of the block, and the scanning soon after.
    """

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines

    def __getitem__(self, index: Any) -> Any:
        return self.lines[index]

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self) -> Iterator[str]:
        from tagstr_runtime.syntax.parser import Broken, scan
        from tagstr_runtime.desugarer.placeholder import mask_text

        lines = self.lines
        total = len(lines)
        done = 0
        size = _FIRST_LINES
        while done < total:
            end = min(total, max(size, done + 1))
            size *= 2
            text = "".join(lines[:end])
            if "\r" in text:  # not lines as linecache has them: the tokenizer reads them as they are
                yield from lines[done:]
                return
            found = scan(text)
            if isinstance(found, Broken) or not found.complete:
                if end == total:  # never closed: the stock tokenizer's error
                    yield from lines[done:]
                    return
                continue  # a literal that goes on: read further
            masked = _split(mask_text(text, found.tag_strings)) if found.tag_strings else list(lines[:end])
            # the last line may read otherwise once the next is known (`match"x"` opening a statement)
            keep = end if end == total else end - 1
            yield from masked[done:keep]
            done = keep


def _split(text: str) -> list[str]:
    """Lines as ``linecache`` has them: split at newlines only, each keeping its own."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _patch(inspect: ModuleType) -> None:
    real = inspect.__dict__.get("ast")
    if _NEEDS_AST and isinstance(real, type(sys)) and not isinstance(real, _AstProxy):
        inspect.ast = _AstProxy(real)  # type: ignore[attr-defined]
    getblock = inspect.__dict__.get("getblock")
    if callable(getblock) and not getattr(getblock, "reads_tag_strings", False):
        inspect.getblock = _reading_tag_strings(getblock)  # type: ignore[attr-defined]


class _InspectImported:
    """A one-shot meta path finder: patches ``inspect`` right after its import."""

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "inspect":
            return None
        try:
            sys.meta_path.remove(cls)
        except ValueError:
            pass
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return None
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            vars(loader).pop("exec_module", None)  # the loader as it was (a stock one compares equal again)
            run(module)
            _patch(module)

        loader.exec_module = exec_module
        return spec


def ensure(filename: str) -> None:
    """Code with tag strings from ``filename`` is about to run: let ``inspect`` read it (cheap)."""
    global _done
    _TAG_FILES.add(filename)
    if _done:
        return
    _done = True
    inspect = sys.modules.get("inspect")
    if inspect is not None:
        _patch(inspect)
    else:
        sys.meta_path.insert(0, _InspectImported)
