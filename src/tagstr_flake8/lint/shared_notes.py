"""Which missing parsers a run has named already, shared by the workers flake8 forks (``--jobs``)."""

from __future__ import annotations

import os
from typing import Any

from tagstr_runtime.frontend import LANGUAGE_REGISTRY

__all__ = ["LANGUAGE_INDEX", "SHARED", "share_notes"]

#: per language, whether a worker of this run noted its missing parser (``share_notes``)
SHARED: tuple[Any, Any] | None = None
LANGUAGE_INDEX = {language.name: index for index, language in enumerate(LANGUAGE_REGISTRY)}


def share_notes(options: Any = None) -> None:
    """Let the workers flake8 forks after this (``--jobs``) share which notes were given.

    Called from ``parse_options``, in the main process before it starts any
    worker: a forked worker inherits this shared memory, so a run notes a
    missing parser once, however many workers meet it.  (Spawned workers
    parse the options again and note once each.)  Nothing is made for a run
    that cannot fork (``--jobs 1``, one file, standard input): shared memory
    and its lock (``multiprocessing.sharedctypes`` loads ``ctypes``) were a
    third of what the plugin added to flake8 on one file (issue 42).
    """
    global SHARED
    if options is not None and not _may_fork(options):
        SHARED = None
        return
    try:
        import multiprocessing

        SHARED = (multiprocessing.RawArray("b", len(LANGUAGE_INDEX)), multiprocessing.Lock())
    except Exception:  # no shared memory here (Pyodide...): one note per process
        SHARED = None


def _may_fork(options: Any) -> bool:
    """Whether flake8 may run workers: more than one job and more than one file
    (``flake8.checker.Manager.run``); a single file named on the command line is never
    expanded into more."""
    jobs = getattr(options, "jobs", None)
    if jobs is not None and not getattr(jobs, "is_auto", True) and getattr(jobs, "n_jobs", 2) <= 1:
        return False
    filenames = getattr(options, "filenames", None)
    if isinstance(filenames, (list, tuple)) and len(filenames) == 1:
        name = filenames[0]
        if name == "-" or (isinstance(name, str) and os.path.isfile(name)):
            return False
    return True
