"""pylsp plugin: jedi reads each file with tag strings as its placeholder view (pylsp's ``pylsp`` entry point).

* Every ``Document.jedi_script`` of a document with tag strings is built on
  its view, and jedi reads other modules with tag strings (imports) as their
  views: hover, definition, completion, references, document highlight,
  signature help and symbols answer inside holes as on the f-string twin, at
  the same positions (the view keeps them).  A request on a tag string's own
  syntax (its literal text, braces) answers nothing, as on the twin's literal.
* Rename edits each reference's name (jedi's own rename writes whole files:
  from the view, it would lose every tag string).
* Semantic tokens for tag strings (``textDocument/semanticTokens/full``,
  served through pylsp's ``pylsp_dispatchers`` hook, the capability added to
  the server's answer to ``initialize``) and quick fixes for TAG001, TAG002
  and TAG011 (``pylsp_code_actions``).

Columns are pylsp's: characters.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any

from pylsp import hookimpl, uris

from tagstr_runtime.frontend import (
    TOKEN_MODIFIERS, TOKEN_TYPES, Lines, PlaceholderView, RenameFix, encode_tokens, semantic_tokens,
    wrap_once,
)
from tagstr_lsp.views import ViewCache

__all__ = ["pylsp_code_actions", "pylsp_dispatchers", "pylsp_rename"]

_TOOL = "tagstr_lsp"
VIEWS = ViewCache()
_SHOWN = threading.local()  # the view a request's jedi scripts read (a buffer being typed: closed at the cursor)
LEGEND = {"tokenTypes": list(TOKEN_TYPES), "tokenModifiers": list(TOKEN_MODIFIERS)}


def view_of(document: Any) -> PlaceholderView:
    shown = getattr(_SHOWN, "view", None)
    if shown is not None and shown[0] == document.uri:
        return shown[1]  # type: ignore[no-any-return]
    return VIEWS.get(document.uri, document.source, document.path)


class _Shown:
    """A document as jedi is to read it: its view in place of its source."""

    def __init__(self, document: Any, text: str) -> None:
        self._document = document
        self.source = text

    def __getattr__(self, name: str) -> Any:
        return getattr(self._document, name)


def _install() -> None:
    """jedi reads views: the open document's (``Document.jedi_script``) and other modules'."""
    from pylsp.python_lsp import PythonLSPServer
    from pylsp.workspace import Document

    def make_jedi_script(original: Any) -> Any:
        def jedi_script(self: Any, position: Any = None, use_document_path: bool = False) -> Any:
            view = view_of(self)
            if not view.has_tag_strings:
                return original(self, position, use_document_path)
            return original(_Shown(self, view.view), position, use_document_path)
        return jedi_script

    wrap_once(Document, "jedi_script", make_jedi_script, tool=_TOOL, feature="jedi inside tag strings")

    def make_capabilities(original: Any) -> Any:
        def capabilities(self: Any) -> Any:
            found = original(self)
            found.setdefault("semanticTokensProvider", {"legend": LEGEND, "full": True, "range": False})
            return found
        return capabilities

    wrap_once(PythonLSPServer, "capabilities", make_capabilities, tool=_TOOL, feature="semantic tokens")
    _install_file_reads()


def _install_file_reads() -> None:
    import jedi.file_io

    def make_read(original: Any) -> Any:
        def read(self: Any) -> Any:
            return _read_view(self, original(self))
        return read

    wrap_once(jedi.file_io.FileIO, "read", make_read, tool=_TOOL, feature="imports of modules with tag strings")


def _read_view(self: Any, data: Any) -> Any:
    """A module's bytes as jedi reads them: its view, if it has tag strings."""
    path = str(self.path)
    if not isinstance(data, bytes) or not path.endswith(".py") or (b'"' not in data and b"'" not in data):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    view = PlaceholderView(text, path)
    return view.view.encode("utf-8") if view.has_tag_strings else data


_install()


# -- requests inside tag strings ----------------------------------------------------------


@contextmanager
def _request(document: Any, position: dict[str, int] | None) -> Iterator[PlaceholderView]:
    """The view this request's scripts read: a buffer left open by the user is closed at the cursor."""
    view = VIEWS.get(document.uri, document.source, document.path)
    if view.error is not None and position is not None:
        cursor = view.source_lines.offset(position["line"], position["character"])
        view = PlaceholderView(document.source, document.path, cursor=cursor)
    _SHOWN.view = (document.uri, view)
    try:
        yield view
    finally:
        _SHOWN.view = None


def _on_syntax(view: PlaceholderView, position: dict[str, int]) -> bool:
    """A position on a tag string's own syntax (pylsp's columns are characters)."""
    if not view.has_tag_strings:
        return False
    line, column = position["line"], position["character"]
    column16 = view.source_lines.to_utf16(line, column)
    return view.part_at(line, column16, cursor=True) == "syntax"


def _source_range(view: PlaceholderView, found: dict[str, Any]) -> dict[str, Any]:
    """A range jedi gave on the view, on the source (they differ only after a repair's insertion)."""
    out = {}
    for end in ("start", "end"):
        at = view.source_offset(view.view_lines.offset(found[end]["line"], found[end]["character"]))
        line, column = view.source_lines.position(at)
        out[end] = {"line": line, "character": column}
    return out


