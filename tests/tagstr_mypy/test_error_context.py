"""``--show-error-context`` names the scope a tag string is in, as for its f-string twin.

mypy checks each interpolation inside a generated lambda; an error there must
not say ``In function "<lambda>"`` at module or class level, and a lambda the
user wrote is still the context of an error inside it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness import native_parser_by_default, run_mypy, write_config

pytestmark = pytest.mark.subprocess

# each tag string, then its f-string twin on the next line
MODULE = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation


    def html(*args: Decoded | Interpolation[object]) -> str:
        return ""


    n = 1
    m = html"{n.foo}"
    m2 = f"{n.foo}"
    u = html"{(lambda: n.bar)()}"
    u2 = f"{(lambda: n.bar)()}"


    class C:
        c = html"{n.foo}"
        c2 = f"{n.foo}"
        cl = html"{(lambda: n.bar)()}"
        cl2 = f"{(lambda: n.bar)()}"


    def f() -> None:
        k = html"{n.foo}"
        k2 = f"{n.foo}"
    o = html"{html"{n.baz}"}"
    o2 = f"{f'{n.baz}'}"
''')
TAG_LINES = [9, 11, 16, 18, 23, 25]


def contexts(output: str) -> dict[int, str]:
    """Each error's line -> the context mypy printed before it."""
    found, context = {}, "At top level:"
    for line in output.splitlines():
        if ": note: " in line and line.split(": note: ")[0].count(":") == 0:
            context = line.split(": note: ", 1)[1]
        elif ": error: " in line:
            found[int(line.split(":")[1])] = context
    return found


@pytest.mark.parametrize("parser", ["native", "stdlib"] if native_parser_by_default() else ["stdlib"])
def test_context_of_errors_in_interpolations(tmp_path: Path, parser: str) -> None:
    write_config(tmp_path)
    (tmp_path / "app.py").write_text(MODULE, encoding="utf-8")
    args = ["--no-incremental", "--show-error-context", "--python-version", "3.12", "app.py"]
    proc = run_mypy(*args, *(["--no-native-parser"] if parser == "stdlib" else []), cwd=tmp_path)
    found = contexts(proc.stdout)
    assert sorted(found) == sorted([*TAG_LINES, *(line + 1 for line in TAG_LINES)]), proc.stdout
    assert [found[line] for line in TAG_LINES] == [found[line + 1] for line in TAG_LINES], proc.stdout
