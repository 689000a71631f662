"""A module with tag strings and its f-string twin in the same columns, and the positions inside holes.

The twin writes each tag string ``html"..."`` as ``   f"..."``: the name's
characters but the last become spaces, so every hole's expression stands at
the same line and column in both files and the same request can be sent to
both at the same position.
"""

from __future__ import annotations

import re
from pathlib import Path

TAGS = '''\
from tagstr_runtime import Decoded, Interpolation


def html(*args: Decoded | Interpolation[object]) -> str:
    return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)


def fmt(value: object, width: int = 0) -> str:
    """Format ``value`` right-aligned."""
    return str(value).rjust(width)
'''

MODULE = '''\
from dataclasses import dataclass

from tags import fmt, html


@dataclass
class User:
    """Someone who reads pages."""

    name: str
    age: int


def greet(user: User, greeting: str) -> str:
    count = len(greeting)
    page = html"<p>{greeting}, {user.name}!</p><b>{count:>3}</b>"
    return page + html"<i>{fmt(user.age, count)}</i>" + html'{greeting.upper()}'


banner = html"<h1>{greet(User('Ann', 3), 'Hi')}</h1>"
'''


def twin_of(text: str) -> str:
    """``text`` with each ``html"`` written ``   f"`` (same columns)."""
    return re.sub(r"\bhtml(?=['\"])", "   f", text)


#: a module with a mechanical fix for TAG001, TAG002 and TAG011, the fixes' titles, and the
#: module with all three made (each on the text as it is: together they do not overlap)
FIXES = ('from tags import html as t\n\n\nclass Page:\n    def render(self) -> str:\n'
         '        return t"<p>{super().render()}</p>" + t"\\N{BULLET} item"\n')
FIX_TITLES = ["Rename tag 't' to 'tmpl' (TAG001)", "Write '\\N{{BULLET}}' for the character (TAG002)",
              "Write super(Page, self) (TAG011)"]
FIXED = ('from tags import html as tmpl\n\n\nclass Page:\n    def render(self) -> str:\n'
         '        return tmpl"<p>{super(Page, self).render()}</p>" + tmpl"\\N{{BULLET}} item"\n')


def write(folder: Path) -> tuple[Path, Path]:
    (folder / "tags.py").write_text(TAGS, encoding="utf-8")
    page = folder / "page.py"
    twin = folder / "twin.py"
    page.write_text(MODULE, encoding="utf-8")
    twin.write_text(twin_of(MODULE), encoding="utf-8")
    return page, twin


def hole_positions(text: str = MODULE) -> list[tuple[str, int, int]]:
    """(name, line, character) of the start and middle of each name inside a hole (0-based)."""
    found = []
    for number, line in enumerate(text.splitlines()):
        if "html" not in line:
            continue
        for field in re.finditer(r"\{([^{}:!]*)", line):
            for name in re.finditer(r"[A-Za-z_]\w*", field.group(1)):
                start = field.start(1) + name.start()
                found.append((name.group(), number, start))
                found.append((name.group(), number, start + len(name.group()) // 2))
    return found
