"""One way to hook a third-party function, and the one ``TAGSTR_STRICT`` switch.

The plugins reach tag strings into pytest, flake8 and mypy by wrapping private
internals of theirs (no public hook exists before parsing).  Doing it in one
place gives every such patch the same guarantees:

- idempotent: a plugin activated twice, or this package imported under two
  names, wraps once (the wrapper carries a mark, checked before wrapping);
- the original stays reachable as the wrapper's ``__wrapped__``;
- soft failure: when the internal is gone (a new version moved it) the tool
  runs as stock and *one* ``PatchWarning`` per process says which tool, which
  attribute and which feature is off.  A crash there would be worse than no
  plugin at all.

``wrapped_while`` is the scoped form, for a patch that must hold only while
one piece of work runs (a third-party flake8 plugin on one file): the same
soft failure, and the attribute given back afterwards.

``strict()`` is read by every catch-all of the project: our own tests set
``TAGSTR_STRICT=1`` (tox.ini), so a bug of ours fails them instead of taking
the silent fallback a user gets.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["PatchWarning", "strict", "warn_lost", "wrap_once", "wrapped_while"]

LOG = logging.getLogger("tagstr_runtime")
MARK = "_tagstr_wrapped"
_MISSING: Any = object()
_reported: set[str] = set()


class PatchWarning(RuntimeWarning):
    """A third-party internal a tagstr plugin hooks is missing: one feature is off, nothing else."""


def strict() -> bool:
    """``TAGSTR_STRICT=1``: catch-alls re-raise (read at each call, so tests can set it)."""
    return os.environ.get("TAGSTR_STRICT") == "1"


def wrap_once(owner: object, name: str, make: Callable[[Any], Any], *, tool: str, feature: str) -> bool:
    """Replace ``owner.name`` (a module's or a class's attribute) by ``make(original)``, once.

    ``owner.name`` may be any attribute, descriptors included: on a class the
    raw object from the class ``__dict__`` (e.g. a ``functools.cached_property``)
    is what ``make`` receives, looked up along the MRO and set on ``owner``.
    ``tool`` (e.g. ``"tagstr_flake8"``) and ``feature`` (what is lost without
    the hook) make up the warning when the attribute is missing, or when
    ``make`` rejects it (raises: the internal changed shape).  Returns whether
    the hook is in place.
    """
    current = _lookup(owner, name)
    if getattr(current, MARK, False):
        return True
    wrapper = _wrapper(owner, name, current, make, tool, feature)
    if wrapper is None:
        return False
    setattr(wrapper, MARK, True)
    wrapper.__wrapped__ = current
    setattr(owner, name, wrapper)
    return True


@contextmanager
def wrapped_while(
    owner: object, name: str, make: Callable[[Any], Any], *, tool: str, feature: str
) -> Iterator[bool]:
    """``owner.name`` replaced by ``make(original)`` inside the ``with`` block only.

    Yields whether the wrapper is in place (a missing attribute or a ``make``
    that rejects it warns as ``wrap_once`` does).  On leaving, the original
    comes back unless someone replaced the wrapper in the meantime: theirs
    stays, as it would have without us.
    """
    current = _lookup(owner, name)
    wrapper = _wrapper(owner, name, current, make, tool, feature)
    if wrapper is None:
        yield False
        return
    wrapper.__wrapped__ = current
    had_own = not isinstance(owner, type) or name in owner.__dict__  # else inherited
    setattr(owner, name, wrapper)
    try:
        yield True
    finally:
        if _lookup(owner, name) is wrapper:
            if had_own:
                setattr(owner, name, current)
            else:
                delattr(owner, name)


def _wrapper(
    owner: object, name: str, current: Any, make: Callable[[Any], Any], tool: str, feature: str
) -> Any:
    """``make(current)``, or None after the one warning: the attribute is missing, or
    ``make`` rejects it (raises: the internal exists but changed shape)."""
    attribute = f"{_path(owner)}.{name}"
    if current is _MISSING:
        warn_lost(tool, attribute, feature, "not found")
        return None
    try:
        return make(current)
    except Exception as exc:
        if strict():
            raise
        warn_lost(tool, attribute, feature, f"unexpected shape: {exc}")
        return None


def warn_lost(tool: str, attribute: str, feature: str, reason: str) -> None:
    """The one message (per process and attribute) that a hook could not be installed.

    A ``multiprocessing`` child (flake8's spawned ``--jobs`` workers) only
    logs it: its parent ran the same activation and already warned.
    """
    if attribute in _reported:
        return
    _reported.add(attribute)
    message = f"{tool}: cannot hook {attribute} ({reason}); {feature} is off, the rest works as stock"
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is not None and multiprocessing.parent_process() is not None:
        LOG.debug("%s", message)
        return
    warnings.warn(message, PatchWarning, stacklevel=3)


def _lookup(owner: object, name: str) -> Any:
    if isinstance(owner, type):
        for klass in owner.__mro__:
            if name in klass.__dict__:
                return klass.__dict__[name]
        return _MISSING
    return getattr(owner, name, _MISSING)


def _path(owner: object) -> str:
    if isinstance(owner, type):
        return f"{owner.__module__}.{owner.__qualname__}"
    return str(getattr(owner, "__name__", type(owner).__name__))
