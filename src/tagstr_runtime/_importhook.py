"""Importing modules that contain tag strings: a path hook, not a meta-path finder.

Why CPython's own ``FileFinder`` path hook, handed a loader that subclasses
``SourceFileLoader``: pytest's assertion rewriter (a meta-path finder that
asks ``PathFinder`` for the spec) only rewrites modules whose
``spec.loader`` is a ``SourceFileLoader``; tools that inspect loaders
(``inspect``, ``linecache``, ``pkgutil``, ``importlib.resources``) keep working;
and everything except the one method that compiles is CPython's own code.

Invisible to code that looks loaders and finders up by their exact type
(distlib's ``_finder_registry[type(loader)]``, which pip calls; issue 36):
``sys.path_importer_cache`` holds CPython's ``FileFinder`` itself (ours are
told apart by the loader they hold), and a loader whose module turned out
plain becomes CPython's ``SourceFileLoader`` again before the module runs
(``TagSourceFileLoader.get_code``).  Only modules with tag strings keep ours.

Plain modules behave exactly as without the hook: same finder logic, same
``__pycache__/m.cpython-3XY.pyc`` read and written by CPython's own
``get_code``, same code object.  Only when the builtin ``compile`` raises
``SyntaxError`` (SPEC 1.8: then, and only then, the module may have tag
strings) does ``source_to_code`` desugar.  The desugared code object is cached
under a name the stock loader never looks at,
``m.cpython-3XY.tagstr-<fingerprint>.pyc``, so that a Python without the hook
gets the ``SyntaxError`` instead of our code, and so that a new desugarer
(another fingerprint) never loads an old one's output.

Decisions: docs/decisions/0041-loader-and-finder-types-stay-cpythons.md,
docs/decisions/0036-a-cached-module-costs-a-pyc.md,
docs/decisions/0215-the-cache-in-installed-packages-is-in-record.md.

This module is imported at interpreter start-up by ``tagstr_autoload.pth``:
it imports only modules that are already loaded when ``site`` runs.  That is
also why it is not split (the loader, the path hook, and the two stock
paths it extends, ``spec_from_file_location`` and ``zipimport``): every module
it would import is one more file found and read at every interpreter start.
"""

import _frozen_importlib_external as _bootstrap_external
import _imp
import marshal
import os  # loaded by site before any .pth runs
import sys

# Start-up path: no ``typing`` (10-20 ms) and no ``from __future__ import
# annotations`` (~0.3 ms); annotations naming typing-only names are quoted.
TYPE_CHECKING = False  # mypy reads this as typing.TYPE_CHECKING
if TYPE_CHECKING:
    from collections.abc import Callable
    from importlib.abc import PathEntryFinder
    from types import CodeType
    from typing import Any

    from _typeshed import ReadableBuffer

__all__ = ["TagSourceFileLoader", "install", "tag_cache_path", "uninstall"]

_builtin_compile = compile
_FileFinder = _bootstrap_external.FileFinder
_SourceFileLoader = _bootstrap_external.SourceFileLoader
_MAGIC_NUMBER = _bootstrap_external.MAGIC_NUMBER
_RAW_MAGIC_NUMBER = int.from_bytes(_MAGIC_NUMBER, "little")
_TAG_INFIX = ".tagstr-"
#: ``__pycache__`` folder -> the standard pyc names (without ``.pyc``) that have a
#: cache of ours beside them, and those that exist: listed once per folder per
#: process (see ``_may_be_cached``).
_LISTED: "dict[str, tuple[set[str], set[str]]]" = {}
#: the source folders whose ``__pycache__`` folder is in ``_LISTED``
_LISTED_SOURCES: "set[str]" = set()


