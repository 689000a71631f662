"""The placeholder view of each open document, built once per text (not per request)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from tagstr_runtime.frontend import PlaceholderView

__all__ = ["ViewCache"]

_KEPT = 64  # documents whose views are kept (an editor's open files)


class ViewCache:
    """The last view of each document (by URI), rebuilt only when its text changes."""

    def __init__(self) -> None:
        self._views: OrderedDict[str, tuple[str, PlaceholderView]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, uri: str, text: str, path: str | None = None) -> PlaceholderView:
        with self._lock:
            kept = self._views.get(uri)
            if kept is not None and (kept[0] is text or kept[0] == text):
                self._views.move_to_end(uri)
                return kept[1]
        view = PlaceholderView(text, path or uri)
        with self._lock:
            self._views[uri] = (text, view)
            self._views.move_to_end(uri)
            while len(self._views) > _KEPT:
                self._views.popitem(last=False)
        return view

    def forget(self, uri: str) -> None:
        with self._lock:
            self._views.pop(uri, None)
