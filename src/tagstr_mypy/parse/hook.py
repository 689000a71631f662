"""Where mypy's parsers meet tag strings.

mypy has no plugin hook before parsing, and stock parsers reject tag strings.
Two Python-level entry points reach every parse:

* ``ast_serialize.parse``: mypy 2.x's native (Rust) parser, one call per file.
  The wrapper calls it first.  A file that parses (every file without tag
  strings, SPEC 1.8) gets the native result untouched: the only cost is one
  extra Python call.  A file with syntax errors is lexed by the runtime's
  parser; if it holds tag strings, the native parser parses the *placeholder*
  text instead (each tag string overwritten by a same-length call, so imports,
  ``# type: ignore`` comments and inline ``# mypy:`` options come out at their
  original lines), and mypy's own stdlib-``ast`` converter builds the real tree
  from the desugared ``ast``.  That tree waits in the build's
  ``BuildState.pending`` until it is swapped into the module's ``MypyFile``
  (``parse.adopt.swap``: when mypy computes the module's dependencies, or where the
  semantic analyzer enters it, which every path to a checked module goes through).
* ``ast.parse``, called by mypy's stdlib-``ast`` parser (``--no-native-parser``
  and parallel workers, see ``use_stdlib_parser_in_worker``): on a
  ``SyntaxError`` it returns the desugared tree when the source has tag strings.
  It is wrapped only from a plugin build's ``transform_source`` (``_mark_source``)
  to the ``ast.parse`` call that follows it; between parses it is stock.

Both wrappers act only for builds that load the plugin (``parse.builds``): any other
build in the same process gets stock mypy.  Malformed tag strings become mypy
syntax errors at their exact position.
"""

from __future__ import annotations

import ast
import sys
import threading
from typing import Any, Callable

from tagstr_runtime.frontend import TagSyntaxError, decode_source, strict, wrap_once
from tagstr_mypy.parse import builds as _builds
from tagstr_mypy.parse import swap_point as _swap_point
from tagstr_mypy.parse.builds import ParseState, Pending
from tagstr_mypy.parse.runtime_check import missing_runtime

__all__ = ["convert", "install", "use_stdlib_parser_in_worker"]

_lock = threading.RLock()
_native_parse: Callable[..., Any] | None = None
_ast_parse: Callable[..., ast.AST] = ast.parse
#: thread id -> (the source a plugin build's ``transform_source`` handed over last, its options)
_MARKED: dict[int, tuple[object, Any]] = {}
#: count columns in characters in the stdlib-ast path (set in parallel workers)
_char_columns = False
#: a parallel worker: the coordinator's native parse already reported a missing runtime
_in_worker = False


def install(plugin: object, options: Any, state: ParseState) -> None:
    """Take part in the parses of ``options``' build (mypy's global options) while
    ``plugin`` (whose state is ``state``) lives.

    The native parser is wrapped once per process; the wrapper passes other
    builds' calls straight through.  ``ast.parse`` is wrapped per parse.
    """
    with _lock:
        try:
            import ast_serialize
        except ImportError:  # mypy before the native parser
            pass
        else:
            wrap_once(ast_serialize, "parse", _make_native, tool=_TOOL,
                      feature="tag strings with the native parser (--no-native-parser still has them)")
        _builds.register(plugin, options, state, _mark_source)


_TOOL = "tagstr_mypy"


def _make_native(original: Callable[..., Any]) -> Callable[..., Any]:
    global _native_parse
    _native_parse = original
    _parse_native.__doc__ = original.__doc__
    return _parse_native


def _mark_source(options: Any, source: Any) -> Any:
    """A plugin build's ``transform_source``: ``source`` unchanged, and the
    ``ast.parse`` call that follows (mypy's, in this thread) wrapped."""
    global _ast_parse
    with _lock:
        _MARKED[threading.get_ident()] = (source, options)
        if ast.parse is not _parse_stdlib:
            _ast_parse = ast.parse
            setattr(ast, "parse", _parse_stdlib)  # noqa: B010  (typeshed overloads ast.parse)
    return source


def _take_marked(source: object) -> Any:
    """The options of the plugin build that marked this source in this thread,
    else None; the last one out puts ``ast.parse`` back (unless someone wrapped
    ours since)."""
    with _lock:
        marked = _MARKED.pop(threading.get_ident(), None)
        if not _MARKED and ast.parse is _parse_stdlib:
            setattr(ast, "parse", _ast_parse)  # noqa: B010
    return marked[1] if marked is not None and marked[0] is source else None


