"""One other AST plugin on a file with tag strings: its re-reads answered, its failure contained.

Stock flake8 stops the whole run, for every file, when a plugin raises (or
reports E999 and skips the file's other checks when the exception is a
``SyntaxError``).  A plugin that breaks only because the file has tag strings
must not cost the user the rest of the lint.  So, on such a file only,
``run_plugin`` stands in for ``FileChecker.run_check`` of each AST plugin
(``host.patch`` installs it for the duration of ``run_ast_checks``):

- the plugin is built, and its results are drawn, inside ``standing_in``:
  its own ``ast.parse`` / ``tokenize`` / ``libcst`` calls on the file's text
  get the lint tree, the masked tokens, the placeholder's module;
- a plugin that measures how code is nested (``host.eager_tree``) gets the tree
  with each interpolation's expression in place of its lambda, as in the
  f-string twin;
- if it still raises, the file gets one ``TAG900`` naming the plugin and the
  exception, at the tag string the error points into (else the first one),
  the results it gave before failing are kept, and every other plugin and
  file is checked as usual.

Decisions: docs/decisions/0096-re-reads-are-answered-not-patched.md,
docs/decisions/0098-tag900-contains-a-plugins-failure.md.

The project's own plugin is not contained: its rules already are, and under
``TAGSTR_STRICT`` a bug of ours must surface.
"""

from __future__ import annotations

import logging
import tokenize
from typing import Any, Callable

from flake8.exceptions import PluginExecutionFailed

from tagstr_flake8.lint.tag_file import TagFile
from tagstr_flake8.host.eager_tree import STRUCTURE_PLUGINS, eager_tree
from tagstr_flake8.lint.messages import PluginFailure
from tagstr_flake8.host.reparse import standing_in

__all__ = ["run_plugin"]

LOG = logging.getLogger(__name__)
_Result = tuple[int, int, str, Any]
_MAX_ERROR = 160  # characters of the exception's first line in the message


def run_plugin(
    checker: Any, stock: Callable[..., Any], tagfile: TagFile, plugin: Any, arguments: dict[str, Any]
) -> Any:
    """``stock(checker, plugin, **arguments)`` (flake8's ``run_check``) for an AST plugin on ``tagfile``."""
    if getattr(plugin.obj, "__module__", "").startswith("tagstr_flake8"):
        return stock(checker, plugin, **arguments)
    if "tree" in arguments and _package(plugin) in STRUCTURE_PLUGINS:
        arguments = {**arguments, "tree": eager_tree(tagfile)}
    with standing_in(tagfile):
        try:
            made = stock(checker, plugin, **arguments)
        except PluginExecutionFailed as exc:  # building it failed: flake8 wrapped the exception
            _report_failure(checker, plugin, tagfile, exc.original_exception)
            return ()
    return _ContainedRun(checker, plugin, tagfile, made)


class _ContainedRun:
    """What ``run_ast_checks`` asks ``run()`` of: the plugin's results, drawn inside the stand-ins."""

    def __init__(self, checker: Any, plugin: Any, tagfile: TagFile, made: Any) -> None:
        self.checker = checker
        self.plugin = plugin
        self.tagfile = tagfile
        self.made = made

    def run(self) -> list[_Result]:
        results: list[_Result] = []
        with standing_in(self.tagfile):
            try:
                # as run_ast_checks does: a class's run(), or the iterable a function returned
                run = getattr(self.made, "run", None)
                results.extend(self.made if run is None else run())
            except Exception as exc:
                _report_failure(self.checker, self.plugin, self.tagfile, exc)
        return results


def _package(plugin: Any) -> str:
    """The plugin's distribution name, normalised (PEP 503)."""
    name = str(getattr(getattr(plugin, "plugin", None), "package", ""))
    return name.lower().replace("_", "-").replace(".", "-")


def _report_failure(checker: Any, plugin: Any, tagfile: TagFile, exc: BaseException) -> None:
    LOG.info("plugin %s failed on %s (it has tag strings)", plugin.display_name, checker.filename,
             exc_info=exc)
    line, col = _position(tagfile, exc)
    message = PluginFailure(line, col, plugin=plugin.display_name, error=_describe(exc))
    checker.report(error_code=None, line_number=message.line, column=message.col, text=message.text)


def _describe(exc: BaseException) -> str:
    first = next(iter(str(exc).splitlines()), "").strip()
    if len(first) > _MAX_ERROR:
        first = first[: _MAX_ERROR - 3] + "..."
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _position(tagfile: TagFile, exc: BaseException) -> tuple[int, int]:
    """(line, byte column) of the tag string the error points into, else of the first one."""
    line = _error_line(exc)
    tags = tagfile.outermost
    chosen = tags[0]
    if line is not None:
        line_of = tagfile.source.line_of
        for tag in tags:
            if line_of(tag.span.start) <= line <= line_of(tag.span.end):
                chosen = tag
                break
    return tagfile.position(chosen.span.start)


def _error_line(exc: BaseException) -> int | None:
    """The line a parser's error names: its own, or that of the error it was raised from."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 5:
        if isinstance(current, SyntaxError) and current.lineno:
            return current.lineno
        if isinstance(current, tokenize.TokenError) and len(current.args) == 2:
            where = current.args[1]
            if isinstance(where, tuple) and where and isinstance(where[0], int):
                return where[0]
        current = current.__cause__ or current.__context__
        seen += 1
    return None
