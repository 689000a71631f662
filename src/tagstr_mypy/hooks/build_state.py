"""What the plugin remembers within one build, on one object per build.

mypy makes one plugin object per build (a daemon keeps its own for its whole
life) and asks it for hooks; the hooks it hands out are bound to that
object's ``BuildState``, so two builds in one process (editor hosts run
``mypy.api.run`` again and again) never share a cache, and no module clears
another's.  What is cached is judged from definitions that an edit can
change: ``forget`` runs whenever mypy parses a module, which every build and
every daemon update does before checking what depends on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # the hook modules import mypy's checker: not at start-up
    from mypy.errors import Errors, ErrorWatcher
    from mypy.nodes import CallExpr
    from mypy.types import CallableType, FunctionLike, Type

    from tagstr_mypy.parse.builds import Pending
    from tagstr_mypy.parse.checker_tree import SiteRecord
    from tagstr_mypy.reports.call_errors import CallErrors

__all__ = ["BuildState", "remember"]

K = TypeVar("K")
V = TypeVar("V")

#: no cache grows past this (a generated module can have many tag types and shapes)
LIMIT = 4096


class BuildState:
    def __init__(self) -> None:
        # what the parse hook made of each file with tag strings (path -> ...),
        # replaced at each parse of the file, kept by ``forget``: the desugared
        # tree waiting for the module's MypyFile (parse/adopt.py), and each tag
        # string's record by its call's (line, column) (parse/checker_tree.py:
        # what each argument is, the interpolations' texts, their contexts' demands)
        self.pending: dict[str, Pending] = {}
        self.sites: dict[str, dict[tuple[int, int], SiteRecord]] = {}
        # tag verdicts (typing/verdicts.py): by signature value, and by the tag type's
        # identity (the object is held, so its id is not reused while it lives)
        self.verdicts: dict[object, str | None] = {}
        self.verdicts_by_id: dict[int, tuple[object, str | None]] = {}
        # the signature hook's (hooks/signature.py): (a parameter's type, a lambda?) -> what
        # an interpolation is checked against there; (id of a signature, a tag string's
        # shape) -> the signature mypy gets
        self.value_formals: dict[tuple[Type, bool], Type | None] = {}
        self.signatures: dict[tuple[int, tuple[int, ...]], tuple[object, CallableType | None]] = {}
        # (id of a tag's type, a shape) -> (the type, what the signature hook answers, whether mypy
        # hooks its call once)
        self.call_signatures: dict[tuple[int, tuple[int, ...]], tuple[object, FunctionLike, bool]] = {}
        # (hook kind, full name) -> the chained plugins' hook (typing/other_plugins.py)
        self.hooks: dict[tuple[str, str], object] = {}
        # the build's error watcher (reports/call_errors.py): its Errors, the watcher, its owner
        self.call_errors: tuple[Errors, ErrorWatcher, CallErrors] | None = None
        # (mypy's module table, the checker's stand-ins are in it): typing/tag_call.py
        self.checker_ready: tuple[object, bool] | None = None
        # set for a build that ends in mypy's fast exit (``retire``)
        self.keep_until_exit = False
        self.retired: list[object] = []

    def site(self, path: str, call: CallExpr) -> SiteRecord | None:
        """The record of the tag string whose generated call is ``call`` in the file
        ``path`` (None: not a call the checker tree wrote, or not of this parse)."""
        records = self.sites.get(path)
        record = None if records is None else records.get((call.line, call.column))
        if record is None or len(record.kinds) != len(call.args) - 1:
            return None
        return record

    def retire(self, *done: object) -> None:
        """What a parse built and mypy no longer needs (a desugaring, the trees a swap
        replaces): freed by the caller dropping it, or never, when the build ends in
        mypy's fast exit (the command line: ``os._exit`` frees nothing).  Freeing a
        large module's desugared tree takes about as long as converting it; mypy keeps
        its own results alive to that exit for the same reason.  A daemon or a host
        running ``mypy.api`` (no fast exit) frees as it goes."""
        if self.keep_until_exit:
            self.retired.extend(done)

    def forget(self) -> None:
        """No verdict outlives the definitions it was made from, nor keeps an
        older update's types alive (what a parse made stays: it is replaced)."""
        self.verdicts.clear()
        self.verdicts_by_id.clear()
        self.value_formals.clear()
        self.signatures.clear()
        self.call_signatures.clear()
        self.hooks.clear()
        self.checker_ready = None
        if self.call_errors is not None:
            self.call_errors[2].index()  # positions only: no tree of an older parse held


def remember(cache: dict[K, V], key: K, value: V) -> None:
    """``cache[key] = value``, emptying the cache when it is full."""
    if len(cache) >= LIMIT:
        cache.clear()
    cache[key] = value