def _map_ranges(view: PlaceholderView, uri: str, found: Any) -> Any:
    if not view.has_tag_strings or view.view_lines is view.source_lines and view.error is None:
        return found
    items = found if isinstance(found, list) else [found]
    for item in items:
        if isinstance(item, dict) and "range" in item and item.get("uri", uri) == uri and item["range"]:
            item["range"] = _source_range(view, item["range"])
        edit = item.get("textEdit") if isinstance(item, dict) else None
        if isinstance(edit, dict) and "range" in edit:
            edit["range"] = _source_range(view, edit["range"])
    return found


def _wrapped(empty: Any) -> Any:
    def wrapper(document: Any, position: dict[str, int]) -> Generator[None, Any, None]:
        with _request(document, position) as view:
            outcome = yield
        if _on_syntax(view, position):
            outcome.force_result(empty)
            return
        result = outcome.get_result()
        outcome.force_result(_map_ranges(view, document.uri, result))
    return wrapper


pylsp_hover = hookimpl(hookwrapper=True)(_wrapped({"contents": ""}))
pylsp_definitions = hookimpl(hookwrapper=True)(_wrapped([]))
pylsp_type_definition = hookimpl(hookwrapper=True)(_wrapped([]))
pylsp_completions = hookimpl(hookwrapper=True)(_wrapped([]))
pylsp_document_highlight = hookimpl(hookwrapper=True)(_wrapped([]))


@hookimpl(hookwrapper=True)
def pylsp_signature_help(document: Any, position: dict[str, int]) -> Generator[None, Any, None]:
    with _request(document, position) as view:
        outcome = yield
    if _on_syntax(view, position) or _in_tag_call_only(view, position):
        outcome.force_result({"signatures": []})


def _in_tag_call_only(view: PlaceholderView, position: dict[str, int]) -> bool:
    line = position["line"]
    return view.open_brackets(line, view.source_lines.to_utf16(line, position["character"])) == 0


@hookimpl(hookwrapper=True)
def pylsp_references(document: Any, position: dict[str, int]) -> Generator[None, Any, None]:
    with _request(document, position) as view:
        outcome = yield
    if _on_syntax(view, position):
        outcome.force_result([])


# -- rename -----------------------------------------------------------------------------


@hookimpl(tryfirst=True)
def pylsp_rename(workspace: Any, document: Any, position: dict[str, int], new_name: str) -> Any:
    """Each reference's name replaced (None: no file involved has tag strings, jedi's rename stands)."""
    with _request(document, position) as view:
        if _on_syntax(view, position):
            return {"documentChanges": []}
        script = document.jedi_script()
        references = script.get_references(line=position["line"] + 1, column=position["character"],
                                           include_builtins=False)
    return rename_edits(workspace, document, references, new_name, always=view.has_tag_strings)


def rename_edits(workspace: Any, document: Any, references: Any, new_name: str, always: bool = True) -> Any:
    by_path: dict[str, list[Any]] = {}
    for name in references:
        if name.module_path is None or name.line is None or name.in_builtin_module():
            continue
        by_path.setdefault(str(name.module_path), []).append(name)
    changes = []
    involved = always
    for path, names in by_path.items():
        uri: str = uris.from_fs_path(path)  # type: ignore[no-untyped-call]  # pylsp leaves it unannotated
        open_document = workspace.get_maybe_document(uri)
        if open_document is not None:
            text = open_document.source
        else:
            try:
                with open(path, encoding="utf-8") as file:
                    text = file.read()
            except OSError:
                continue
        view = VIEWS.get(uri, text, path)
        involved = involved or view.has_tag_strings
        edits = []
        for name in sorted({(n.line, n.column, n.name) for n in names}):
            line, column, old = name
            start = {"line": line - 1, "character": column}
            end = {"line": line - 1, "character": column + len(old)}
            edits.append({"range": _source_range(view, {"start": start, "end": end}), "newText": new_name})
        changes.append({"textDocument": {"uri": uri, "version": open_document.version if open_document else None},
                        "edits": edits})
    if not involved:
        return None
    return {"documentChanges": changes}


# -- semantic tokens and quick fixes -------------------------------------------------------


@hookimpl
def pylsp_dispatchers(config: Any, workspace: Any) -> dict[str, Any]:
    def full(params: dict[str, Any]) -> dict[str, Any]:
        uri = params["textDocument"]["uri"]
        document = workspace.get_maybe_document(uri)
        if document is None:
            return {"data": []}
        view = VIEWS.get(uri, document.source, document.path)
        if not view.has_tag_strings:
            return {"data": []}
        tokens = semantic_tokens(view.text, view.tags, document.path) if view.error is None else []
        return {"data": encode_tokens(tokens, Lines(view.text), TOKEN_TYPES)}

    return {"textDocument/semanticTokens/full": full}


@hookimpl
def pylsp_code_actions(config: Any, workspace: Any, document: Any, range: dict[str, Any],  # noqa: A002
                       context: dict[str, Any]) -> list[dict[str, Any]]:
    from tagstr_lsp.actions import fix_actions

    view = VIEWS.get(document.uri, document.source, document.path)

    lines = view.source_lines
    actions = []
    # pylsp's positions are in characters, as jedi's
    for fix, action in fix_actions(view, document.path, document.uri, range,
                                   list(context.get("diagnostics", ())), utf16=False):
        if isinstance(fix, RenameFix):
            line, column = lines.position(fix.at)
            script = document.jedi_script()
            references = script.get_references(line=line + 1, column=column, include_builtins=False)
            edit = rename_edits(workspace, document, references, fix.new_name)
            if not edit:
                continue
            action["edit"] = edit
        actions.append(action)
    return actions