def use_stdlib_parser_in_worker(options: Any) -> None:
    """In a parallel worker (``--num-workers``), parse with the stdlib parser.

    A worker rebuilds each module's tree from the bytes the coordinator's
    native parse produced, and no plugin hook runs between that and semantic
    analysis, so the tree of a tag-string module cannot be swapped in there.
    The coordinator sends no bytes for such modules (``get_additional_deps``
    drops them); the worker then parses them itself, and with this switch it
    does so through ``ast.parse``, which the wrapper below answers with the
    desugared tree.  Every other module still arrives as native bytes.
    """
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.startswith("mypy.build_worker") and options.native_parser:
        global _char_columns, _in_worker
        options.native_parser = False
        _char_columns = True  # columns as the native parser would count them
        _in_worker = True


# -- native parser ------------------------------------------------------------------


def _parse_native(fnam: str, source: str | bytes | None = None, *args: Any, **kwargs: Any) -> Any:
    assert _native_parse is not None
    build = _builds.build_of(kwargs.get("always_true"), kwargs.get("always_false"))
    if build is None:  # a build without the plugin
        return _native_parse(fnam, source, *args, **kwargs)
    # Each parse of a file replaces what an earlier one left: an update that a
    # blocking error aborted before the swap must not leave a tree for the next
    # update (dmypy) to swap in, nor a file that lost its tag strings their records.
    build.state.pending.pop(fnam, None)
    build.state.sites.pop(fnam, None)
    result = _native_parse(fnam, source, *args, **kwargs)
    if not _blocking(result[1]) and not (
        # the native parser reads t"..." as a template string for every target;
        # before 3.14 it is a tag string (SPEC 1.4)
        result[4].get("uses_template_strings")
        and tuple(kwargs.get("python_version") or sys.version_info[:2]) < (3, 14)
    ):
        return result
    try:
        return _tag_strings_native(result, fnam, source, build, args, kwargs)
    except Exception as exc:  # a bug of ours must not become a mypy crash
        if strict():
            raise
        return _with_errors(result, [_error(1, 0, f"tag strings: internal error: {exc!r}")])


def _tag_strings_native(
    result: Any, fnam: str, source: str | bytes | None, build: _builds.Build, args: Any, kwargs: dict[str, Any]
) -> Any:
    assert _native_parse is not None
    if source is None:
        try:
            with open(fnam, "rb") as file:  # the file the native parser just read
                source = file.read()
        except OSError:
            return result
    try:
        text = decode_source(source)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return result
    version = kwargs.get("python_version") or sys.version_info[:2]
    try:
        from tagstr_mypy.parse.checker_tree import checker_tree  # the desugarer: only for a file that needs it

        built = checker_tree(text, fnam, version, char_columns=True)
    except TagSyntaxError as exc:
        only_here = _running_python_only(exc, text, fnam, version, args, kwargs)
        return _with_errors(result, [_syntax_error(exc, only_here)])
    except SyntaxError as exc:
        return _standard_error(result, exc, text, fnam, version, args, kwargs)
    if built is None:
        return result
    placeholder = built.desugaring.placeholder
    assert placeholder is not None
    if not text.isascii():
        # the native parser counts characters: each blanked one a space (CPython's placeholder
        # keeps the UTF-8 length instead)
        from tagstr_runtime.frontend import placeholder_text

        placeholder = placeholder_text(text, built.desugaring.tag_strings, char_columns=True)
    native = _native_parse(fnam, placeholder, *args, **kwargs)
    if _blocking(native[1]):  # the native parser rejects what CPython accepted: its errors stand
        return native
    skip_bodies = bool(kwargs.get("skip_function_bodies", args[0] if args else False))
    from tagstr_mypy.parse.native_graft import graft_plan

    build.state.pending[fnam] = Pending(built.tree, skip_bodies, text, graft_plan(built, placeholder))
    build.state.sites[fnam] = built.sites
    build.state.retire(built)
    _swap_point.arm()
    missing = missing_runtime(build.options)
    if missing is None:
        return native
    at = built.desugaring.source.pos(built.desugaring.tag_strings[0].span.start)
    # not blocking: the rest of the file, interpolations included, is still checked
    error = {**_error(at.line, at.col_char, missing), "blocker": False, "code": "import-not-found"}
    return _with_errors(native, [*native[1], error])


def _standard_error(
    result: Any,
    exc: SyntaxError,
    text: str,
    fnam: str,
    version: tuple[int, int],
    args: Any,
    kwargs: dict[str, Any],
) -> Any:
    """A standard syntax error in a file that may have tag strings (before a malformed one, too)."""
    from tagstr_runtime.frontend import stand_in_text

    assert _native_parse is not None
    stand_in = stand_in_text(text, fnam, template_strings=version >= (3, 14))
    if stand_in is None:
        return result
    native = _native_parse(fnam, stand_in, *args, **kwargs)
    if _blocking(native[1]):  # stock mypy's error, at its place, without the tag strings in the way
        return native
    # Only the running interpreter rejects it: tag-string files go through its parser.
    return _with_errors(result, [_error(exc.lineno or 1, (exc.offset or 1) - 1, exc.msg + _running_only_hint())])


