"""Conditional definitions, a fallback import, star imports, rebindings."""

import os

from tagstr_runtime import Decoded, Interpolation, accepts_template

from bindings.helpers import *  # noqa: F403
from extlib import *  # noqa: F403

if os.environ.get("CORPUS_PLAIN_TAG"):
    def pick(*args: Decoded | Interpolation[object]) -> str:
        return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)
else:
    @accepts_template
    def pick(*args: Decoded | Interpolation[object]) -> str:
        return "".join(a if isinstance(a, Decoded) else f"<{a.getvalue()}>" for a in args)

try:
    from extlib import html as page
except ImportError:
    @accepts_template
    def page(*args: Decoded | Interpolation[object]) -> str:
        return "".join(a if isinstance(a, Decoded) else str(a.getvalue()) for a in args)


def wrapped(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else f"[{a.getvalue()}]" for a in args)


wrapped = accepts_template(wrapped)


@accepts_template
def stage(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else f"({a.getvalue()})" for a in args)


def staged(x: object) -> str:
    return stage"{x}"  # expect: MIG015


x = 1
print(pick"{x}")  # expect: MIG015
print(page"{x}")  # expect: MIG015
print(wrapped"{x}", wrapped"{x + 1}")
print(loud"{x}")  # expect: MIG015
print(shout"{x}")  # expect: MIG011
print(staged(2))
before = stage"{x}"
print(before)


def stage(*args: Decoded | Interpolation[object]) -> str:  # noqa: F811
    return "".join(a if isinstance(a, Decoded) else f"{{{a.getvalue()}}}" for a in args)


print(staged(3))
for tag in (loud, wrapped):
    print(tag"{x}")  # expect: MIG015


@accepts_template
def mode(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, Decoded) else f"!{a.getvalue()}" for a in args)


def switch() -> None:
    global mode

    def mode(*args: Decoded | Interpolation[object]) -> str:
        return "".join(a if isinstance(a, Decoded) else f"?{a.getvalue()}" for a in args)


print(mode"{x}")  # expect: MIG015
switch()
print(mode"{x}")  # expect: MIG015
