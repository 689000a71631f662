"""The analysis layer on example files with inline expectations (as flake8-bugbear's are).

Each file under ``examples/`` is plain Python with its expectations as
trailing comments, read by the analysis layer in-process (no subprocess):

- ``scopes*.py``: ``# bind: x=LABEL`` names a binding, ``# read: x=A|B`` the
  bindings the first read of ``x`` on its line refers to (``builtin``: none);
- ``resolve.py``, ``shop/``: ``# tag: ...`` what the tag string's name refers
  to and what is known of the tag, imports followed through the folder;
- ``sites.py``: ``# args <tag>: ...`` what the tag receives, ``# at <tag> <run>
  <index>: line:col_char:col_byte`` where a character of a run was written.

A ``_ge312`` suffix skips a file before Python 3.12 (newer syntax).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tagstr_runtime.analysis.tag_reading import reading as read_tag
from tagstr_runtime.frontend import (
    Hole, ModuleAnalysis, ModuleFinder, Run, Site, TagDefinition, TagResolver,
)

EXAMPLES = Path(__file__).resolve().parent / "examples"
_MARK = re.compile(r"#\s*(bind|read|tag|args|at)\b:?([^#]*)")


def runs_here(path: Path) -> bool:
    return not (path.stem.endswith("_ge312") and sys.version_info < (3, 12))


def marks(path: Path, kind: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each ``# kind ...`` comment of the file."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code, _, comment = line.partition("  #")
        if not comment:
            continue
        for mark in _MARK.finditer("#" + comment):
            if mark[1] == kind:
                found.append((number, mark[2].strip()))
    return found


def read(path: Path) -> ModuleAnalysis:
    return ModuleAnalysis.read(path.read_text(encoding="utf-8"), str(path), path=str(path))


def first_read(module: ModuleAnalysis, line: int, name: str) -> ast.Name:
    reads = [
        node for node in ast.walk(module.tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id == name and node.lineno == line
    ]
    assert reads, f"no read of {name!r} on line {line}"
    return min(reads, key=lambda node: node.col_offset)


# -- scopes ------------------------------------------------------------------------------

SCOPE_FILES = [p for p in sorted(EXAMPLES.glob("scopes*.py")) if runs_here(p)]


@pytest.mark.parametrize("path", SCOPE_FILES, ids=lambda p: p.stem)
def test_scopes(path: Path) -> None:
    module = read(path)
    labels: dict[str, tuple[int, str]] = {}
    for line, text in marks(path, "bind"):
        for item in text.split():
            name, _, label = item.partition("=")
            labels[label] = (line, name)
    checked = 0
    for line, text in marks(path, "read"):
        for item in text.split():
            name, _, expected = item.partition("=")
            wanted = set() if expected == "builtin" else {labels[label] for label in expected.split("|")}
            node = first_read(module, line, name)
            got = {(b.line, name) for b in module.scopes.bindings(node.lineno, node.col_offset)}
            assert got == wanted, f"line {line}: {name} -> {sorted(got)}, expected {expected}"
            checked += 1
    assert checked


# -- the tag resolver ---------------------------------------------------------------------


def describe(definition: TagDefinition, resolver: TagResolver) -> str:
    if definition.kind == "module":
        return definition.kind
    words = [definition.kind]
    if definition.known:
        words.append(getattr(definition.node, "name", type(definition.node).__name__.lower()))
    if definition.accepts_template:
        words.append("template")
    reading = read_tag(definition, resolver)
    if reading.unproven is not None:
        words.append("lazy" if reading.unproven.kind == "lazy" else "unproven")
    if reading.reads_raw:
        words.append("raw")
    if definition.is_tag_function:
        words.append("tag-function")
    if definition.dotted:
        words.append(f"from {definition.dotted}")
    if definition.steps:
        words.append("via " + ",".join(step.kind for step in definition.steps))
    return " ".join(words)


def sites_on(module: ModuleAnalysis, line: int) -> list[Site]:
    """The sites whose tag string spans ``line``, in source order."""
    return [site for site in module.sites if site.at[0] <= line <= site.at[2]]


@pytest.mark.parametrize("name", ["resolve.py", "shop/views.py"])
def test_tag_definitions(name: str) -> None:
    path = EXAMPLES / name
    finder = ModuleFinder()
    module = finder.read(path)
    assert module is not None
    resolver = TagResolver(finder)
    expectations = marks(path, "tag")
    assert expectations
    for line, expected in expectations:
        site, *_ = sites_on(module, line)
        assert describe(resolver.resolve(module, site.name), resolver) == expected, f"line {line}"


def test_without_a_finder_imports_are_unknown() -> None:
    module = read(EXAMPLES / "resolve.py")
    resolver = TagResolver()
    found = {site.tag.tag: resolver.resolve(module, site.name) for site in module.sites}
    assert found["html"].kind == "unknown" and "not in the tree" in found["html"].reason
    assert describe(found["shout"], resolver) == "function shout lazy tag-function"


def test_qualified_names() -> None:
    finder = ModuleFinder([EXAMPLES])
    module = finder.read(EXAMPLES / "resolve.py")
    assert module is not None and module.name == "resolve"
    found = {site.tag.tag: TagResolver(finder).resolve(module, site.name) for site in module.sites}
    assert found["html"].qualname == "shop.tags.html"
    assert found["shout"].qualname == "resolve.shout"
    assert found["greet"].qualname is None  # defined in a function


# -- sites ------------------------------------------------------------------------------


def render(args: tuple[Run | Hole, ...]) -> str:
    out = []
    for arg in args:
        if isinstance(arg, Run):
            out.append(repr(arg.cooked))
            continue
        conv = f"!{arg.field.effective_conv}" if arg.field.effective_conv else ""
        spec = f":{render(arg.spec)}" if arg.spec is not None else ""
        out.append(f"{{{arg.text}{conv}{spec}}}")
    return " ".join(out)


def test_sites() -> None:
    path = EXAMPLES / "sites.py"
    module = read(path)
    for line, text in marks(path, "args"):
        tag, _, expected = text.partition(":")
        site = next(s for s in sites_on(module, line) if s.tag.tag == tag)
        assert render(site.args) == expected.strip(), f"line {line}"
    positions = marks(path, "at")
    assert positions
    for line, text in positions:
        where, _, expected = text.partition(":")
        tag, run, index = where.split()
        site = next(s for s in sites_on(module, line) if s.tag.tag == tag)
        offset = site.runs[int(run)].source_offset(int(index))
        assert ":".join(map(str, site.pos(offset))) == expected.strip(), f"line {line}: {text}"
