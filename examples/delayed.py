"""Delayed evaluation, the PEP's "Lazy Evaluation" pattern: ``Delayed"Hello {name}"``.

A class is a tag like any callable: ``Delayed"..."`` calls ``Delayed(*args)``
and gives a ``Delayed`` holding the parts.  Nothing is evaluated then.  Every
time the object is turned into text (``str()``, ``print``, ``format``, an
f-string), the interpolations are evaluated *again*, in the scope where the
tag string was written, with the values the variables have at that moment:

    name = "World"
    greeting = Delayed"Hello {name}!"
    name = "Everyone"
    str(greeting)  # 'Hello Everyone!'

This is lambda (late binding) semantics, with its usual catch: a tag string
written in a loop sees the loop variable's *last* value once the loop is done.
``freeze()`` evaluates now and returns the text.

Run it with ``python -m tagstr_runtime examples/delayed.py``.
"""

from __future__ import annotations

from tagstr_runtime import Decoded, Interpolation, format_value

__all__ = ["Delayed"]


class Delayed:
    """A tag string evaluated each time it is turned into text."""

    __slots__ = ("args",)

    def __init__(self, *args: Decoded | Interpolation[object]) -> None:
        self.args = args

    def freeze(self) -> str:
        """Evaluate the interpolations now, formatting them as an f-string would."""
        out: list[str] = []
        for arg in self.args:
            match arg:
                case Decoded() as decoded:
                    out.append(decoded)
                case Interpolation(getvalue, _, conv, format_spec):
                    out.append(format_value(getvalue(), conv, format_spec))
        return "".join(out)

    __str__ = freeze

    def __format__(self, format_spec: str) -> str:
        return format(self.freeze(), format_spec)

    def __repr__(self) -> str:
        """Approximately the source: ``Delayed'Hello {name!r:>10}'``."""
        parts: list[str] = []
        for arg in self.args:
            if isinstance(arg, Decoded):
                parts.append(arg.raw.replace("{", "{{").replace("}", "}}"))
                continue
            conv = "" if arg.conv is None else f"!{arg.conv}"
            spec = "" if arg.format_spec is None else f":{arg.format_spec}"
            parts.append(f"{{{arg.expr}{conv}{spec}}}")
        return f"Delayed{''.join(parts)!r}"


class Clock:
    """A value that changes between evaluations."""

    def __init__(self) -> None:
        self.ticks = 0

    def tick(self) -> int:
        self.ticks += 1
        return self.ticks


def demo() -> list[str]:
    shown: list[str] = []
    name = "World"
    greeting = Delayed"Hello {name}!"
    shown.append(str(greeting))
    name = "Everyone"
    shown.append(str(greeting))

    clock = Clock()
    status = Delayed"tick {clock.tick():03d}"
    shown.extend(str(status) for _ in range(3))
    shown.append(f"[{status:>10}]")

    items: list[str] = []
    summary = Delayed"{len(items)} item(s): {', '.join(items)!r}"
    for item in ("apples", "pears"):
        items.append(item)
        shown.append(str(summary))
    shown.append(repr(summary))
    return shown


def main() -> None:
    for line in demo():
        print(line)


if __name__ == "__main__":
    main()
