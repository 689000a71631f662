"""The names a type checker's view of a desugared module refers to.

``tagstr_mypy`` hands mypy a tree in which every tag string is
``__tagstr_call__(tag, __tagstr_d__, lambda: expr, ...)`` and binds those
names from here.  Routing the call through ``tag_call`` gives the
plugin one fully qualified name to hook (the tag itself can be any callable), and
the hook computes the real type of each call: the signature here is only what
mypy checks the arguments against, and it accepts anything.  Code never imports
this module at run time.
"""

from __future__ import annotations

from typing import Any

from tagstr_runtime._types import Decoded, Interpolation

__all__ = ["Interpolation", "any_interpolation", "decoded", "tag_call", "tag_function"]


def tag_call(tag: object, /, *args: object) -> Any:
    """``tag(*args)``, typed by the mypy plugin's hook on this name."""
    return tag(*args)  # type: ignore[operator]


#: Stands for every ``Decoded`` a tag string passes: only its type matters.
decoded: Decoded = Decoded("")


def tag_function(*args: Decoded | Interpolation[Any]) -> Any:
    """The PEP's ``TagFunction`` as a signature: every tag must be a subtype of it."""
    raise NotImplementedError


#: ``Interpolation[Any]``, as mypy spells that type for a tuple subclass.
any_interpolation: Interpolation[Any]
