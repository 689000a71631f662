"""The error a source with a malformed tag string reports: the first one in source order.

The lexer stops at the first malformed tag string, but the code before it may
be broken too (``def f(:`` on line 1, a typo in a tag string on line 5), and
CPython, stock tools and the same file without that tag string all report
line 1.  CPython cannot read the source itself (every tag string is a syntax
error to it), so it reads two stand-ins, both with the complete tag strings
before the broken one as their placeholders (same lines, same UTF-8 columns),
and the broken one's name (an atom) where it starts:

* the *cut*: nothing after that name;
* the *continued*: the rest of the text after it, the tag string read as a
  raw string (``html"{a!x}"`` -> ``   r"{a!x}"``: a tag string's text is a raw
  string's up to the closing quote), or, if it is never closed, without the
  rest of its line (the source goes on on the next one).

Each makes errors of its own after the name (brackets the cut leaves open; a
raw string that ends early), which CPython may report at an earlier place
(``'(' was never closed``, ``expected 'else' after 'if' expression``), but
seldom the same error in both.  An error both report, before the broken tag
string, does not depend on how the tag string goes on: that one comes first.
"""

from __future__ import annotations

import re
import warnings

from tagstr_runtime.desugarer.cpython import compile_text, restore
from tagstr_runtime.syntax.errors import ErrorKind
from tagstr_runtime.syntax.parser import Broken, scan
from tagstr_runtime.desugarer.placeholder import placeholder_text
from tagstr_runtime.syntax.source import SourceText

__all__ = ["continued_stand_in", "first_error", "stand_in_text"]

_NAME_BEFORE_QUOTE = re.compile(r"[^\W\d]\w*(?=['\"])")


def first_error(
    broken: Broken,
    source: SourceText,
    filename: str,
    mode: str,
    flags: int,
    feature_version: tuple[int, int] | None,
) -> SyntaxError:
    """CPython's error before the broken tag string if the source has one, else the tag string's."""
    text = source.text
    cut = _error(_head(text, broken), filename, mode, flags, feature_version)
    if cut is None:
        return broken.error
    continued = continued_stand_in(text, broken)
    whole = _error(continued, filename, mode, flags, feature_version)
    if whole is None or (whole.msg, whole.lineno, whole.offset) != (cut.msg, cut.lineno, cut.offset):
        return broken.error
    found = restore(whole, continued, source, broken.before)
    start = source.pos(broken.start)
    if found.lineno is None or found.offset is None:
        return broken.error
    if (found.lineno, found.offset - 1) >= (start.line, start.col_char):
        return broken.error
    return found


def _head(text: str, broken: Broken) -> str:
    """The text before the broken tag string (placeholders for the tag strings there) and its name."""
    name = _NAME_BEFORE_QUOTE.match(text, broken.start)
    atom = name.group() if name else '""'  # or the string that a tag string is glued to
    return placeholder_text(text[: broken.start], broken.before) + atom


def continued_stand_in(text: str, broken: Broken) -> str:
    """The whole text for CPython, the broken tag string a raw string or, unterminated, cut off."""
    if broken.error.kind is ErrorKind.UNTERMINATED:
        newline = text.find("\n", broken.start)
        return _head(text, broken) + ("" if newline < 0 else text[newline:])
    name = _NAME_BEFORE_QUOTE.match(text, broken.start)
    before = placeholder_text(text[: broken.start], broken.before)
    if name is None:
        return before + text[broken.start :]
    prefix = " " * (len(name.group().encode("utf-8")) - 1) + "r"
    return before + prefix + text[name.end() :]


def stand_in_text(
    text: str, filename: str = "<unknown>", *, template_strings: bool | None = None
) -> str | None:
    """The text a stock parser reads to report a standard error of ``text`` where CPython does.

    Each tag string a placeholder; with a malformed one, the placeholders
    before it and the continued stand-in from there (``continued_stand_in``).
    None if ``text`` has no tag string: the stock parser reads ``text`` itself.
    """
    scanned = scan(text, filename, template_strings=template_strings)
    if isinstance(scanned, Broken):
        return continued_stand_in(text, scanned)
    if not scanned.tag_strings:
        return None
    return placeholder_text(text, scanned.tag_strings)


def _error(
    text: str, filename: str, mode: str, flags: int, feature_version: tuple[int, int] | None
) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():  # the warnings of a stand-in are not the source's
            warnings.simplefilter("ignore")
            compile_text(text, filename, mode, flags, feature_version)
    except SyntaxError as exc:
        return exc
    except (MemoryError, RecursionError, ValueError):
        # too deep for CPython, or its bug (3.12.1: ValueError for f"{x:{w=}}"):
        # no earlier error to tell
        return None
    return None
