"""Real code with tag strings: the f-strings of an installed package turned into same-width tag strings.

``h"...{x}..."`` for ``f"...{x}..."``: the prefix letter becomes the tag ``h``,
so every line, column and expression stays where it was, and the original
file is the f-string twin of the converted one (up to the tag's call around
it).  A tool's reports on the two are comparable position for position: the
differential tests on real code use it (flake8: ``test_closure_reports_twin``,
``test_thirdparty_complexity``; the wrappers: ``test_ruff_check``,
``test_format_tool``; mypy: ``test_real_code``, which binds the tag with
``with_tag_import`` on both sides).

Converted: f-strings with the one prefix ``f``/``F`` that stand alone (an
f-string implicitly concatenated with another literal stays: a tag string
cannot be); an f-string nested in a field stays one.  A file the tag-string
parser would refuse once converted is left as it is.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import tokenize
from pathlib import Path

from tagstr_runtime.frontend import parse

__all__ = ["converted", "package_files", "with_tag_import"]

TAG = "h"
_SKIPPED = frozenset([tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT])


def _groups(text: str) -> list[list[tuple[tuple[int, int], str]]]:
    """The string literals of ``text`` (start, first characters), as groups of implicitly
    concatenated ones; an f-string is one literal (3.12+ tokenizes it in pieces) and the
    literals nested in its fields are not listed."""
    groups: list[list[tuple[tuple[int, int], str]]] = []
    previous_was_string = False
    depth = 0  # inside how many f-strings (3.12+: FSTRING_START ... FSTRING_END)
    fstring_start = getattr(tokenize, "FSTRING_START", None)
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == fstring_start:
            depth += 1
            if depth > 1:
                continue
        elif token.type == fstring_end:
            depth -= 1
            continue
        elif depth:
            continue
        if token.type in (tokenize.STRING, fstring_start):
            literal = (token.start, token.string[:2])
            if previous_was_string:
                groups[-1].append(literal)
            else:
                groups.append([literal])
            previous_was_string = True
        elif token.type not in _SKIPPED:
            previous_was_string = False
    return groups


def converted(text: str) -> tuple[str, int]:
    """``text`` with its lone ``f``-prefixed strings turned into ``h`` tag strings, and how many."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out = list(text)
    count = 0
    for group in _groups(text):
        (start, first), *more = group
        if more or first[:1] not in ("f", "F") or first[1:2] not in ("'", '"'):
            continue
        row, col = start
        out[starts[row - 1] + col] = TAG
        count += 1
    result = "".join(out)
    try:
        parse(result)
    except SyntaxError:  # an f-string the tag-string grammar reads otherwise: leave the file alone
        return text, 0
    return result, count


def package_files(package: str) -> list[Path]:
    """The ``.py`` files of an installed package, sorted."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, package
    return sorted(Path(spec.origin).parent.rglob("*.py"))


def with_tag_import(original: str, tagged: str, module: str) -> tuple[str, str]:
    """Both texts (a module and its converted copy) importing the tag: ``from <module> import h``
    on a line of its own, before the first statement of ``original`` that is not the
    docstring nor a ``__future__`` import.  Every other line keeps its place on both sides."""
    body = ast.parse(original).body
    index = 0
    while index < len(body) and (
        (isinstance(body[index], ast.ImportFrom) and getattr(body[index], "module", None) == "__future__")
        or (index == 0 and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant))
    ):
        index += 1
    line = f"from {module} import {TAG}\n"
    if index == len(body):
        return tuple(text + ("\n" if text and not text.endswith("\n") else "") + line  # type: ignore[return-value]
                     for text in (original, tagged))
    node = body[index]
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    out = []
    for text in (original, tagged):
        lines = text.splitlines(keepends=True)
        lines.insert(first - 1, line)
        out.append("".join(lines))
    return out[0], out[1]
