"""What each fenced block of the docs is, as Sybil's lexers find it.

A block's role is not guessable from its language (a ``python`` block may be
a program, mypy's input or flake8's), so an HTML comment right above the
fence, invisible to readers, says it; a block without one is run by its
language's default (``python``: executed; ``ini``, ``toml``, ``yaml``,
``json``, ``jsonc``: parsed), and any other unmarked block fails the test that
asks for a decision.  The markers:

``<!-- skip: next "why" -->``
    Sybil's own: the next block is not run, for the reason given.
``<!-- checked: NAME [after OTHER] [fails: Exc] [python X.Y] -->``
    mypy's input, saved as NAME (after OTHER's text when named), checked with
    the plugin in one mypy run per page (``--python-version X.Y``, 3.12 by
    default), then run with ``python -m tagstr_runtime`` (on Python X.Y and
    later) which must exit 0, or fail with ``Exc``.
``<!-- mypy output: NAME -->``
    exactly what mypy prints for NAME; without one, NAME's ``# error: ...``
    and ``reveal_type(x)  # TYPE`` comments are what it must print.
``<!-- flake8: NAME -->``
    flake8's input: the codes in each line's comment are what flake8 reports
    there (every ``TAG`` code; other codes named must be among its reports).
``<!-- file: NAME [(label)] -->``
    a file of the page's project (a configuration the recipes describe):
    parsed, and written where the page's commands and checks run.
``<!-- run: repo|page [exit N,M...] -->``
    a ``sh``/``console`` block whose commands are run (in the repository or
    the page's project), exiting with status N, M... (0 by default); a
    ``console`` block's output, where shown, compared.
``<!-- doctest: NAME -->``
    a doctest, saved as NAME and run as the docs say to run one without pytest
    (``python -m tagstr_runtime -m doctest NAME``).
``<!-- fails: Exc -->``
    a ``python`` block meant to raise ``Exc``.
``<!-- invisible-checked: NAME ... -->``, ``<!-- invisible-file: NAME ... -->``
    the same, for text the reader does not need to see (a prelude).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from sybil import Document, Region
from sybil.typing import Evaluator
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, RawFencedCodeBlockLexer

_INFO = re.compile(r"(?P<language>[^\n]*)$\n", re.MULTILINE)
_MARKER = re.compile(r"<!--\s*(?P<kind>[a-z0-9 ]+?):\s*(?P<args>.*?)\s*-->\s*\Z")
KINDS = ("checked", "mypy output", "flake8", "file", "run", "fails", "doctest")


@dataclass(frozen=True)
class Block:
    """One block: its role (``kind``, ``args``), language and dedented text."""

    kind: str
    args: str
    language: str
    source: str
    #: the line (1-based) of the block's first line of text in the page
    first_line: int

    @property
    def name(self) -> str:
        return self.args.split()[0] if self.args else ""

    def option(self, key: str) -> str | None:
        """The value after ``key`` in the marker (``after NAME``, ``fails: Exc``, ``exit 1``)."""
        words = self.args.split()
        return words[words.index(key) + 1] if key in words[:-1] else None


def _marker_above(text: str, start: int) -> tuple[str, str]:
    above = text[:start].rstrip()
    line = above[above.rfind("\n") + 1:].strip()
    match = _MARKER.match(line)
    if match is None or match["kind"] not in KINDS:
        return "", ""
    return match["kind"], match["args"]


class DocBlockParser:
    """Every fenced block of a page (whatever its language), with the marker above it."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.fenced = RawFencedCodeBlockLexer(info_pattern=_INFO)
        self.invisible = DirectiveInHTMLCommentLexer(directive=r"invisible-(?:checked|file)", arguments=r".+")

    def __call__(self, document: Document) -> Iterable[Region]:
        text = document.text
        for region in self.fenced(document):
            kind, args = _marker_above(text, region.start)
            language = region.lexemes["language"].strip()
            region.parsed = self._block(kind, args, language, region.lexemes["source"], text, region.start)
            region.evaluator = self.evaluator
            yield region
        for region in self.invisible(document):
            kind = region.lexemes["directive"].removeprefix("invisible-")
            source = region.lexemes["source"]
            region.parsed = self._block(kind, region.lexemes["arguments"], "", source, text, region.start)
            region.evaluator = self.evaluator
            yield region

    @staticmethod
    def _block(kind: str, args: str, language: str, source: str, text: str, start: int) -> Block:
        first_line = text.count("\n", 0, start) + 2  # the line after the fence or the directive
        return Block(kind, args, language, textwrap.dedent(source), first_line)
