"""Real code with tag strings: the f-strings of an installed package turned into same-width tag strings.

``h"...{x}..."`` for ``f"...{x}..."``: the prefix letter becomes the tag ``h``,
so every line, column and expression stays where it was, and the original
file is the f-string twin of the converted one (up to the tag's call around
it).  A tool's reports on the two are comparable position for position: the
differential tests on real code use it (flake8: ``test_closure_reports_twin``,
``test_thirdparty_complexity``; the wrappers: ``test_ruff_check``,
``test_format_tool``).

Converted: f-strings with the one prefix ``f``/``F`` that stand alone (an
f-string implicitly concatenated with another literal stays: a tag string
cannot be); an f-string nested in a field stays one.  A file the tag-string
parser would refuse once converted is left as it is.
"""

from __future__ import annotations

import importlib.util
import io
import tokenize
from pathlib import Path

from tagstr_runtime.frontend import parse

__all__ = ["converted", "package_files"]

TAG = "h"
_SKIPPED = frozenset([tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT])


def _groups(text: str) -> list[list[tokenize.TokenInfo]]:
    """The string literals of ``text``, as groups of implicitly concatenated ones."""
    groups: list[list[tokenize.TokenInfo]] = []
    previous_was_string = False
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING:
            if previous_was_string:
                groups[-1].append(token)
            else:
                groups.append([token])
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
        if len(group) != 1 or group[0].string[:1] not in ("f", "F") or group[0].string[1:2] not in ("'", '"'):
            continue
        row, col = group[0].start
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
