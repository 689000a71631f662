"""Every relative link in the Markdown docs points at a file of the checkout (a clone has them all),
and every ``#anchor`` at a heading of its page; the decision records are whole and indexed.

The decisions are one record each, ``docs/decisions/NNNN-slug.md`` (title, status, area, the
modules they govern, Context / Decision / Consequences), and ``docs/decisions.md`` is their
index by area and by module: ``docs/decisions/0225-one-record-per-decision.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *ROOT.glob("docs/**/*.md"),
               *ROOT.glob("examples/*.md"), *ROOT.glob("benchmarks/*.md")])
_LINK = re.compile(r"\]\(([^)\s]+)\)")
RECORDS_DIR = ROOT / "docs" / "decisions"
INDEX = ROOT / "docs" / "decisions.md"
#: where code, tests and docs may cite a record by its path
CITING = ["src/**/*.py", "src/**/*.c", "tests/**/*.py", "benchmarks/**/*.py", "tools/**/*.py", "*.py",
          "docs/**/*.md", "README.md", "CHANGELOG.md", "benchmarks/*.md", "examples/**/*.py"]
_CITED = re.compile(r"docs/decisions/(\d{4}-[\w-]+\.md)")


def _links(doc: Path) -> list[str]:
    """The link targets of a page, code spans and fenced blocks left out (they show syntax, not links)."""
    text = re.sub(r"^ *```.*?^ *```", "", doc.read_text(encoding="utf-8"), flags=re.M | re.S)
    return _LINK.findall(re.sub(r"`[^`\n]*`", "``", text))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: its rendered text, lower case, punctuation dropped, spaces to ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link renders as its text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """The anchors GitHub gives a page's headings (``-1``, ``-2``... for repeats) and its explicit ids."""
    text = re.sub(r"^ *```.*?^ *```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    seen: Counter[str] = Counter()
    found = set(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", text))
    for heading in re.findall(r"^#{1,6} (.+?)#*$", text, re.M):
        slug = _slug(heading)
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return frozenset(found)


def test_anchors_are_githubs() -> None:
    assert _slug("Type checking (mypy plugin)") == "type-checking-mypy-plugin"
    assert _slug("The docs' code blocks (`tests/docs/`)") == "the-docs-code-blocks-testsdocs"
    assert _slug("Embedded languages (issue 27, [languages.md](languages.md))") == \
        "embedded-languages-issue-27-languagesmd"
    assert {"lexing", "by-area", "by-module"} <= anchors(INDEX)


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_relative_links_resolve_inside_the_checkout(doc: Path) -> None:
    """A link lands on a file of the checkout and, with ``#anchor`` on a Markdown page, on a heading there."""
    broken = []
    for target in _links(doc):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists() or ROOT not in path.parents:
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(target)
    assert broken == []


def test_the_spec_is_in_the_repository() -> None:
    """Code and docs cite "SPEC n.m": the clauses they cite exist in docs/spec.md."""
    spec = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    clauses = set(re.findall(r"^(\d+\.\d+) ", spec, re.M)) | set(re.findall(r"^## (\d+)\.", spec, re.M))
    cited = set()
    for path in [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/**/*.md"), ROOT / "README.md"]:
        cited |= set(re.findall(r"SPEC (\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    assert cited and cited <= clauses, sorted(cited - clauses)


# -- the decision records --------------------------------------------------------------

class Record(NamedTuple):
    """One ``docs/decisions/NNNN-slug.md``, as its header says."""

    path: Path
    number: int
    title: str  # ``N. What was decided``, the heading and every link's text
    status: str
    area: str  # the index's heading
    modules: tuple[str, ...]  # paths of the repository
    sections: tuple[tuple[str, str], ...]  # (heading, text) after the header


_FILE = re.compile(r"(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md")
_HEADER = re.compile(
    r"# (?P<title>(?P<n>\d+)\. .+)\n\n"
    r"- Status: (?P<status>.+)\n"
    r"- Area: \[(?P<area>[^\]]+)\]\(\.\./decisions\.md#(?P<anchor>[\w-]+)\)\n"
    r"- Modules: (?P<modules>.+)\n"
    r"(?:- Issues: (?P<issues>\d+(?:, \d+)*)\n)?"
    r"\n(?P<body>(?:.|\n)*)\Z")
_MODULE = re.compile(r"\[`([^`]+)`\]\(\.\./\.\./([^)]+)\)")


def _record(path: Path) -> Record:
    text = path.read_text(encoding="utf-8")
    header = _HEADER.match(text)
    assert header, (f"{path.name}: expected '# N. Title', a blank line, then '- Status:', '- Area:', "
                    f"'- Modules:', optionally '- Issues:' (see docs/decisions.md, Adding a decision)")
    listed = header["modules"].split(", ")
    modules = [_MODULE.fullmatch(item) for item in listed]
    assert all(modules), f"{path.name}: each module is [`path`](../../path): {listed}"
    assert all(m[1] == m[2] for m in modules if m), f"{path.name}: a module's text and link differ"
    parts = re.split(r"^## (.+)\n", header["body"], flags=re.M)
    assert not parts[0].strip(), f"{path.name}: text before ## Context"
    sections = tuple(zip(parts[1::2], parts[2::2]))
    return Record(path, int(header["n"]), header["title"], header["status"], header["area"],
                  tuple(m[1] for m in modules if m), sections)


@cache
def records() -> tuple[Record, ...]:
    return tuple(_record(path) for path in sorted(RECORDS_DIR.glob("*.md")))


def test_records_are_named_and_numbered_once() -> None:
    names = sorted(path.name for path in RECORDS_DIR.iterdir())
    assert [name for name in names if not _FILE.fullmatch(name)] == [], "a record is NNNN-short-slug.md"
    numbers = Counter(int(name[:4]) for name in names)
    assert [n for n, count in numbers.items() if count > 1] == [], "two records share a number: renumber one"
    assert len(records()) > 200
    for record in records():
        assert record.number == int(record.path.name[:4]), f"{record.path.name}: its heading says {record.number}"


def test_every_record_has_its_parts() -> None:
    """Title, status, area, modules, then Context, Decision and Consequences, none of them empty."""
    by_name = {record.path.name: record for record in records()}
    for record in records():
        name = record.path.name
        assert [heading for heading, _ in record.sections] == ["Context", "Decision", "Consequences"], name
        assert all(text.strip() for _, text in record.sections), f"{name}: an empty section"
        assert record.modules, f"{name}: governs no module"
        superseded = re.fullmatch(r"superseded by \[(.+)\]\((\d{4}-[\w-]+\.md)\)", record.status)
        assert record.status in ("accepted", "deprecated") or superseded, f"{name}: status {record.status!r}"
        if superseded:
            assert superseded[2] in by_name and by_name[superseded[2]].title == superseded[1], name


def test_every_module_a_record_names_exists() -> None:
    missing = [f"{record.path.name}: {module}" for record in records() for module in record.modules
               if not (ROOT / module).exists()]
    assert missing == [], "a record governs a path that is not in the tree (moved? update the record and the index)"


def _index_section(heading: str) -> str:
    text = INDEX.read_text(encoding="utf-8")
    assert f"\n## {heading}\n" in text, f"docs/decisions.md has no ## {heading}"
    return text.partition(f"\n## {heading}\n")[2].partition("\n## ")[0]


def test_the_index_holds_no_decision_itself() -> None:
    """A decision written into docs/decisions.md the old way (a bold-titled bullet, a section of its own)
    fails: it belongs in a record of its own, listed here."""
    text = re.sub(r"^ *```.*?^ *```", "", INDEX.read_text(encoding="utf-8"), flags=re.M | re.S)
    assert re.findall(r"^## (.+)$", text, re.M) == ["Adding a decision", "By area", "By module"]
    assert re.findall(r"^ *[-*] \*\*.*", text, re.M) == [], "write the decision as a record (Adding a decision)"


_ENTRY = re.compile(r"\[(.+?)\]\(decisions/(\d{4}-[\w-]+\.md)\)")


def test_the_index_lists_every_record_under_its_area() -> None:
    """Under ``## By area``: each ``### Area`` lists its records, one line each, and nothing else."""
    listed: dict[str, tuple[str, str]] = {}  # file -> (area, link text)
    area = ""
    for line in _index_section("By area").splitlines():
        if line.startswith("### "):
            area = line[4:].strip()
        elif line.startswith("- "):
            entry = _ENTRY.match(line, 2)
            assert entry, f"docs/decisions.md, By area: not a link to a record: {line[:80]!r} (a decision is a record)"
            assert entry[2] not in listed, f"docs/decisions.md lists {entry[2]} twice"
            listed[entry[2]] = (area, entry[1])
    expected = {record.path.name: (record.area, record.title) for record in records()}
    assert sorted(set(expected) - set(listed)) == [], "records missing from docs/decisions.md, By area"
    assert sorted(set(listed) - set(expected)) == [], "docs/decisions.md lists records that do not exist"
    assert {name: entry for name, entry in listed.items() if entry != expected[name]} == {}, \
        "listed under another area, or with another title, than the record's"


def test_the_index_lists_each_modules_records() -> None:
    """Under ``## By module``: every path some record governs, with exactly the records naming it."""
    listed: dict[str, set[str]] = {}
    module = ""
    for line in _index_section("By module").splitlines():
        if line.startswith("- `"):
            module = line[3:].partition("`")[0]
            assert module not in listed, f"docs/decisions.md, By module: {module} twice"
            listed[module] = set()
        elif line.startswith("  - "):
            entry = _ENTRY.fullmatch(line[4:])
            assert entry and module, f"docs/decisions.md, By module: {line!r}"
            listed[module].add(f"[{entry[1]}](decisions/{entry[2]})")
    expected: dict[str, set[str]] = {}
    for record in records():
        for path in record.modules:
            expected.setdefault(path, set()).add(f"[{record.title}](decisions/{record.path.name})")
    to_add = {path: sorted(entries - listed.get(path, set())) for path, entries in expected.items()}
    to_remove = {path: sorted(entries - expected.get(path, set())) for path, entries in listed.items()}
    assert {path: lines for path, lines in to_add.items() if lines} == {}, "add under By module"
    assert {path: lines for path, lines in to_remove.items() if lines} == {}, "remove from By module"


def test_citations_of_records_land() -> None:
    """A docstring, comment or page citing ``docs/decisions/NNNN-slug.md`` names a record that exists;
    the index holds no decision itself, so nothing cites a title in it."""
    wrong = []
    for pattern in CITING:
        for path in ROOT.glob(pattern):
            if path == Path(__file__) or not path.is_file() or ".venv" in path.parts:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")  # test data in other encodings
            where = path.relative_to(ROOT)
            wrong += [f"{where}: {name}" for name in _CITED.findall(text) if not (RECORDS_DIR / name).is_file()]
            if path.suffix != ".md":  # a page links to an anchor, which the link test checks
                wrong += [f"{where}: {m[0]!r}" for m in re.finditer(r"decisions\.md[,:]? \"[^\"]*\"?", text)]
    assert wrong == [], "cite a record by its path: docs/decisions/NNNN-slug.md"


def test_a_module_citing_a_record_is_governed_by_it() -> None:
    """A module of src/ whose docstring or comments cite a record is among that record's modules, so the
    index's By module lists the record under it: a reader of either finds the other."""
    governs = {record.path.name: set(record.modules) for record in records()}
    unlisted = []
    for path in [*ROOT.glob("src/**/*.py"), *ROOT.glob("src/**/*.c")]:
        where = str(path.relative_to(ROOT))
        for name in set(_CITED.findall(path.read_text(encoding="utf-8"))):
            if name in governs and not any(where == m or where.startswith(m.rstrip("/") + "/") for m in governs[name]):
                unlisted.append(f"{name}: {where}")
    assert sorted(unlisted) == [], "add the module to the record's Modules (and the index's By module)"
