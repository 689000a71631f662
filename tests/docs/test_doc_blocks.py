"""Every fenced block of README.md, docs/*.md and examples/README.md, checked.

Sybil lexes the pages (``doc_blocks``); each block is one test, run in page
order by its own evaluator (``doc_checks``), so that selecting one block with
``-k`` still runs the blocks above it that it may continue.  The SPEC
(docs/spec.md) has no code block; the PEP draft is reStructuredText quoted as
it was published.
"""

from __future__ import annotations

import re
from pathlib import Path
from unittest import SkipTest

import pytest

pytest.importorskip("sybil", reason="sybil (the tests group) reads the docs' blocks")

from sybil import Document, Example, Sybil  # noqa: E402
from sybil.parsers.markdown import SkipParser  # noqa: E402

from doc_blocks import Block, DocBlockParser  # noqa: E402
from doc_checks import PAGES, REPO, Page, evaluate  # noqa: E402

pytestmark = pytest.mark.subprocess

PAGE_NAMES = ["README.md", "examples/README.md",
              *sorted(f"docs/{p.name}" for p in (REPO / "docs").glob("*.md") if p.name != "spec.md")]
SYBIL = Sybil(parsers=[DocBlockParser(evaluate), SkipParser()], path=str(REPO))
DOCUMENTS: dict[str, Document] = {name: SYBIL.parse(REPO / name) for name in PAGE_NAMES}
BLOCKS = [(name, index) for name, document in DOCUMENTS.items()
          for index, example in enumerate(document) if isinstance(example.parsed, Block)]


class PageRun:
    """A page's blocks evaluated in order, each once, up to the one a test asks for."""

    def __init__(self, document: Document) -> None:
        self.examples: list[Example] = list(document)
        self.outcomes: list[BaseException | None] = []

    def outcome(self, index: int) -> BaseException | None:
        while len(self.outcomes) <= index:
            try:
                self.examples[len(self.outcomes)].evaluate()
            except (Exception, SkipTest) as exc:  # noqa: B036 - kept for the block's own test
                self.outcomes.append(exc)
            else:
                self.outcomes.append(None)
        return self.outcomes[index]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageRun]:
    found = {}
    for name, document in DOCUMENTS.items():
        blocks = [example.parsed for example in document if isinstance(example.parsed, Block)]
        work = tmp_path_factory.mktemp(re.sub(r"\W", "_", name))
        PAGES[str(document.path)] = Page(Path(document.path), work, blocks)
        found[name] = PageRun(document)
    return found


def test_every_page_is_read() -> None:
    assert {name for name, _ in BLOCKS} >= {"README.md", "docs/mypy.md", "docs/flake8.md", "docs/recipes.md"}


@pytest.mark.parametrize(("page", "index"), BLOCKS,
                         ids=[f"{name}:{list(DOCUMENTS[name])[index].line}" for name, index in BLOCKS])
def test_block(page: str, index: int, runs: dict[str, PageRun]) -> None:
    outcome = runs[page].outcome(index)
    if isinstance(outcome, SkipTest):
        pytest.skip(str(outcome))
    if outcome is not None:
        raise outcome


def test_the_pep_draft_section_is_checked() -> None:
    """The draft's example and its three corrections are mypy's input, with its output shown for the draft."""
    blocks = [example.parsed for example in DOCUMENTS["docs/mypy.md"] if isinstance(example.parsed, Block)]
    assert {"draft.py", "imported.py", "corrected.py", "widened.py"} <= {b.name for b in blocks if b.kind == "checked"}
    assert {"rejected.py", "draft.py"} <= {b.name for b in blocks if b.kind == "mypy output"}
