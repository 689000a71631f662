"""How coverage.py reports a module with tag strings (``coverage_plugin`` is the entry point).

Measuring needs no help: the import hook compiles a tag-string module with
every statement at its original line, so any tracer core records the right
lines and arcs.  Reporting re-reads the file: ``PythonFileReporter`` hands it to
``PythonParser`` (``ast`` + ``tokenize``), which rejects tag strings, and
every report stops (or pytest-cov drops the module and its missed lines).

coverage asks a plugin for a ``FileReporter`` only for the files its
``FileTracer`` claimed, and file tracers are off under the ``sysmon`` core
(the default from Python 3.14) and the pure-Python one.  So measurement is
left alone and the reporter factory is hooked instead: the name
``coverage.control.PythonFileReporter`` becomes a subclass (``wrap_once``:
one warning and stock behaviour if a coverage release moves it) that differs
only for a file the stock parser rejects (SPEC 1.8: a file it accepts has no
tag strings and is handled by the stock code, at the stock cost) and only in
a ``Coverage`` whose configuration loaded the plugin (its configurer sets a
plugin option that the reporter reads through ``Coverage.get_option``).

Decisions: docs/decisions/0047-coverage-baseline-is-the-f-string-twin.md,
docs/decisions/0049-coverage-reporting-is-hooked-not-measuring.md.

For such a file the parser reads the text form (``desugarer.render``: same lines,
standard Python), so statements, multi-line statements, ``with`` and
decorator handling, arcs and exclusion suites are coverage's own analysis of
the module's f-string twin.  Exclusion patterns match the original text.
The HTML source view gets the original text, tokenized through a mask where
each tag string is one string literal.
"""

from __future__ import annotations

import logging
import tokenize
from typing import Any, Iterable

import coverage.control
from coverage import Coverage
from coverage.exceptions import ConfigError, NotPython
from coverage.parser import PythonParser
from coverage.phystokens import source_token_lines
from coverage.plugin import CodeRegion, CoveragePlugin
from coverage.python import PythonFileReporter
from coverage.regions import code_regions
from coverage.types import TConfigurable, TSourceTokenLines

from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.support.patching import strict, wrap_once
from tagstr_runtime.desugarer.placeholder import mask_text
from tagstr_runtime.desugarer.render import desugar

__all__ = ["PLUGIN", "TagStringFileReporter", "register", "token_lines"]

LOG = logging.getLogger(__name__)
PLUGIN = "tagstr_runtime.coverage_plugin"
_ACTIVE = f"{PLUGIN}:active"  # set by the configurer, read by the reporter


def register(reg: Any, options: dict[str, Any]) -> None:
    """Hook the reporter factory (once per process) and register the configurer.

    ``options`` (the plugin's section of the configuration): none are read."""
    hooked = wrap_once(
        coverage.control,
        "PythonFileReporter",
        _subclass,
        tool=PLUGIN,
        feature="reporting modules with tag strings",
    )
    reg.add_configurer(TagStrings(hooked))


def _subclass(original: object) -> type[PythonFileReporter]:
    if original is not PythonFileReporter:  # another plugin replaced it: keep theirs
        raise TypeError(f"expected coverage.python.PythonFileReporter, found {original!r}")
    return TagStringFileReporter


class TagStrings(CoveragePlugin):
    """The registered plugin: marks its ``Coverage`` so that the reporter knows it may act."""

    def __init__(self, hooked: bool) -> None:
        self.hooked = hooked

    def configure(self, config: TConfigurable) -> None:
        try:
            config.set_option(_ACTIVE, True)
        except ConfigError:  # loaded as a callable (``Coverage(plugins=...)``), not by name: stay stock
            pass

    def sys_info(self) -> Iterable[tuple[str, Any]]:
        return [("reporter hook", "installed" if self.hooked else "missing (tag-string modules fail)")]