class TagSourceFileLoader(_SourceFileLoader):
    """``SourceFileLoader`` that desugars tag strings when standard compilation fails.

    Lives only as long as it may be needed: once ``get_code`` has the code of
    a plain module, the loader becomes CPython's ``SourceFileLoader`` (see
    ``get_code``).

    ``_tagstr_pending`` carries, from ``source_to_code`` to ``_cache_bytecode``
    (both called by CPython's ``get_code`` for the same module, under its
    import lock), whether the code object just produced is desugared and
    whether it came from our cache: CPython's ``get_code`` would otherwise
    write desugared code into the standard pyc.  ``_tagstr_desugared`` tells
    ``get_code`` that the code is ours.  All three are gone from the instance
    once ``get_code`` returns.
    """

    _tagstr_pending: tuple[str, bool] | None = None
    _tagstr_in_get_code: bool = False
    _tagstr_desugared: bool = False

    def get_code(self, fullname: str) -> "CodeType | None":
        """CPython's ``get_code``, short-circuited by a hit in our cache.

        Where the ``__pycache__`` folder was already listed (``_may_be_cached``)
        and holds a cache of ours for the module and no standard pyc, that
        cache is read first: one ``stat`` of the source and one ``open``, as
        for a standard pyc (no failed ``open`` of the standard pyc, no read of
        the source).  Until a folder is listed this costs one truth test, and
        a source folder never listed one set lookup: plain modules pay nothing.
        Otherwise ``source_to_code`` is reached when there is no valid
        standard pyc: for a module with tag strings, always.  There our cache
        is checked *before* the builtin compile (which would parse the whole
        module only to fail) and the hit leaves through ``_CacheHit``, so
        CPython does not marshal the code again to offer it for caching.

        Code that is not ours (a valid standard pyc, or the builtin compile
        succeeded) turns this loader into CPython's ``SourceFileLoader``, the
        class it would have had without the hook, before the module runs:
        ``type(module.__loader__)`` and ``type(module.__spec__.loader)`` are
        then stock for every plain module (issue 36: distlib, and so pip, look
        their resource finder up by that type).  The instance holds the same
        ``name`` and ``path``, so it also compares equal to a stock one.
        """
        if _LISTED_SOURCES:  # a process that never met a cached tag-string module skips this
            source_path = self.get_filename(fullname)
            if os.path.dirname(source_path) in _LISTED_SOURCES:
                cached = _cached_without_standard_pyc(self, source_path)
                if cached is not None:
                    return cached
        self._tagstr_in_get_code = True
        try:
            code = super().get_code(fullname)
        except _CacheHit as hit:
            return hit.code
        finally:
            state = vars(self)
            del state["_tagstr_in_get_code"]
            state.pop("_tagstr_pending", None)
            desugared = state.pop("_tagstr_desugared", False)
        if not desugared:
            self.__class__ = _SourceFileLoader  # type: ignore[assignment]  # see the docstring
        return code

    def source_to_code(  # type: ignore[override]
        self,
        data: "ReadableBuffer | str",
        path: str,
        fullname: str | None = None,
        *,
        _optimize: int = -1,
    ) -> "CodeType":
        # This frame is relabelled below as CPython's importlib frame
        # ``_call_with_frames_removed``, which the import system trims from
        # tracebacks (as it trims its own ``compile`` call): a tag-string
        # ``SyntaxError`` then shows only the importing line and the error,
        # exactly like a standard one.
        try:
            return _module_code(self, data, path, _optimize)
        except SyntaxError as exc:
            error = exc
        raise error.with_traceback(None)

    def _cache_bytecode(self, source_path: str, bytecode_path: str, data: bytes) -> None:
        pending, self._tagstr_pending = self._tagstr_pending, None
        parent: Callable[[str, str, bytes], None] = super()._cache_bytecode  # type: ignore[misc]  # not in typeshed
        if pending is None or pending[0] != source_path:
            parent(source_path, bytecode_path, data)
            _note_written(bytecode_path, standard=True)
        elif not pending[1]:  # freshly desugared; from our cache there is nothing to write
            tag_path = _tag_name(bytecode_path)
            parent(source_path, tag_path, data)
            _note_written(bytecode_path, standard=False)
            from tagstr_runtime.run.cache_record import cache_written  # RECORD, or a warning

            cache_written(source_path, tag_path)


