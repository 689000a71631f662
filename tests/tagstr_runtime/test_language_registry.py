"""The language registry is the one table of a language: every other one is derived from it, and
each step of "Adding a language" (docs/languages.md) is checked here.

A language's checker, marker, extra, example file, finding kinds, codes and doc rows must all
be there for its one entry: leaving out any of them fails one of these tests.
"""

from __future__ import annotations

import ast
import importlib
import re
import string
import tomllib
from pathlib import Path

import pytest

from tagstr_runtime import languages as markers
from tagstr_runtime.analysis import embedded
from tagstr_runtime.analysis.embedded.declared import MARKERS
from tagstr_runtime.analysis.embedded.registry import CHECK_FAILED, REGISTRY, Language, reports

ROOT = Path(__file__).resolve().parents[2]
EMBEDDED = ROOT / "src" / "tagstr_runtime" / "analysis" / "embedded"
EXAMPLES = ROOT / "tests" / "tagstr_flake8" / "examples"
DOCS = ROOT / "docs"
ENTRIES = pytest.mark.parametrize("language", REGISTRY, ids=[language.name for language in REGISTRY])


def test_names_are_unique() -> None:
    names = [name for language in REGISTRY for name in language.names]
    assert len(names) == len(set(names))
    assert len({language.name for language in REGISTRY}) == len(REGISTRY)
    codes = {}
    for kind, report in reports().items():
        assert codes.setdefault(report.code, kind) == kind, f"{report.code} reports two kinds"


def test_the_derived_tables() -> None:
    assert dict(embedded.LANGUAGES) == {n: language.name for language in REGISTRY for n in language.names}
    assert dict(embedded.EXTRAS) == {language.name: language.extra for language in REGISTRY}
    assert embedded.TYPED == {language.name for language in REGISTRY if language.typed}
    assert MARKERS == {language.marker: language.name for language in REGISTRY}


@ENTRIES
def test_its_checker(language: Language) -> None:
    """``analysis/embedded/<name>.py`` with ``check`` (and ``requirements`` when its holes are typed)."""
    path = EMBEDDED / f"{language.name}.py"
    assert path.exists(), f"the checker of {language.name}: {path}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "check" in defined
    if language.typed:
        assert "requirements" in defined
    imported = {alias.name.partition(".")[0] for node in ast.walk(tree)
                if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])}
    assert set(language.parsers) <= imported | {"json", "tomllib"}, "the parsers named are the ones it imports"


@ENTRIES
def test_its_marker(language: Language) -> None:
    marker = getattr(markers, language.marker, None)
    assert marker is not None, f"tagstr_runtime.languages.{language.marker}"
    assert marker.tstring_language == language.name
    assert language.marker in markers.__all__


def test_every_marker_is_registered() -> None:
    declared = {name for name in markers.__all__ if hasattr(getattr(markers, name), "tstring_language")}
    assert declared == {language.marker for language in REGISTRY}


@ENTRIES
def test_its_extra(language: Language) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    if language.extra is None:  # the standard library's
        assert all(importlib.util.find_spec(module) for module in language.parsers)
        return
    assert language.extra in extras, f"[project.optional-dependencies] {language.extra}"
    bundled = {name for entry in extras["languages"] for name in re.findall(r"[\w-]+", entry.partition("[")[2])}
    assert language.extra in bundled, "the languages extra installs it"


@ENTRIES
def test_its_example_file(language: Language) -> None:
    """An example file declares it (its codes firing there: ``test_every_language_code_fires_in_the_examples``)."""
    spellings = "|".join(re.escape(name) for name in language.names)
    declared = re.compile(rf"""Annotated\[[^\]]*(?:["'](?:{spellings})["']|\b{language.marker}\b)""", re.I)
    assert any(declared.search(path.read_text(encoding="utf-8")) for path in EXAMPLES.glob("lang_*.py")), (
        f"no tests/tagstr_flake8/examples/lang_*.py declares {language.name}")


@ENTRIES
def test_its_docs(language: Language) -> None:
    """docs/languages.md: its parser in the table and a row per code; docs/error-codes.md: a row per code."""
    guide = (DOCS / "languages.md").read_text(encoding="utf-8")
    table = (DOCS / "error-codes.md").read_text(encoding="utf-8")
    assert re.search(rf"^\| {re.escape(language.marker)}\b|^\| [^|]*\b{re.escape(language.marker)}\b", guide,
                     re.M), f"languages.md's parser table names {language.marker}"
    for report in language.reports.values():
        assert f"| `{report.code}` |" in guide, f"languages.md has no row for {report.code}"
        assert re.search(rf"^\| `{report.code}` \| {'on' if report.on_by_default else 'off'} \|", table, re.M), (
            f"error-codes.md has no row for {report.code} ({'on' if report.on_by_default else 'off'})")


def test_every_kind_a_checker_reports_is_registered() -> None:
    """A misspelt kind in a checker is caught here (and, at run time, reported as TAG901)."""
    known = set(reports())
    written: set[str] = set()
    for path in EMBEDDED.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("finding", "at_hole") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                written.add(node.args[0].value)
    assert written and written <= known, sorted(written - known)
    assert CHECK_FAILED in known


def test_every_report_ends_with_its_fix() -> None:
    for kind, report in reports().items():
        fields = {name for _, name, _, _ in string.Formatter().parse(report.template) if name}
        assert "; " in report.template, kind
        if "fix" in fields and report.fix is None:  # then each finding of the kind names its fix
            assert kind in ("html.end-tag", "html.strict"), f"{kind}: a {{fix}} without a default"
