"""Log tags: most are lazy on purpose, or do something between reads. Each is judged by its body."""

from __future__ import annotations

import contextvars
import sys
from typing import Callable, Iterator

from tagstr_runtime import Decoded, Interpolation, accepts_template

LEVELS = {"debug": 10, "info": 20, "warning": 30}
threshold = {"level": 20}
records: list[str] = []


def _text(args: tuple[Decoded | Interpolation[object], ...]) -> str:
    return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


def _leveled(level: str) -> Callable[..., str | None]:
    @accepts_template
    def log(*args: Decoded | Interpolation[object]) -> str | None:
        if LEVELS[level] < threshold["level"]:
            return None  # a filtered message never evaluates its fields
        message = "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)
        records.append(f"{level}: {message}")
        return message

    return log


debug = _leveled("debug")
info = _leveled("info")


class Message:
    """Formatted only when printed: the fields run then, and each time."""

    def __init__(self, *args: Decoded | Interpolation[object]) -> None:
        self.args = args

    def __str__(self) -> str:
        return _text(self.args)


@accepts_template
def stream(*args: Decoded | Interpolation[object]) -> None:
    """Writes each part as soon as it has it."""
    for arg in args:
        if isinstance(arg, Decoded):
            sys.stdout.write(arg)
        else:
            sys.stdout.write(str(arg.getvalue()))
    sys.stdout.write("\n")


depth = contextvars.ContextVar("depth", default=0)


@accepts_template
def scoped(*args: Decoded | Interpolation[object]) -> str:
    """Nested scoped strings see a deeper level: their fields run inside this one."""
    level = depth.get()
    token = depth.set(level + 1)
    try:
        inner = "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)
    finally:
        depth.reset(token)
    return f"[{level}:{inner}]"


@accepts_template
def safe(*args: Decoded | Interpolation[object]) -> str:
    """A failing field becomes <error>."""
    out = []
    for arg in args:
        if isinstance(arg, Decoded):
            out.append(arg)
        else:
            try:
                out.append(str(arg.getvalue()))
            except Exception as error:  # noqa: BLE001
                out.append(f"<{type(error).__name__}>")
    return "".join(out)


@accepts_template
def lines(*args: Decoded | Interpolation[object]) -> Iterator[str]:
    """A generator: the fields run as it is iterated."""
    for arg in args:
        yield arg if isinstance(arg, Decoded) else str(arg.getvalue())


@accepts_template
async def remote(*args: Decoded | Interpolation[object]) -> str:
    """A coroutine: the fields run when it is awaited."""
    return _text(args)


def deferred(tag: Callable[..., str]) -> Callable[..., Callable[[], str]]:
    def call(*args: object) -> Callable[[], str]:
        return lambda: tag(*args)

    return call


@accepts_template
@deferred
def later(*args: Decoded | Interpolation[object]) -> str:
    return _text(args)


@accepts_template
def record(*args: Decoded | Interpolation[object]) -> dict[str, object]:
    """A structured record: eager, quiet: migrated."""
    fields: dict[str, object] = {}
    text: list[str] = []
    for index, arg in enumerate(args):
        if isinstance(arg, Decoded):
            text.append(arg)
        else:
            value = arg.getvalue()
            fields[f"f{index}"] = value
            text.append(repr(value) if arg.conv == "r" else str(value))
    return {"msg": "".join(text), **fields}


@accepts_template
def keep(*args: Decoded | Interpolation[object]) -> list[object]:
    """Keeps its arguments for later."""
    kept: list[object] = []
    for arg in args:
        kept.append(arg)
    return kept
