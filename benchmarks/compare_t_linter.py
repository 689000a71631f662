"""The embedded-language checks side by side with t-linter, on the same cases: the table of docs/languages.md.

    python benchmarks/compare_t_linter.py --t-linter /path/to/t-linter

Each case is one template, written twice: as a 3.14 t-string passed to a tag
annotated ``Annotated[Template, "html"]`` (what t-linter reads), and as the
same tag string (what our flake8 plugin reads, on any Python).  A case names
the token each fault must be reported at (none: correct code, which must stay
silent).  Prints a Markdown table: per case and tool, ``ok`` (every fault at
its token, nothing else), ``missed``, ``elsewhere`` (reported, not at the
token), or ``false alarm``.  t-linter is not a test dependency: install it in
a scratch virtual environment (``pip install t-linter``) and pass its path.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple


class Case(NamedTuple):
    name: str
    language: str
    body: str  # the literal's text, as written in both forms (a '"' is escaped when written)
    tokens: tuple[str, ...]  # each fault's token (the n-th occurrence with "text#n"); () when correct


CASES = [
    Case("void elements", "html", "<p>a<br>b<img src='{x}' alt=\"\"></p>", ()),
    Case("optional end tags", "html", "<ul><li>{x}<li>b</ul><p>a<p>b", ()),
    Case("<DIV></div>", "html", "<DIV>{x}</div>", ()),
    Case("holes in text and quoted attributes", "html", "<a href=\"/u/{x}\" title='{x}'>{x}</a>", ()),
    Case("mismatched end tag", "html", "<div><span>{x}</div>", ("</div>",)),
    Case("stray end tag", "html", "<p>{x}</p></span>", ("</span>",)),
    Case("unclosed element", "html", "<section><h1>{x}</h1>", ("<section>",)),
    Case("duplicate attribute", "html", "<p class=\"a\" class=\"b\">{x}</p>", ("class#2",)),
    Case("invalid attribute name", "html", "<p a<b=\"1\">{x}</p>", ("<b",)),
    Case("bad character reference", "html", "<p>Fish &chips; {x}</p>", ("&chips",)),
    Case("two faults in one template", "html", "<div><span>{x}</div><p id=a id=b>", ("</div>", "id#2")),
    Case("hole: unquoted attribute value", "html", "<input value={x}>", ("{x}",)),
    Case("hole: tag name", "html", "<{x}>text</{x}>", ("{x}", "{x}#2")),
    Case("hole: attribute name", "html", "<p data-{x}=\"1\">text</p>", ("{x}",)),
    Case("hole: inside <script>", "html", "<script>var u = {x};</script>", ("{x}",)),
    Case("hole: inside a comment", "html", "<!-- user {x} -->", ("{x}",)),
    Case("hole: onclick=", "html", "<b onclick=\"go({x})\">go</b>", ("{x}",)),
    Case("hole: javascript: URL", "html", "<a href=\"javascript:go({x})\">go</a>", ("{x}",)),
    Case("value holes", "sql", "SELECT * FROM users WHERE id = {x} AND name = {x}", ()),
    Case("declared identifier {t:i}", "sql", "SELECT * FROM {x:i} WHERE id = {x}", ()),
    Case("misspelt keyword", "sql", "SELEC * FROM users WHERE id = {x}", ("SELEC",)),
    Case("syntax error mid-statement", "sql", "SELECT * FROM users WHERE id = {x} AND AND 1", ("AND#2",)),
    Case("hole: table name", "sql", "SELECT * FROM {x}", ("{x}",)),
    Case("hole: keyword position", "sql", "SELECT * FROM users ORDER BY age {x}", ("{x}",)),
    Case("hole: in a string literal", "sql", "SELECT * FROM users WHERE name = '{x}'", ("{x}",)),
    Case("hole: in a LIKE pattern", "sql", "SELECT * FROM users WHERE name LIKE '%{x}%'", ("{x}",)),
    Case("hole: in a comment", "sql", "SELECT * FROM users -- {x}\\nWHERE id = 1", ("{x}",)),
    Case("adjacent holes", "sql", "SELECT * FROM users WHERE id = {x}{x}", ("{x}#2",)),
    Case("several statements", "sql", "DELETE FROM users WHERE id = {x}; DROP TABLE users", ("DROP",)),
    Case("correct JSON", "json", "{{\"id\": {x}, \"tags\": [{x}]}}", ()),
    Case("JSON duplicate key", "json", "{{\"id\": {x}, \"id\": 2}}", ("\"id\"#2",)),
    Case("JSON syntax", "json", "{{\"id\": {x},}}", ("}}",)),
    Case("JSON hole as key", "json", "{{\"a\": 1, {x}: 2}}", ("{x}",)),
    Case("YAML duplicate key", "yaml", "id: {x}\\nname: a\\nid: 2\\n", ("id#2",)),
    Case("TOML duplicate key", "toml", "id = {x}\\nid = 2\\n", ("id#2",)),
    Case("correct CSS", "css", "p {{ color: {x}; margin: 0 }}", ()),
    Case("CSS syntax", "css", "p {{ color {x}; margin: 0 }}", ("color",)),
    Case("hole: CSS selector", "css", ".{x} > li {{ margin: 0 }}", ("{x}",)),
    Case("correct JavaScript", "javascript", "const u = {x}; f(u ?? {x}, a?.b);", ()),
    Case("hole: JS string literal", "javascript", "const s = 'hello {x}';", ("{x}",)),
]
LANGUAGES = ("html", "sql", "json", "yaml", "toml", "css", "javascript")
HEADER = "from string.templatelib import Template\nfrom typing import Annotated\n\nx = 1\n\n\n"


def column(line: str, start: int, token: str) -> int:
    """The 1-based column of ``token`` (its n-th occurrence for ``text#n``) after ``start``."""
    text, _, nth = token.partition("#")
    text = text.replace('"', '\\"')  # as written in the source
    at = start - 1
    for _ in range(int(nth or 1)):
        at = line.index(text, at + 1)
    return at + 1


def write(folder: Path) -> tuple[Path, Path, dict[int, Case]]:
    tstrings = [HEADER]
    ours_import = "from tagstr_runtime import Decoded, Interpolation\n"
    tags = [HEADER.replace("from string.templatelib import Template\n", ours_import)]
    for language in LANGUAGES:
        tstrings.append(f"def {language}(template: Annotated[Template, {language!r}]) -> str: ...\n")
        tags.append(f"def {language}(*args: Annotated[Decoded | Interpolation, {language!r}]) -> str: ...\n")
    tstrings.append("\n\n")
    tags.append("\n\n")
    for index, case in enumerate(CASES):
        body = case.body.replace('"', '\\"')
        tstrings.append(f"c{index} = {case.language}(t\"{body}\")\n")
        tags.append(f"c{index} = {case.language}\"{body}\"\n")
    tpath, opath = folder / "tstrings.py", folder / "tagstrings.py"
    tpath.write_text("".join(tstrings), encoding="utf-8")
    opath.write_text("".join(tags), encoding="utf-8")
    rows = {line.partition(" ")[0]: row for row, line in enumerate("".join(tags).split("\n"), 1)}
    return tpath, opath, {rows[f"c{index}"]: case for index, case in enumerate(CASES)}


def t_linter(binary: str, path: Path) -> dict[int, list[int]]:
    run = subprocess.run([binary, "check", str(path)], capture_output=True, text=True)
    found: dict[int, list[int]] = {}
    for row, col in re.findall(rf"^{re.escape(str(path))}:(\d+):(\d+):", run.stdout, re.MULTILINE):
        found.setdefault(int(row), []).append(int(col))
    return found


def ours(path: Path) -> dict[int, list[int]]:
    run = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select=TAG1,TAG2,TAG3,TAG4,TAG5",
         "--extend-ignore=TAG106", "--format=%(row)d:%(col)d", str(path)],  # the defaults: strict HTML off
        capture_output=True, text=True,
    )
    found: dict[int, list[int]] = {}
    for row, col in re.findall(r"^(\d+):(\d+)$", run.stdout, re.MULTILINE):
        found.setdefault(int(row), []).append(int(col))
    return found


