"""The TextMate injection grammar (editors/textmate/), run by a real TextMate engine under node.

vscode-textmate with vscode-oniguruma (VS Code's own engine) tokenizes Python
with the grammar injected, the Python, HTML and SQL grammars from the npm
package tm-grammars: the tag's name, the holes as Python, the literal text as
HTML or SQL where the tag's name says so, a plain string otherwise.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "editors" / "textmate" / "tagstr.tmLanguage.json"


def tokens(npm_modules: Path, lines: list[str]) -> list[list[tuple[str, str]]]:
    """(text, innermost scopes joined) of each token of each line."""
    proc = subprocess.run(["node", str(Path(__file__).parent / "textmate_tokens.mjs"), str(npm_modules), str(GRAMMAR)],
                          input=json.dumps(lines), capture_output=True, text=True, timeout=120, check=True)
    return [[(t["text"], " ".join(t["scopes"][1:])) for t in line] for line in json.loads(proc.stdout)]


def scope_of(line: list[tuple[str, str]], text: str) -> str:
    return next(scopes for piece, scopes in line if piece == text)


def test_html_tag_string(npm_modules: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is needed")
    (line,) = tokens(npm_modules, ['page = html"<p class=\'{cls}\'>{user.name!r:>{width}}</p>"'])
    assert "entity.name.function.tag-string.python" in scope_of(line, "html")
    assert "entity.name.tag.html" in scope_of(line, "p")  # the HTML grammar's tag name
    assert "meta.interpolation.python" in scope_of(line, "cls")  # a hole inside an attribute's value
    assert "meta.interpolation.python" in scope_of(line, "user")
    assert "storage.type.format.python" in scope_of(line, "!r")
    assert "meta.interpolation.python" in scope_of(line, "width")  # a hole in the format spec
    assert "string" not in scope_of(line, "user").split("meta.tag-string.python")[-1]


def test_sql_and_other_tags(npm_modules: Path) -> None:
    sql, plain, fstring, multi = tokens(npm_modules, [
        'q = sql"SELECT name FROM users WHERE id = {uid}"',
        'msg = log"{{literal}} {count + 1} items"',
        'f"{x}" + rb"raw" + u"text"',
        'return"x"',
    ])
    assert "keyword.other.DML.sql" in scope_of(sql, "SELECT") and "meta.embedded.block.sql" in scope_of(sql, "SELECT")
    assert "meta.interpolation.python" in scope_of(sql, "uid")
    assert "entity.name.function.tag-string.python" in scope_of(plain, "log")
    assert "constant.character.escape.python" in scope_of(plain, "{{")
    assert "constant.numeric" in scope_of(plain, "1") and "meta.interpolation.python" in scope_of(plain, "count")
    # string prefixes and keywords are not tags: the Python grammar's own scopes
    assert not any("tag-string" in scopes for _, scopes in fstring + multi)


def test_triple_quoted_across_lines(npm_modules: Path) -> None:
    first, second, third = tokens(npm_modules, ['page = html"""', '  <li>{item}</li>', '"""'])
    assert "meta.interpolation.python" in scope_of(second, "item")
    assert "entity.name.tag.html" in scope_of(second, "li")
    assert "punctuation.definition.string.end.python" in scope_of(third, '"""')