def _relabel_as_trimmed_importlib_frame(code: "CodeType") -> "CodeType":
    """``code`` as the import system's traceback trimming recognises its own helper.

    CPython drops every importlib frame up to one named
    ``_call_with_frames_removed`` from tracebacks of failed imports; a
    ``source_to_code`` under that label disappears with them.
    """
    return code.replace(
        co_filename="<frozen importlib._bootstrap_external>",
        co_name="_call_with_frames_removed",
    )


TagSourceFileLoader.source_to_code.__code__ = _relabel_as_trimmed_importlib_frame(
    TagSourceFileLoader.source_to_code.__code__
)
# ``get_code`` sits between importlib frames: as one of them, it is trimmed with them.
TagSourceFileLoader.get_code.__code__ = TagSourceFileLoader.get_code.__code__.replace(
    co_filename="<frozen importlib._bootstrap_external>"
)


class _CacheHit(Exception):
    """Carries a code object from our cache out of CPython's ``get_code``."""

    def __init__(self, code: "CodeType") -> None:
        super().__init__(code)  # all arguments in args: copy and pickle rebuild it from them
        self.code = code


def _module_code(
    loader: TagSourceFileLoader, data: "ReadableBuffer | str", path: str, optimize: int
) -> "CodeType":
    """Our cache (inside ``get_code``), else stock compilation, and only if that fails the desugarer."""
    loader._tagstr_pending = None
    if loader._tagstr_in_get_code and path == loader.path and optimize == -1 and isinstance(data, bytes):
        try:
            cached = _load_cached(loader, data, path)
        except ImportError:  # loading _fingerprint itself: it cannot fingerprint yet
            cached = None
        if cached is not None:
            loader._tagstr_desugared = True
            raise _CacheHit(cached)
    try:
        code: CodeType = _builtin_compile(data, path, "exec", dont_inherit=True, optimize=optimize)
        return code
    except (SyntaxError, MemoryError) as exc:  # MemoryError: see _compile.compile
        standard_error = exc
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    elif not isinstance(data, (str, bytes)):
        raise standard_error
    # Caching only for the loader's own file at the interpreter's optimization
    # level: that is what the cache file name (from ``cache_from_source``) says.
    own_file = path == loader.path and optimize == -1
    if own_file and isinstance(data, bytes) and not loader._tagstr_in_get_code:
        cached = _load_cached(loader, data, path)
        if cached is not None:
            loader._tagstr_pending = (path, True)
            return cached
    from tagstr_runtime.run.compile import compile_source

    code = compile_source(data, path, "exec", 0, True, optimize, standard_error)
    _tag_code_runs()
    if own_file:
        loader._tagstr_pending = (path, False)
    if loader._tagstr_in_get_code:
        loader._tagstr_desugared = True
    return code


def tag_cache_path(source_path: str) -> str | None:
    """Where the desugared bytecode of ``source_path`` is cached (``None``: nowhere).

    Follows ``sys.pycache_prefix`` and the optimization level like the standard
    pyc, with the desugarer's fingerprint before ``.pyc``.
    """
    try:
        standard = _bootstrap_external.cache_from_source(source_path)
    except NotImplementedError:  # sys.implementation.cache_tag is None
        return None
    return _tag_name(standard)


_fingerprint: "Callable[[], str] | None" = None


def _tag_name(bytecode_path: str) -> str:
    global _fingerprint
    if _fingerprint is None:  # imported when a tag-string module is first met
        from tagstr_runtime.desugarer.fingerprint import fingerprint

        _fingerprint = fingerprint
    base = bytecode_path[:-4] if bytecode_path.endswith(".pyc") else bytecode_path
    return f"{base}{_TAG_INFIX}{_fingerprint()}.pyc"


def _load_cached(
    loader: TagSourceFileLoader, source: bytes, source_path: str
) -> "CodeType | None":
    """Our cached code for ``source_path`` if still valid (``_read_cache``), and only
    if the listing of its ``__pycache__`` folder has it."""
    try:
        standard = _bootstrap_external.cache_from_source(source_path)
    except NotImplementedError:  # sys.implementation.cache_tag is None
        return None
    if not _may_be_cached(standard, source_path):
        return None
    return _read_cache(loader, standard, source_path, source)