def verdict(case: Case, line: str, body_start: int, columns: list[int]) -> str:
    wanted = sorted(column(line, body_start, token) for token in case.tokens)
    if not wanted:
        return "ok" if not columns else "false alarm"
    if not columns:
        return "missed"
    hits = [c for c in wanted if c in columns]
    if len(hits) == len(wanted) and len(columns) == len(wanted):
        return "ok"
    if hits:
        return f"{len(hits)} of {len(wanted)} at the token" + (", more reported" if len(columns) > len(hits) else "")
    return "elsewhere"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t-linter", required=True, help="the t-linter executable")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tpath, opath, lines = write(Path(tmp))
        theirs, mine = t_linter(args.t_linter, tpath), ours(opath)
        tlines = tpath.read_text(encoding="utf-8").split("\n")
        olines = opath.read_text(encoding="utf-8").split("\n")
    print("| Case | Language | tagstr (flake8) | t-linter |")
    print("|------|----------|-----------------|----------|")
    for row, case in lines.items():
        tline, oline = tlines[row - 1], olines[row - 1]
        tv = verdict(case, tline, tline.index('t"') + 2, theirs.get(row, []))
        ov = verdict(case, oline, oline.index('"') + 1, mine.get(row, []))
        print(f"| {case.name} | {case.language} | {ov} | {tv} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
