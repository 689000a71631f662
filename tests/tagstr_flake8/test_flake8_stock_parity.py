"""A file without tag strings gets stock flake8's output, byte for byte (issue 11, item 2).

Differential: the same flake8 run twice over the same files, once with the
plugin and once with its entry point left out of plugin discovery
(``flake8_harness.STOCK``), and the two outputs compared whole (with
``--show-source``, so the caret's column too).  The files: broken f-strings
(``tests/fstring_typos.py``: the typos made while typing, the ones the
running Python rejects), a sample of the stdlib as it is, and the same sample
cut off inside its first f-string field (a module in the middle of an edit).
Also: an error before a malformed tag string is the one reported (item 3),
exactly as stock flake8 reports it.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from flake8_harness import STOCK, Run, flake8
from fstring_typos import rejected, typo_sources

pytestmark = pytest.mark.subprocess

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def both(args: list[str], cwd: Path) -> tuple[Run, Run]:
    return flake8(args, cwd=cwd), flake8(args, cwd=cwd, python=STOCK)


def assert_same(ours: Run, stock: Run) -> None:
    assert ours.stdout == stock.stdout
    assert ours.returncode == stock.returncode


def test_broken_fstrings_get_stock_output(tmp_path: Path) -> None:
    sources = [s for s in typo_sources() if rejected(s)]
    assert len(sources) > 1000
    for index, source in enumerate(sources):
        (tmp_path / f"typo{index:04d}.py").write_text(source, encoding="utf-8")
    ours, stock = both(["--show-source", "--jobs=1", "."], tmp_path)
    assert stock.stdout.count("E999") == len(sources)
    assert_same(ours, stock)


def stdlib_sample() -> list[Path]:
    """About thirty top-level stdlib modules of a few kilobytes, in a fixed order."""
    files = sorted(p for p in STDLIB.glob("*.py") if 2_000 < p.stat().st_size < 12_000)
    return files[:: max(len(files) // 30, 1)]


def cut_in_first_field(text: str) -> str | None:
    """``text`` up to the first ``{`` of its first f-string, or None without one."""
    for marker in ('f"', "f'"):
        at = text.find(marker + "{")
        if at < 0:
            at = text.find(marker)
        if at >= 0:
            brace = text.find("{", at)
            newline = text.find("\n", at)
            if 0 <= brace < newline:
                return text[: brace + 1] + "\n"
    return None


def test_stdlib_sample_gets_stock_output(tmp_path: Path) -> None:
    sample = stdlib_sample()
    cut = 0
    for path in sample:
        text = path.read_text(encoding="utf-8")
        (tmp_path / path.name).write_text(text, encoding="utf-8")
        broken = cut_in_first_field(text)
        if broken is not None:
            (tmp_path / f"cut_{path.name}").write_text(broken, encoding="utf-8")
            cut += 1
    assert len(sample) >= 25 and cut >= 5
    ours, stock = both(["--show-source", "--jobs=1", "."], tmp_path)
    assert stock.stdout.count("E999") == cut
    assert_same(ours, stock)


# An error before a malformed tag string (item 3): CPython, stock flake8 and the
# plugin on the file without that tag string report the first; so must the plugin.
EARLIER = {
    "def": "def f(:\n    pass\n",
    "missing-comma": "x = (1 2)\n",
    "if-colon": "if x\n    pass\n",
    "same-line": "print(1 2, ",
    "indent": "x = 1\n    y = 2\n",
    "fstring": 'y = f"{a!x}"\n',
    "in-a-tag-string": 'y = html"{a b}"\n',
}
MALFORMED = {
    "brace": 'z = html"{"\n',
    "conversion": 'z = html"{a!x}"\n',
    "single-close": 'z = html"a}"\n',
    "unterminated": 'z = html"abc\n',
    "unterminated-triple": 'z = html"""abc\n',
    "keyword": 'z = None"x"\n',
    "concatenation": 'z = html"a" "b"\n',
}


def test_an_earlier_error_is_reported_as_without_the_tag_string(tmp_path: Path) -> None:
    """The same E999 as for the file with a well-formed line there, even where
    CPython's tokenizer would report an unterminated string first: the rule is
    the first error in source order.  (No ``--show-source``: flake8 shows no
    line when it cannot tokenize a file, as with an unterminated string.)"""
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    names = []
    for first, before in EARLIER.items():
        for second, tag_line in MALFORMED.items():
            if first == "fstring" and second.startswith("unterminated"):
                continue  # see test_after_a_broken_fstring_cpython_reads_the_source_as_written
            name = f"{first}_{second}.py"
            (tmp_path / "with" / name).write_text(f"{before}\n\n{tag_line}w = 2\n", encoding="utf-8")
            (tmp_path / "without" / name).write_text(f"{before}\n\nz = 1\nw = 2\n", encoding="utf-8")
            names.append(name)
    ours = flake8(["--select=E999", *names], cwd=tmp_path / "with")
    twin = flake8(["--select=E999", *names], cwd=tmp_path / "without")
    assert len(twin.hits) == len(names)
    assert_same(ours, twin)
    plain = [n for n in names if not n.startswith("in-a-tag-string")]
    stock = flake8(["--select=E999", *plain], cwd=tmp_path / "without", python=STOCK)
    assert [h for h in ours.hits if h.path in plain] == stock.hits


def test_a_malformed_tag_string_before_an_error_is_the_one_reported(tmp_path: Path) -> None:
    """The other way round: the tag string's error, also after a well-formed one."""
    (tmp_path / "a.py").write_text('z = html"{a!x}"\n\n\ndef f(:\n    pass\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('z = html"{a}"\nw = html"{"\ndef f(:\n', encoding="utf-8")
    (tmp_path / "c.py").write_text('def f(:\n    pass\nz = (html"{a}"\n     html"{")\n', encoding="utf-8")
    run = flake8(["--select=E999", "a.py", "b.py", "c.py"], cwd=tmp_path)
    assert [(h.path, h.row, h.col, h.text) for h in run.hits] == [
        ("a.py", 1, 13, "SyntaxError: tag string: invalid conversion character 'x': expected 's', 'r', or 'a'"),
        ("b.py", 2, 11, "SyntaxError: tag string: expecting '}'"),
        ("c.py", 1, 8, "SyntaxError: invalid syntax"),
    ]
