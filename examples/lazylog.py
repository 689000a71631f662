"""Lazy log messages: ``log.debug(lazy"state: {expensive()}")``.

An f-string log message is built before the logger even looks at the level,
so ``log.debug(f"{dump(state)}")`` pays for ``dump`` with DEBUG off.  The
``%``-style ``log.debug("%s", dump(state))`` defers only the formatting:
``dump`` still runs.  With a tag string nothing runs: ``lazy"..."`` only
stores the interpolations (the ``getvalue`` closures), and the expressions
are evaluated when ``logging`` turns the message into text, which it does
only for a record that is actually emitted (``LogRecord.getMessage`` calls
``str(msg)``).

Interpolations are formatted as in an f-string (conversion, then format spec).
The text is computed once and kept, so every handler of a record sees the
same message and the expressions run at most once.  ``lazy"..."`` also works
as an argument: ``log.debug("%s", lazy"{dump(state)}")``.

Run it with ``python -m tagstr_runtime examples/lazylog.py``.
"""

from __future__ import annotations

import logging
import sys

from tagstr_runtime import Decoded, Interpolation, format_value

__all__ = ["LazyMessage", "lazy"]


class LazyMessage:
    """A message whose interpolations are evaluated the first time it is turned into text."""

    __slots__ = ("_args", "_text")

    def __init__(self, args: tuple[Decoded | Interpolation[object], ...]) -> None:
        self._args = args
        self._text: str | None = None

    @property
    def evaluated(self) -> bool:
        """Whether the message has been turned into text (and its expressions run)."""
        return self._text is not None

    def __str__(self) -> str:
        if self._text is None:
            out: list[str] = []
            for arg in self._args:
                match arg:
                    case Decoded() as decoded:
                        out.append(decoded)
                    case Interpolation(getvalue, _, conv, format_spec):
                        out.append(format_value(getvalue(), conv, format_spec))
            self._text = "".join(out)
            self._args = ()
        return self._text

    def __repr__(self) -> str:
        if self._text is None:
            return f"<LazyMessage, not evaluated, {len(self._args)} parts>"
        return f"LazyMessage({self._text!r})"


def lazy(*args: Decoded | Interpolation[object]) -> LazyMessage:
    """The tag: keep the parts, evaluate nothing yet."""
    return LazyMessage(args)


class Counter:
    """Stands for an expensive computation; counts how often it ran."""

    def __init__(self) -> None:
        self.calls = 0

    def dump(self) -> str:
        self.calls += 1
        return f"<big state dump #{self.calls}>"


def demo(logger: logging.Logger) -> list[tuple[str, int]]:
    """Log at each level through ``logger``; return (what was logged, calls so far)."""
    state = Counter()
    seen: list[tuple[str, int]] = []
    logger.debug(lazy"debug: {state.dump()}")
    seen.append(("debug as msg", state.calls))
    logger.debug("%s", lazy"debug: {state.dump()}")
    seen.append(("debug as arg", state.calls))
    logger.info(lazy"info: {state.dump()!r:>30}")
    seen.append(("info as msg", state.calls))
    logger.warning("%s", lazy"warning: {state.dump()}")
    seen.append(("warning as arg", state.calls))
    logger.debug(f"debug: {state.dump()}")  # for contrast: an f-string runs dump() anyway
    seen.append(("debug f-string", state.calls))
    return seen


def main() -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(levelname)-8s %(message)s"))
    logger = logging.getLogger("lazylog.demo")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(handler)
    try:
        seen = demo(logger)
    finally:
        logger.removeHandler(handler)
    for what, calls in seen:
        print(f"after {what:<15} the expensive function has run {calls} time(s)")


if __name__ == "__main__":
    main()
