"""parse5 (npm), the WHATWG HTML parser browsers' tooling uses, as the oracle of every HTML verdict.

Each text the HTML check reads (the template's strings with their placeholders, in the context
it picks) is given to parse5 as well (``language_corpus/parse5_oracle.mjs``): the text is at
fault for parse5 when its tokenizer reports an error, or its tree builder ignored a tag written
in the text, or left an element open that may not leave out its end tag.  The check must say
the same: some fault (TAG101-TAG105) or none, on the cases of test_languages_spec.py and on the
real templates of the installed packages (``language_snippets``).  Faults inside a placeholder
are the hole's, for both.  npm installs parse5 on first use into ``.cache/`` (skipped without npm).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Sequence

import pytest

from language_snippets import Snippet, html_snippets

PARSE5_VERSION = "8.1.1"
ORACLE = Path(__file__).resolve().parent / "language_corpus" / "parse5_oracle.mjs"
SYNTAX = frozenset(["html.end-tag", "html.unclosed", "html.duplicate-attribute", "html.syntax", "html.reference"])

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("html5lib") is None, reason="html5lib is not installed"),
    pytest.mark.subprocess,
]


@pytest.fixture(scope="session")
def parse5() -> Path:
    """A folder with parse5 installed and the oracle script beside it."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip("node and npm are needed for parse5")
    root = Path(__file__).resolve().parents[2]
    cache = Path(os.environ.get("TAGSTR_PARSE5_CACHE", root / ".cache" / f"parse5-{PARSE5_VERSION}"))
    if not (cache / "node_modules" / "parse5").exists():  # installed aside, then renamed (parallel runs)
        work = cache.with_name(f"{cache.name}.{os.getpid()}")
        work.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--no-package-lock", "--no-save", "--silent", f"parse5@{PARSE5_VERSION}"],
                       cwd=work, check=True, timeout=600)
        try:
            work.rename(cache)
        except OSError:
            shutil.rmtree(work, ignore_errors=True)
    # copied aside, then renamed: another worker (pytest -n, parallel tox envs) may be running it
    aside = cache / f"{ORACLE.name}.{os.getpid()}"
    shutil.copyfile(ORACLE, aside)
    os.replace(aside, cache / ORACLE.name)
    return cache


def parsed_text(strings: Sequence[str], exprs: Sequence[str]) -> tuple[str, str | None, Any]:
    """The text the HTML check reads, the fragment context it picks (None: a document), its Joined."""
    from tagstr_runtime.analysis.embedded import Slot
    from tagstr_runtime.analysis.embedded.html import _mode
    from tagstr_runtime.analysis.embedded.html_contexts import Placeholders
    from tagstr_runtime.analysis.embedded.joined import Joined

    strings = [s.replace("\r", " ") for s in strings]
    joined = Joined(strings, Placeholders(strings, [Slot(e) for e in exprs]).of)
    document, context = _mode(joined.text)
    return joined.text, None if document else context, joined


def oracle(folder: Path, cases: list[tuple[str, str | None]]) -> list[dict[str, list[Any]]]:
    run = subprocess.run(["node", str(folder / ORACLE.name)], input=json.dumps(cases), capture_output=True,
                         text=True, cwd=folder, check=True, timeout=300)
    verdicts: list[dict[str, list[Any]]] = json.loads(run.stdout)
    return verdicts


def parse5_faults(verdict: dict[str, list[Any]], joined: Any) -> list[str]:
    """parse5's faults outside the placeholders."""
    from tagstr_runtime.analysis.embedded.html_contexts import has_placeholder

    def named_by_a_hole(at: int) -> bool:  # a tag whose name holds a placeholder: the hole's
        name = re.match(r"</?([^\s/>]*)", joined.text[at:])
        return name is not None and has_placeholder(name.group(1))

    faults = [f"{code}@{at}" for code, at in verdict["tokenizer"] if joined.hole_at(at) is None]
    faults += [f"ignored tag@{at}" for at in verdict["ignored"] if not named_by_a_hole(at)]
    faults += [f"unclosed@{at}" for at in verdict["unclosed"] if not named_by_a_hole(at)]
    return faults


def our_faults(strings: Sequence[str], exprs: Sequence[str]) -> list[str]:
    from tagstr_runtime.analysis.embedded import Slot, check

    found = check("html", list(strings), [Slot(e) for e in exprs])
    return [f"{f.kind}@s{f.part}:{f.offset}" for f in found if f.kind in SYNTAX]


def compare(folder: Path, cases: list[tuple[str, list[str], list[str]]]) -> list[tuple[str, list[str], list[str]]]:
    """(name, ours, parse5's) of each case whose verdicts differ (some fault or none)."""
    texts = [parsed_text(strings, exprs) for _, strings, exprs in cases]
    verdicts = oracle(folder, [(text, context) for text, context, _ in texts])
    differ = []
    for (name, strings, exprs), (_, _, joined), verdict in zip(cases, texts, verdicts):
        ours, theirs = our_faults(strings, exprs), parse5_faults(verdict, joined)
        if bool(ours) != bool(theirs):
            differ.append((name, ours, theirs))
    return differ


def _spec_cases() -> list[tuple[str, list[str], list[str]]]:
    from test_languages_spec import CORRECT, REPORTED

    cases = []
    for param in [*CORRECT, *REPORTED]:
        language, strings = param.values[0], param.values[1]
        if language == "html":
            cases.append((str(param.id), list(strings), [f"h{i}" for i in range(len(strings) - 1)]))
    return cases


def test_the_spec_cases_agree_with_parse5(parse5: Path) -> None:
    assert compare(parse5, _spec_cases()) == []


def _corpus() -> list[Snippet]:
    snippets = html_snippets()
    if not snippets:
        pytest.skip("no package with HTML templates installed (Django, Sphinx, docutils)")
    return snippets


def test_real_templates_agree_with_parse5(parse5: Path) -> None:
    """Django's and Sphinx's templates and HTML literals, docutils' HTML writer: where the check
    finds a fault parse5 finds none (a false report) under 0.5% of them; where parse5 finds one
    the check finds one too."""
    snippets = _corpus()
    cases = [(s.origin, s.strings, s.exprs) for s in snippets]
    differ = compare(parse5, cases)
    false_reports = [d for d in differ if d[1]]
    missed = [d for d in differ if not d[1]]
    assert len(false_reports) / len(cases) < 0.005, false_reports
    assert missed == []