def _cached_without_standard_pyc(loader: TagSourceFileLoader, source_path: str) -> "CodeType | None":
    """Our cache, valid, for a module whose listed ``__pycache__`` folder has it and
    no standard pyc (which, valid, would come first, as it does in ``get_code``)."""
    try:
        standard = _bootstrap_external.cache_from_source(source_path)
    except NotImplementedError:
        return None
    folder, name = os.path.split(standard)
    listing = _LISTED.get(folder)
    name = name[:-4] if name.endswith(".pyc") else name
    if listing is None or name not in listing[0] or name in listing[1]:
        return None
    code = _read_cache(loader, standard, source_path, None)
    if code is None:  # stale: desugared again by the way that writes a fresh cache
        listing[0].discard(name)
    return code


def _read_cache(
    loader: TagSourceFileLoader, standard: str, source_path: str, source: "bytes | None"
) -> "CodeType | None":
    """Our cached code for ``source_path`` if still valid, checked as CPython checks a pyc.

    Timestamp pycs (the kind import writes) compare mtime and size; hash-based
    ones (PEP 552) follow ``--check-hash-based-pycs`` (reading the source only
    then, if ``source`` is not given).  Anything unreadable is merely stale:
    the source is desugared again.
    """
    bytecode_path = _tag_name(standard)
    try:
        data = loader.get_data(bytecode_path)
        stats = loader.path_stats(source_path)
    except OSError:
        return None
    if len(data) < 16 or data[:4] != _MAGIC_NUMBER:
        return None
    flags = int.from_bytes(data[4:8], "little")
    if flags & ~0b11:
        return None
    if flags & 0b1:
        check = _imp.check_hash_based_pycs
        if check == "always" or (check != "never" and flags & 0b10):
            if source is None:
                try:
                    source = loader.get_data(source_path)
                except OSError:
                    return None
            if data[8:16] != _imp.source_hash(_RAW_MAGIC_NUMBER, source):
                return None
    elif int.from_bytes(data[8:12], "little") != int(stats["mtime"]) & 0xFFFFFFFF or (
        int.from_bytes(data[12:16], "little") != int(stats["size"]) & 0xFFFFFFFF
    ):
        return None
    try:
        code = marshal.loads(memoryview(data)[16:])
    except (EOFError, ValueError, TypeError):
        return None
    if type(code) is not type(_load_cached.__code__):
        return None
    fix_filename = getattr(_imp, "_fix_co_filename", None)
    if fix_filename is not None:  # the tree was moved since caching: CPython does the same
        fix_filename(code, source_path)
    if sys.flags.verbose:
        print(f"# {bytecode_path} matches {source_path}", file=sys.stderr)
    _let_inspect_read(source_path)
    _tag_code_runs()
    return code


_debuggers_told = False  # _tag_code_runs ran in this process


def _tag_code_runs() -> None:
    """A module with tag strings is about to run: pdb, when it is used, evaluates tag strings
    in the frame it stopped in (``p html"{local}"``, ``!y = ...``; ``run.compile_hook.debuggers``).
    The builtins stay CPython's: ``exec``/``eval``/``compile`` of text with tag strings is the
    runner's (docs/decisions/0043-which-processes-get-the-compile-hook.md).  A process without
    tag strings never gets here."""
    global _debuggers_told
    if _debuggers_told:
        return
    _debuggers_told = True
    from tagstr_runtime.run import compile_hook

    compile_hook.debuggers()


#: files of tag-string code loaded from the cache before anything imported ``inspect``
_UNSEEN: list[str] = []


def _let_inspect_read(source_path: str) -> None:
    """As a desugaring does (``run.inspect_source.ensure``), without importing anything
    for a program that never imports ``inspect``: a cached import opens its cache only."""
    if "inspect" in sys.modules or "tagstr_runtime.run.inspect_source" in sys.modules:
        from tagstr_runtime.run.inspect_source import ensure

        ensure(source_path)
        return
    if not _UNSEEN:
        sys.meta_path.insert(0, _InspectWatcher)
    _UNSEEN.append(source_path)


