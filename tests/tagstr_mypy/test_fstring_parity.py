"""An error inside an interpolation is reported exactly as stock mypy reports the
same expression written in an f-string at the same columns.

Each expression is written once as ``g"{...}"`` and once as ``f"{...}"``: one-letter
prefixes, so every column is the same, and mypy must print the same diagnostics,
on each of its parsers (mypy's stdlib-``ast`` parser puts a field's expression at
the f-string's start before Python 3.12, at the field's ``{`` since: a tag
string's too).  (ASCII only: stock mypy's native parser counts columns after
non-ASCII text inside f-strings one short; tag strings use its usual character
columns.)
"""

from __future__ import annotations

import sys

import pytest

from harness import diagnostics, native_parser_available, run_mypy, write_config

pytestmark = pytest.mark.subprocess

PARSERS = pytest.mark.parametrize("parser", [
    pytest.param("--native-parser", marks=pytest.mark.skipif(
        not native_parser_available(), reason="no native parser")),
    pytest.param("--no-native-parser", marks=pytest.mark.skipif(
        sys.version_info < (3, 12),
        reason="PEP 701 f-strings: mypy's stdlib-ast parser needs Python 3.12 to read them")),
])

PRELUDE = '''\
from typing import Any
from tagstr_runtime import Decoded, Interpolation


def g(*args: Decoded | Interpolation) -> str:
    return ""


n = 1
s = "text"
d = {"k": 1}
items = [1, 2]
'''

FIELDS = [
    "{n.missing}",
    "{n + s}",
    "{s + n + s}",
    "{len(n)}",
    '{d["k"].upper()}',
    "{d[1]}",
    "{items.index(s)}",
    "{n:{n.width}}",
    "{n!r:>{n}.{s.prec}}",
    "{n.attr!r}",
    "{n.debug=}",
    "{ n.spaced = }",
    "{[i.bad for i in items]}",
    "{s if n.flag else n}",
    "{(lambda: n.inner)()}",
    "{(w := n.walrus)}",
    '{f"{n.nested}"}',
    "{ {n.in_set} }",
    "{{escaped}} {n.after_escape}",
    "{n.first} literal {s.second} {n.third:{s.fourth}}",
    "{\n    n.multi  # a comment\n}",
    "{undefined_name}",
]


def pair(tmp_path_factory: pytest.TempPathFactory, parser: str) -> tuple[list[str], list[str]]:
    work = tmp_path_factory.mktemp("parity")
    write_config(work)
    for prefix in "gf":
        body = "".join(f"x{index} = {prefix}\"{field}\"\n" for index, field in enumerate(FIELDS))
        (work / f"{prefix}_side.py").write_text(PRELUDE + body, encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", "--python-version", "3.12", parser,
                    "g_side.py", "f_side.py", cwd=work)
    found = diagnostics(proc)
    side = {p: [f"{d.line}:{d.column}: {d.severity}: {d.message}" for d in found if d.file == f"{p}_side.py"]
            for p in "gf"}
    return side["g"], side["f"]


@PARSERS
def test_same_diagnostics_as_fstrings(tmp_path_factory: pytest.TempPathFactory, parser: str) -> None:
    tag_side, fstring_side = pair(tmp_path_factory, parser)
    assert len(fstring_side) >= len(FIELDS)  # the cases do produce errors
    assert tag_side == fstring_side