class TagStringFileReporter(PythonFileReporter):
    """coverage's own reporter; a file that only parses desugared is parsed as its text form."""

    @property
    def parser(self) -> PythonParser:
        if self._parser is None:
            try:
                return super().parser
            except NotPython as error:
                self._parser = None  # the stock property keeps its failed parser
                if self.coverage is None or not _active(self.coverage):
                    raise
                # the exclusion regex as the stock property builds it
                self._parser = self._text_form_parser(error, self.coverage._exclude_regex("exclude"))
        return self._parser

    def source_token_lines(self) -> TSourceTokenLines:
        if not self._has_tag_strings():
            return super().source_token_lines()
        return token_lines(self.source())

    def code_regions(self) -> Iterable[CodeRegion]:
        if not self._has_tag_strings():
            return super().code_regions()
        return code_regions(self.parser.text)

    # -------------------------------------------------------------------------------

    def _has_tag_strings(self) -> bool:
        try:
            return isinstance(self.parser, _TextFormParser)
        except NotPython:
            return False

    def _text_form_parser(self, error: NotPython, exclude: str | None) -> PythonParser:
        """Raises ``error`` (coverage's own) for a file that is not Python with tag strings either."""
        source = self.source()
        try:
            parser = _TextFormParser(source, desugar(source), self.filename, exclude)
            parser.parse_source()
        except SyntaxError as exc:
            if isinstance(exc, TagSyntaxError) or not _same_error(exc, error.__cause__):
                # a tag string is malformed, or the code around tag strings is: say where
                raise NotPython(
                    f"Couldn't parse '{self.filename}' as Python source: {exc.msg!r} at line {exc.lineno}"
                ) from exc
        except Exception:  # a bug of ours: coverage's error stands
            if strict():
                raise
            LOG.exception("tagstr_runtime: reading %s as tag-string source failed", self.filename)
        else:
            return parser
        raise error


def _active(cov: Coverage) -> bool:
    """Whether the plugin's configurer ran for this ``Coverage`` (not just for another one)."""
    try:
        return cov.get_option(_ACTIVE) is True
    except ConfigError:  # the plugin is not in this Coverage's configuration
        return False


def _same_error(exc: SyntaxError, stock: BaseException | None) -> bool:
    return isinstance(stock, SyntaxError) and (stock.msg, stock.lineno) == (exc.msg, exc.lineno)


class _TextFormParser(PythonParser):
    """coverage's parser on the text form, matching regexes (exclusions, partial
    branches) against the original lines instead of the generated calls."""

    def __init__(self, original: str, text_form: str, filename: str, exclude: str | None) -> None:
        super().__init__(text=text_form, filename=filename, exclude=exclude)
        self._original = PythonParser(text=original, filename=filename)

    def lines_matching(self, regex: str) -> set[int]:
        self._original.multiline_map = self.multiline_map  # same lines, same statements
        return self._original.lines_matching(regex)


def token_lines(source: str) -> list[list[tuple[str, str]]]:
    """coverage's token lines of the original ``source``, each tag string one ``str`` token.

    coverage tokenizes the text with tabs expanded and also ``ast``-parses it
    (soft keywords); the mask keeps every character column and parses.
    Where it cannot (a rare layout), each line is one plain text token.
    """
    text = source.expandtabs(8)
    lines = text.split("\n")
    if lines[-1] == "":
        del lines[-1]
    plain = [[("txt", line)] for line in lines]
    try:
        masked = mask_text(text, parse(text).tag_strings, keep_names=False)
        tokens = list(source_token_lines(masked))
    except (SyntaxError, tokenize.TokenError):
        return plain
    out: list[list[tuple[str, str]]] = []
    for line, masked_line, pieces in zip(lines, masked.split("\n"), tokens):
        col = 0
        shown: list[tuple[str, str]] = []
        for kind, piece in pieces:
            if kind == "err" or masked_line[col : col + len(piece)] != piece:  # the mask did not hold
                return plain
            shown.append((kind, line[col : col + len(piece)]))
            col += len(piece)
        out.append(shown)
    return out
