"""The optional compiled constructor of ``Interpolation`` (``_speedups.c``; see ``_rt``)."""

from typing import Any, Callable

#: bumped when what generated code calls here changes (part of the cache fingerprint)
ABI: int

def interpolation_factory(cls: type[tuple[Any, ...]], /) -> Callable[..., Any]:
    """A builtin making instances of the tuple subclass ``cls`` from its 4 items
    (``f(getvalue, expr, conv, spec)``) or from one 4-tuple (``f(fields)``)."""
