"""Which missing parsers a run has named already, shared by the workers flake8 forks (``--jobs``)."""

from __future__ import annotations

from typing import Any

from tagstr_runtime.frontend import LANGUAGE_REGISTRY

__all__ = ["LANGUAGE_INDEX", "SHARED", "share_notes"]

#: per language, whether a worker of this run noted its missing parser (``share_notes``)
SHARED: tuple[Any, Any] | None = None
LANGUAGE_INDEX = {language.name: index for index, language in enumerate(LANGUAGE_REGISTRY)}


def share_notes() -> None:
    """Let the workers flake8 forks after this (``--jobs``) share which notes were given.

    Called from ``parse_options``, in the main process before it starts any
    worker: a forked worker inherits this shared memory, so a run notes a
    missing parser once, however many workers meet it.  (Spawned workers
    parse the options again and note once each.)
    """
    global SHARED
    try:
        import multiprocessing

        SHARED = (multiprocessing.RawArray("b", len(LANGUAGE_INDEX)), multiprocessing.Lock())
    except Exception:  # no shared memory here (Pyodide...): one note per process
        SHARED = None
