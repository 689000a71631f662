"""Every relative link in the Markdown docs points at a file of the checkout (a clone has them all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *ROOT.glob("docs/*.md"),
               *ROOT.glob("examples/*.md"), *ROOT.glob("benchmarks/*.md")])
_LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_relative_links_resolve_inside_the_checkout(doc: Path) -> None:
    broken = []
    for target in _LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        if not path.exists() or ROOT not in path.parents:
            broken.append(target)
    assert broken == []


def test_the_spec_is_in_the_repository() -> None:
    """Code and docs cite "SPEC n.m": the clauses they cite exist in docs/spec.md."""
    spec = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    clauses = set(re.findall(r"^(\d+\.\d+) ", spec, re.M)) | set(re.findall(r"^## (\d+)\.", spec, re.M))
    cited = set()
    for path in [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"]:
        cited |= set(re.findall(r"SPEC (\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    assert cited and cited <= clauses, sorted(cited - clauses)
