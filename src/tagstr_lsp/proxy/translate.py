"""Positions, ranges and edits between the editor's text and the server's (the placeholder view).

Requests go to the server with their positions in the view; answers come
back with every range in the source, whatever the document they name
(locations, links, workspace edits, completion edits, hovers, symbols).  An
answer about the view's own syntax is dropped (a diagnostic on the call's
commas, a tag's argument judged as an argument); an edit that would change a
tag string beyond a name in a hole or the tag's is refused, its whole action
with it, and a fix-all split so that its changes elsewhere still apply.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable, TypeGuard

from tagstr_runtime.frontend import Edit, PlaceholderView

from tagstr_lsp.proxy.documents import Documents

__all__ = ["Translator"]

#: diagnostics judging a hole as an argument of the tag's call, which the f-string twin has not
ARGUMENT_CODES = frozenset(["reportArgumentType", "reportCallIssue", "FBT003"])
#: diagnostics about the call as a call (an unused result), on the whole tag string
CALL_CODES = frozenset(["reportUnusedCallResult", "PLW0108"])


def _is_range(value: Any) -> TypeGuard[dict[str, Any]]:
    return (isinstance(value, dict) and isinstance(value.get("start"), dict) and isinstance(value.get("end"), dict)
            and "line" in value["start"])


class Translator:
    def __init__(self, documents: Documents) -> None:
        self.documents = documents

    def view(self, uri: str | None) -> PlaceholderView | None:
        document = self.documents.get(uri)
        if document is None or not document.view.has_tag_strings and document.view.error is None:
            return None
        return document.view

    # -- to the server -----------------------------------------------------------------

    def position_to_view(self, view: PlaceholderView, position: dict[str, int]) -> dict[str, int]:
        line, column = view.to_view(position["line"], position["character"])
        return {"line": line, "character": column}

    def range_to_view(self, view: PlaceholderView, found: dict[str, Any]) -> dict[str, Any]:
        return {**found, "start": self.position_to_view(view, found["start"]),
                "end": self.position_to_view(view, found["end"])}

    def params_to_view(self, params: Any) -> Any:
        if not isinstance(params, dict):
            return params
        uri = (params.get("textDocument") or {}).get("uri") if isinstance(params.get("textDocument"), dict) else None
        view = self.view(uri)
        if view is None:
            return params
        out = dict(params)
        if isinstance(out.get("position"), dict):
            out["position"] = self.position_to_view(view, out["position"])
        if _is_range(out.get("range")):
            out["range"] = self.range_to_view(view, out["range"])
        context = out.get("context")
        if isinstance(context, dict) and isinstance(context.get("diagnostics"), list):
            out["context"] = {**context, "diagnostics": [
                {**d, "range": self.range_to_view(view, d["range"])}
                for d in context["diagnostics"] if d.get("source") != "tagstr" and _is_range(d.get("range"))]}
        return out

    # -- to the editor -----------------------------------------------------------------

    def range_to_source(self, view: PlaceholderView, found: dict[str, Any]) -> dict[str, Any]:
        start = view.to_source(found["start"]["line"], found["start"]["character"])
        end = view.to_source(found["end"]["line"], found["end"]["character"])
        return {**found, "start": {"line": start[0], "character": start[1]},
                "end": {"line": end[0], "character": end[1]}}

    def result_to_source(self, value: Any, uri: str | None) -> Any:
        """``value`` with every range of a document with tag strings on its source; edits that
        would damage a tag string raise ``Refused``."""
        if isinstance(value, list):
            return [self.result_to_source(item, uri) for item in value]
        if not isinstance(value, dict):
            return value
        if _is_range(value):
            view = self.view(uri)
            return value if view is None else self.range_to_source(view, value)
        here = uri
        if isinstance(value.get("uri"), str):
            here = value["uri"]
        document = value.get("textDocument")
        if isinstance(document, dict) and isinstance(document.get("uri"), str):
            here = document["uri"]
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key == "changes" and isinstance(item, dict):
                out[key] = {target: self.edits_to_source(edits, target) for target, edits in item.items()}
            elif key == "edits" and isinstance(item, list) and here is not None:
                out[key] = self.edits_to_source(item, here)
            elif key in ("targetRange", "targetSelectionRange") and isinstance(value.get("targetUri"), str):
                out[key] = self.result_to_source(item, value["targetUri"])
            elif key == "position" and isinstance(item, dict) and "line" in item:  # an inlay hint
                view = self.view(here)
                out[key] = item if view is None else self.range_to_source(view, {"start": item, "end": item})["start"]
            else:
                out[key] = self.result_to_source(item, here)
        return out

    def edits_to_source(self, edits: list[Any], uri: str) -> list[Any]:
        """TextEdits of ``uri``'s view on its source; split into the changes they make when they
        cover a tag string (a fix-all's one big edit), the changes to a tag string refused."""
        view = self.view(uri)
        if view is None or not edits:
            return edits
        mine = [e for e in edits if isinstance(e, dict) and _is_range(e.get("range"))]
        plain = view.view_edits([(e["range"]["start"]["line"], e["range"]["start"]["character"],
                                  e["range"]["end"]["line"], e["range"]["end"]["character"], e.get("newText", ""))
                                 for e in mine])
        if view.touches_tag_strings(plain):
            plain = split(view.view, plain)
            if view.touches_tag_strings(plain):
                raise Refused(uri)
        out = []
        for edit in plain:
            start = view.source_position(view.source_offset(edit.start))
            end = view.source_position(view.source_offset(edit.end))
            out.append({"range": {"start": {"line": start[0], "character": start[1]},
                                  "end": {"line": end[0], "character": end[1]}}, "newText": edit.content})
        return out

    # -- diagnostics -------------------------------------------------------------------

    def diagnostics_to_source(self, uri: str, diagnostics: list[dict[str, Any]]) -> list[dict[str, Any]]:
        view = self.view(uri)
        if view is None:
            return diagnostics
        kept = []
        for diagnostic in diagnostics:
            found = diagnostic.get("range")
            if not _is_range(found):
                continue
            start = view.view_offset_at(found["start"]["line"], found["start"]["character"])
            end = view.view_offset_at(found["end"]["line"], found["end"]["character"])
            code = str(diagnostic.get("code", ""))
            if view.index.enclosing(start) is not None:
                if not view.index.on_user_text(start):
                    continue
                if code in ARGUMENT_CODES and view.index.is_hole_expression(start, end):
                    continue
            tag = view.index.enclosing(start)
            if code in CALL_CODES and (tag is not None and tag.span.start == start or view.index.ends_at(end)):
                continue
            mapped = self.result_to_source(diagnostic, uri)
            kept.append(mapped)
        return kept


class Refused(Exception):
    """An edit that would change a tag string beyond a hole's names."""


def split(view: str, edits: list[Edit]) -> list[Edit]:
    """``edits`` (of the text ``view``) as the smallest changes they make, line by line then
    within the lines, so that a change to a tag string stands apart from the others."""
    after = view
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        after = after[: edit.start] + edit.content + after[edit.end :]
    old, new = view.splitlines(keepends=True), after.splitlines(keepends=True)
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line))
    out: list[Edit] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for op, a, b, c, d in matcher.get_opcodes():
        if op == "equal":
            continue
        was, now = "".join(old[a:b]), "".join(new[c:d])
        head = _prefix(was, now)
        tail = _prefix(was[head:][::-1], now[head:][::-1])
        out.append(Edit(starts[a] + head, starts[b] - tail, now[head : len(now) - tail]))
    return out


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def without_refused(make: Callable[[], Any]) -> Any:
    try:
        return make()
    except Refused:
        return None
