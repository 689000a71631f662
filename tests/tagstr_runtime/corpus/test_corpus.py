"""The running Python's standard library holds no tag string (SPEC 1.8, 1.3).

Every ``.py`` file of the stdlib that compiles as standard Python must parse
with ``tag_strings == ()``, without an exception and without the scanner
stopping early (``complete``).  This is what makes the zero-cost fast path of
``tagstr_runtime.compile`` (try the builtin first) and of the import hook safe,
and it exercises the lexer on ~1700 real files: every string prefix, keywords
glued to strings, PEP 701 f-strings (``test_fstring.py``), match statements,
odd encodings.  Files that do not compile (bad-syntax test data, Python 2 files)
are skipped.

Budget: the files are taken in a fixed order (a few lexically interesting ones
first, then every Nth file of the sorted list) and checking stops after a time
budget.  ``HYPOTHESIS_PROFILE=thorough`` checks every file without a budget,
``quick`` (the quick run, ``pytest --quick``) the interesting files and a few
others for 3 s; ``TAGSTR_CORPUS_STRIDE`` / ``TAGSTR_CORPUS_BUDGET`` (seconds,
0 = none) override.
"""

from __future__ import annotations

import os
import sysconfig
import time
import warnings
from pathlib import Path

import pytest

from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.syntax.source import decode_source

pytestmark = [pytest.mark.slow, pytest.mark.budget]  # ~20 s: a time budget over the stdlib

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
STRIDE = int(os.environ.get("TAGSTR_CORPUS_STRIDE", {"thorough": "1", "quick": "40"}.get(PROFILE, "3")))
BUDGET = float(os.environ.get("TAGSTR_CORPUS_BUDGET", {"thorough": "0", "quick": "3"}.get(PROFILE, "20")))

STDLIB = Path(sysconfig.get_paths()["stdlib"])

# Checked first, whatever the stride: the stdlib files that stress a lexer most.
INTERESTING = (
    "test/test_fstring.py",
    "test/test_grammar.py",
    "test/test_string_literals.py",
    "test/test_tokenize.py",
    "test/test_syntax.py",
    "test/test_patma.py",
    "test/test_unicode_identifiers.py",
    "test/test_utf8source.py",
    "test/test_source_encoding.py",
    "test/test_type_params.py",
    "test/test_tstring.py",
    "test/test_ast.py",
    "test/test_ast/test_ast.py",
    "tokenize.py",
    "string.py",
    "re/_parser.py",
    "ast.py",
)


def corpus() -> list[Path]:
    """The files to check, in checking order."""
    files: list[Path] = []
    for directory, subdirs, names in os.walk(STDLIB):
        subdirs[:] = sorted(d for d in subdirs if d not in ("site-packages", "dist-packages", "__pycache__"))
        files.extend(Path(directory, name) for name in sorted(names) if name.endswith(".py"))
    first = [STDLIB / rel for rel in INTERESTING if (STDLIB / rel).is_file()]
    chosen = set(first)
    rest = [f for f in files[:: max(STRIDE, 1)] if f not in chosen]
    return first + rest


def compiles(data: bytes, path: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError):  # UnicodeDecodeError is a ValueError
        return False
    return True


def check_file(path: Path) -> str | None:
    """What is wrong with the parse of one standard file, or None."""
    data = path.read_bytes()
    if not compiles(data, path):
        return "skip"
    text = decode_source(data)
    try:
        result = parse(text, str(path))
    except Exception as exc:  # noqa: BLE001 - any exception is the failure reported
        return f"raised {type(exc).__name__}: {exc}"
    if result.tag_strings:
        tag = result.tag_strings[0]
        line = text.count("\n", 0, tag.span.start) + 1
        snippet = text[tag.span.start : min(tag.span.end, tag.span.start + 60)]
        return f"tag string at line {line}: {snippet!r} ({len(result.tag_strings)} in all)"
    if not result.complete:
        return "scanning stopped early on valid code"
    return None


def test_stdlib_has_no_tag_strings() -> None:
    files = corpus()
    if not files:
        pytest.skip(f"no .py files under {STDLIB}")
    started = time.perf_counter()
    checked = skipped = 0
    failures: list[str] = []
    for path in files:
        if BUDGET and time.perf_counter() - started > BUDGET:
            break
        problem = check_file(path)
        if problem == "skip":
            skipped += 1
            continue
        checked += 1
        if problem is not None:
            failures.append(f"{path.relative_to(STDLIB)}: {problem}")
    elapsed = time.perf_counter() - started
    print(
        f"\nstdlib corpus: {checked} files checked, {skipped} not standard Python, "
        f"{len(files) - checked - skipped} left for lack of time, stride {STRIDE}, {elapsed:.1f}s"
    )
    assert not failures, "\n".join(failures)
    assert checked >= min(20, len(files) - skipped)


@pytest.mark.parametrize(
    "src",
    [
        # what 1.8 relies on, in miniature: the lexer knows these are standard
        "x = f'{1+2 = # my comment\n  }'\n",
        "x = f'{x!r # comment\n}'\n",
        "x = f'{d[\"k\"]:{w}}'\n",
        "return_ = [x for x in'abc'if'a'in'b']\n",
        "match'x':\n    case'y' if not'z': pass\n",
    ],
)
def test_valid_snippets_have_no_tag_strings(src: str) -> None:
    if not compiles(src.encode(), Path("<snippet>")):
        pytest.skip("not valid on this Python")
    result = parse(src)
    assert result.tag_strings == ()
    assert result.complete