class _InspectWatcher:
    """A one-shot meta path finder: at the import of ``inspect``, tell it the files above."""

    @classmethod
    def find_spec(cls, name: str, path: "Any" = None, target: "Any" = None) -> "Any":
        if name != "inspect":
            return None
        try:
            sys.meta_path.remove(cls)
        except ValueError:
            pass
        from tagstr_runtime.run import inspect_source as _inspect_source

        for source_path in _UNSEEN:
            _inspect_source.ensure(source_path)
        _UNSEEN.clear()
        if _inspect_source._InspectImported in sys.meta_path:
            return _inspect_source._InspectImported.find_spec(name, path, target)
        return None


def _may_be_cached(standard_pyc: str, source_path: str) -> bool:
    """Whether a cache of ours can exist beside this standard pyc path.

    A plain module compiled from source (no valid standard pyc yet) must not pay
    for us: one listing of each ``__pycache__`` folder per process replaces a
    failed ``open`` per module, and a process that never meets a cached
    tag-string module never computes the fingerprint.  The listing also lets
    the next modules of the folder skip the standard pyc (``get_code``).  A
    cache another process writes after the listing is only missed (the module
    is desugared again).
    """
    folder, name = os.path.split(standard_pyc)
    listing = _LISTED.get(folder)
    if listing is None:
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            entries = []
        tagged = {entry.split(_TAG_INFIX, 1)[0] for entry in entries if _TAG_INFIX in entry}
        standard = {entry[:-4] for entry in entries if entry.endswith(".pyc") and _TAG_INFIX not in entry}
        listing = _LISTED[folder] = (tagged, standard)
    _LISTED_SOURCES.add(os.path.dirname(source_path))
    return (name[:-4] if name.endswith(".pyc") else name) in listing[0]


def _note_written(bytecode_path: str, standard: bool) -> None:
    """Keep the listing of a folder true to the pyc files this process writes there."""
    folder, name = os.path.split(bytecode_path)
    listing = _LISTED.get(folder)
    if listing is not None:
        listing[1 if standard else 0].add(name[:-4] if name.endswith(".pyc") else name)


_hook: "Callable[[str], PathEntryFinder] | None" = None


def _path_hook() -> "Callable[[str], PathEntryFinder]":
    """CPython's own ``FileFinder.path_hook``, with our loader for source files.

    Its finders are ``FileFinder`` objects, the type CPython caches in
    ``sys.path_importer_cache`` (distlib's ``finder_for_path`` and
    ``pkgutil`` dispatch on it); ``_holds`` tells them from CPython's by the
    loader they were given.
    """
    global _hook
    if _hook is None:
        details = [
            (TagSourceFileLoader if loader is _SourceFileLoader else loader, suffixes)
            for loader, suffixes in _bootstrap_external._get_supported_file_loaders()  # type: ignore[attr-defined]
        ]
        _hook = _FileFinder.path_hook(*details)
    return _hook


def _holds(finder: object, loader: type) -> bool:
    """``finder`` is a ``FileFinder`` whose loaders include ``loader`` (its ``_loaders``,
    the ``(suffix, loader)`` pairs ``FileFinder`` keeps from 3.3 on)."""
    if type(finder) is not _FileFinder:
        return False
    return any(held is loader for _suffix, held in getattr(finder, "_loaders", ()))


def install() -> None:
    """Let ``import`` load modules with tag strings from ``sys.path`` directories.

    Idempotent.  Goes just before CPython's own ``FileFinder`` hook (so
    ``zipimport`` keeps its place), and replaces the finders CPython already
    cached in ``sys.path_importer_cache`` by ours, which would otherwise keep
    serving those directories with the stock loader.
    """
    hook = _path_hook()
    _use_our_loader_for_file_locations(True)
    _zip_sources_with_tag_strings(True)
    if hook in sys.path_hooks:
        return
    position = len(sys.path_hooks)
    for index, other in enumerate(sys.path_hooks):
        if getattr(other, "__qualname__", "").startswith("FileFinder.path_hook"):
            position = index
            break
    sys.path_hooks.insert(position, hook)
    cache = sys.path_importer_cache
    for entry, finder in list(cache.items()):
        # CPython's own finders only: another tool's FileFinder hook keeps its loaders
        if _holds(finder, _SourceFileLoader):
            try:
                cache[entry] = _converted(finder, hook(entry))
            except ImportError:  # no longer a directory
                del cache[entry]


