"""Which parse calls come from a build that loaded the plugin.

mypy's parsers are patched for the whole process, and hosts such as
pylsp-mypy or pytest-mypy run many builds in one process (``mypy.api.run``),
with and without the plugin.  A build without it must get stock mypy, byte
for byte.  No global switch can tell the builds apart: mypy is compiled (no
frames to inspect), a plugin has no end-of-build hook, and a finished build's
plugin lives on until a garbage collection.  So each parse call is judged by
what it is given, which always comes from the calling build's ``Options``:

* the native parser (``ast_serialize.parse``) receives the module's
  ``options.always_true`` and ``options.always_false``: the very list objects
  of that build's options (per-module sections and clones share them), which
  ``register`` records for as long as the plugin object lives;
* the stdlib parser calls ``options.transform_source(source)`` right before
  ``ast.parse(source)``; ``register`` sets it, for builds that parse with
  ``ast``, to the parse hook's marker bound to the build's options (another
  tool's transform still runs first).

Either way the parse hook learns the calling build: its options, and the
state of its plugin, where the trees and texts it makes are kept (``ParseState``:
what the parse reads and writes of ``hooks.build_state.BuildState``, so that the
hooks' state imports the parse and not the other way round).
"""

from __future__ import annotations

import ast
import functools
import threading
import weakref
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Protocol

if TYPE_CHECKING:
    from tagstr_mypy.parse.checker_tree import SiteRecord
    from tagstr_mypy.parse.native_graft import GraftPlan

__all__ = ["Build", "ParseState", "Pending", "any_pending", "build_of", "register"]


class Pending(NamedTuple):
    """A module's tag strings waiting for its ``MypyFile`` (``parse.adopt.swap``): the calls
    to put in the native parser's tree (``plan``, ``parse.native_graft``), else the desugared
    tree, converted then with the module's options (``parse.hook.convert``)."""

    tree: ast.Module
    strip_function_bodies: bool
    text: str  # the source, for its inline ``# mypy:`` options
    plan: GraftPlan | None = None


class ParseState(Protocol):
    """What the parse keeps in its build's state (``hooks.build_state.BuildState``)."""

    #: the desugared tree waiting for each file's ``MypyFile``, by path
    pending: dict[str, Pending]
    #: each tag string's record by its call's (line, column), by path
    sites: dict[str, dict[tuple[int, int], SiteRecord]]

    def retire(self, *done: object) -> None:
        """What a parse built and mypy no longer needs."""


class Build(NamedTuple):
    options: Any  # mypy's global Options of the build
    state: ParseState  # its plugin's


_lock = threading.RLock()  # re-entrant: a finalizer may run inside a locked block
#: id of a list of a live plugin build's options -> [the list (keeps its id), builds
#: sharing it, the Build that registered it last]
_LISTS: dict[int, list[Any]] = {}
_MARKER = "_tagstr_marks_source"


def register(plugin: object, options: Any, state: ParseState, mark: Callable[[Any, Any], Any]) -> None:
    """Recognise the parse calls of ``options``' build while ``plugin`` (whose
    state is ``state``) lives.

    ``mark(options, source)`` becomes ``options.transform_source`` for the stdlib parser.
    """
    lists = [options.always_true, options.always_false]
    for section in options.per_module_options.values():
        lists.extend(section[key] for key in ("always_true", "always_false") if key in section)
    keys = [id(found) for found in lists]
    build = Build(options, state)
    with _lock:
        for found in lists:
            entry = _LISTS.setdefault(id(found), [found, 0, build])
            entry[1] += 1
            entry[2] = build
    weakref.finalize(plugin, _unregister, keys)
    previous = options.transform_source
    if not options.native_parser and not getattr(previous, _MARKER, False):
        bound = functools.partial(mark, options)
        options.transform_source = bound if previous is None else _chained(previous, bound)
        setattr(options.transform_source, _MARKER, True)


def _unregister(keys: list[int]) -> None:
    with _lock:
        for key in keys:
            entry = _LISTS[key]
            entry[1] -= 1
            if not entry[1]:
                del _LISTS[key]


def build_of(always_true: object, always_false: object) -> Build | None:
    """The plugin build whose options (a module's included) hold these lists: a
    native parse call gets them as keyword arguments; None for a build without
    the plugin."""
    entry = _LISTS.get(id(always_true)) or _LISTS.get(id(always_false))
    return None if entry is None else entry[2]


def any_pending() -> bool:
    """Whether a tree waits in any live plugin build of the process."""
    with _lock:
        return any(entry[2].state.pending for entry in _LISTS.values())


def _chained(previous: Callable[[Any], Any], mark: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Another tool's ``transform_source`` (stubgen sets one) first, then the marker."""

    def transform(source: Any) -> Any:
        return mark(previous(source))

    return transform