def _running_only_hint() -> str:
    running = f"{sys.version_info[0]}.{sys.version_info[1]}"
    return f" (a file with tag strings is parsed by the Python running mypy, {running})"


def _running_python_only(
    exc: TagSyntaxError, text: str, fnam: str, version: tuple[int, int], args: Any, kwargs: dict[str, Any]
) -> bool:
    """Whether CPython's error on an interpolation (a nested f-string or tag
    string, a format spec) is the running interpreter's alone: the native
    parser reads the placeholder text, where every interpolation stands as written."""
    from tagstr_runtime.frontend import stand_in_text

    assert _native_parse is not None
    if getattr(exc.msg, "kind", None) is not None:  # our own message, not CPython's
        return False
    stand_in = stand_in_text(text, fnam, template_strings=version >= (3, 14))
    return stand_in is not None and not _blocking(_native_parse(fnam, stand_in, *args, **kwargs)[1])


def convert(pending: Pending, fnam: str, options: Any) -> Any:
    """The ``MypyFile`` of a desugared tree, converted with the *module's* options.

    The native parser gets its per-module settings as arguments, never the
    ``Options`` object; the converter (``implicit_optional`` for one) needs
    the module's, ``[mypy-pkg.*]`` sections and ``# mypy:`` lines applied,
    so conversion waits until the module's name is known.
    """
    from mypy.errors import Errors
    from mypy.fastparse import ASTConverter

    errors = Errors(options)
    errors.set_file(fnam, None, options=options)
    converter = ASTConverter(
        options=options,
        is_stub=fnam.endswith(".pyi"),
        errors=errors,
        strip_function_bodies=pending.strip_function_bodies,
        path=fnam,
    )
    return converter.visit(pending.tree)


def _blocking(errors: list[dict[str, Any]]) -> bool:
    """Errors that stop the parse.  Others (an invalid ``# type: ignore[``, a bad
    type comment) leave a complete tree: a file whose only errors are those has no
    tag string (SPEC 1.8), and a placeholder parse with only those is good to use."""
    return any(error.get("blocker", True) for error in errors)


def _syntax_error(exc: SyntaxError, running_python_only: bool = False) -> dict[str, Any]:
    # SyntaxError.offset is 1-based; mypy's parse errors count from 0
    hint = _running_only_hint() if running_python_only else ""
    return _error(exc.lineno or 1, (exc.offset or 1) - 1, exc.msg + hint)


def _error(line: int, column: int, message: str) -> dict[str, Any]:
    return {"line": line, "column": column, "message": message, "blocker": True, "code": "syntax"}


def _with_errors(result: Any, errors: list[dict[str, Any]]) -> Any:
    return (result[0], errors, *result[2:])


# -- stdlib parser ------------------------------------------------------------------


def _parse_stdlib(
    source: str | bytes, filename: str = "<unknown>", mode: str = "exec", *args: Any, **kwargs: Any
) -> ast.AST:
    options = _take_marked(source)
    if options is None:
        return _ast_parse(source, filename, mode, *args, **kwargs)
    build = _builds.build_of(options.always_true, options.always_false)
    if build is not None:
        build.state.sites.pop(filename, None)  # what an earlier parse of the file recorded
    try:
        return _ast_parse(source, filename, mode, *args, **kwargs)
    except SyntaxError as exc:
        if mode != "exec":
            raise
        original = exc
    feature = kwargs.get("feature_version")
    version = (3, feature) if isinstance(feature, int) else sys.version_info[:2]
    try:
        text = decode_source(source)
        from tagstr_mypy.parse.checker_tree import checker_tree  # the desugarer: only for a file that needs it

        built = checker_tree(text, filename, version, char_columns=_char_columns, twin_columns=not _char_columns)
    except TagSyntaxError as exc:
        # mypy's stdlib-ast parser reports SyntaxError.offset as a 0-based column
        shifted = TagSyntaxError(
            exc.msg, (exc.filename, exc.lineno, (exc.offset or 1) - 1, exc.text,
                      exc.end_lineno, exc.end_offset)
        )
        raise shifted from None
    except SyntaxError:
        raise
    except Exception:  # a bug of ours: mypy reports the standard error, as stock
        if strict():
            raise
        raise original from None
    if built is None:
        raise original
    if build is not None:
        build.state.sites[filename] = built.sites
        build.state.retire(built)  # mypy converts the tree, then drops it
    missing = None if _in_worker else missing_runtime(options)
    if missing is not None:
        # mypy's stdlib-ast parser has no other way to report: this error stops the check
        at = built.desugaring.source.pos(built.desugaring.tag_strings[0].span.start)
        column = at.col_char if _char_columns else at.col_byte
        raise SyntaxError(missing, (filename, at.line, column, None, at.line, column))
    return built.tree