def _use_our_loader_for_file_locations(on: bool) -> None:
    """``importlib.util.spec_from_file_location`` (what setuptools' editable
    finders, plugin loaders and test runners call) picks its loader from
    ``_get_supported_file_loaders``, not from ``sys.path_hooks``: while the hook
    is installed, that list names our loader for source files."""
    current = _bootstrap_external._get_supported_file_loaders  # type: ignore[attr-defined]
    original = getattr(current, "_tagstr_original", None)
    if on and original is None:

        def supported_file_loaders() -> "list[tuple[type, list[str]]]":
            return [
                (TagSourceFileLoader if loader is _SourceFileLoader else loader, suffixes)
                for loader, suffixes in current()
            ]

        supported_file_loaders._tagstr_original = current  # type: ignore[attr-defined]
        _bootstrap_external._get_supported_file_loaders = supported_file_loaders  # type: ignore[attr-defined]
    elif not on and original is not None:
        _bootstrap_external._get_supported_file_loaders = original  # type: ignore[attr-defined]


def _zip_sources_with_tag_strings(on: bool) -> None:
    """Modules imported from a zip archive on ``sys.path`` (``zipimport``).

    ``zipimport`` compiles a ``.py`` member with the builtin ``compile``,
    in its module-level ``_compile_source(pathname, source, ...)``;
    while the hook is installed that function falls back to the desugarer
    when the builtin rejects the source, and otherwise returns its answer
    unchanged.  ``zipimport`` writes no bytecode, so there is no cache to
    keep apart.  A ``zipimport`` without that function keeps its stock
    behaviour.
    """
    zipimport = sys.modules.get("zipimport")
    current = getattr(zipimport, "_compile_source", None)
    if current is None:
        return
    original = getattr(current, "_tagstr_original", None)
    if on and original is None:

        def _compile_source(pathname: str, source: bytes, *more: object, **named: object) -> "CodeType":
            # more, named: what later versions add (3.15 passes a third argument)
            try:
                return current(pathname, source, *more, **named)  # type: ignore[no-any-return]
            except (SyntaxError, MemoryError) as exc:
                error = exc
            from tagstr_runtime.run.compile import compile_source

            source = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # as zipimport does
            try:
                code = compile_source(source, pathname, "exec", 0, True, -1, error)
            except SyntaxError as exc:
                raise exc.with_traceback(None) from None
            _tag_code_runs()
            return code

        _compile_source._tagstr_original = current  # type: ignore[attr-defined]
        zipimport._compile_source = _compile_source  # type: ignore[union-attr]
    elif not on and original is not None:
        zipimport._compile_source = original  # type: ignore[union-attr]


def _converted(stock: object, ours: "PathEntryFinder") -> "PathEntryFinder":
    """``ours``, reusing the directory listing ``stock`` already made.

    A start-up hook must not make every later import list the standard
    library directories again.  The listing is private ``FileFinder`` state;
    if it is absent or stale, ``FileFinder`` lists the directory anew.
    """
    if getattr(stock, "path", None) == getattr(ours, "path", None):
        for name in ("_path_mtime", "_path_cache", "_relaxed_path_cache"):
            if name in vars(stock):
                setattr(ours, name, vars(stock)[name])
    return ours


def uninstall() -> None:
    """Undo ``install`` (modules already imported stay as they are)."""
    _use_our_loader_for_file_locations(False)
    _zip_sources_with_tag_strings(False)
    if _hook is None or _hook not in sys.path_hooks:
        return
    sys.path_hooks.remove(_hook)
    cache = sys.path_importer_cache
    for entry, finder in list(cache.items()):
        if _holds(finder, TagSourceFileLoader):
            del cache[entry]
