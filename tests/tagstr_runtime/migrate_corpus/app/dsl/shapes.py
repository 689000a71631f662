"""More shapes of tag bodies: each proven eager and quiet, or not."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value

log: list[str] = []


@accepts_template
def copies(*args: Decoded | Interpolation[object]) -> tuple[object, ...]:
    """Returns its arguments: whoever gets them reads the values, when and as often as they like."""
    return tuple(args)


@accepts_template
def indexed(*args: Decoded | Interpolation[object]) -> list[object]:
    out = []
    for i in range(len(args)):
        if isinstance(args[i], Interpolation):
            out.append(args[i].getvalue())
    return out


@accepts_template
def slices(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args[::-1])


@contextmanager
def section(name: str) -> Iterator[None]:
    log.append(f"enter {name}")
    yield
    log.append(f"exit {name}")


@accepts_template
def guarded(*args: Decoded | Interpolation[object]) -> str:
    with section("guarded"):
        return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


class Counter:
    """An instance tag that counts its values: its state changes between reads."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *args: Decoded | Interpolation[object]) -> str:
        out = []
        for arg in args:
            if isinstance(arg, Decoded):
                out.append(arg)
            else:
                self.count += 1
                out.append(f"{self.count}:{arg.getvalue()}")
        return "".join(out)


counted = accepts_template(Counter())


class Joiner:
    """An instance tag that only reads its own settings: eager and quiet."""

    def __init__(self, sep: str) -> None:
        self.sep = sep

    def __call__(self, *args: Decoded | Interpolation[object]) -> str:
        return self.sep.join(a if isinstance(a, Decoded) else format_value(a.getvalue(), a.conv, a.format_spec)
                             for a in args)


joined = accepts_template(Joiner("|"))


@accepts_template
def checked(*args: Decoded | Interpolation[object]) -> list[object]:
    """Asserts what it gets, then reads every value once: a tag string stops at a failed check."""
    values = []
    for arg in args:
        if isinstance(arg, Interpolation):
            value = arg.getvalue()
            assert value is not None, "no None values"
            values.append(value)
    return values


@accepts_template
def typed(*args: Decoded | Interpolation[object]) -> list[str]:
    """``type(a) is`` and ``match`` on a tuple pattern tell the parts apart."""
    out = []
    for arg in args:
        if type(arg) is Decoded:
            out.append(arg.upper())
            continue
        match arg:
            case (getvalue, _, conv, _):
                out.append(repr(getvalue()) if conv == "r" else str(getvalue()))
    return out


lazy_lambda = accepts_template(lambda *args: [a if isinstance(a, Decoded) else a.getvalue() for a in args])


@accepts_template
def numbered(*args: Decoded | Interpolation[object]) -> list[str]:
    """Numbers each value by how long the log is: a value that logs shows in the next number."""
    return [f"{len(log)}:{a.getvalue()}" for a in args if isinstance(a, Interpolation)]  # quiet, but reads log
