"""The example files, run through real flake8 with the plugin: codes and columns as annotated.

Each ``examples/*.py`` carries its expected diagnostics as trailing
``# CODE:col`` comments (every plugin's codes: F, E, W, B, C and TAG); no
comment, no diagnostic, so anything spurious fails.  A first line
``# OPTIONS: ...`` gives the file its own flake8 options; a ``_lt314`` suffix
skips the file on Python 3.14+ (there ``t"..."`` is a t-string), a ``_ge312``
suffix before 3.12 (newer syntax).  Files are batched: one flake8 process per
distinct set of options.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from tagstr_flake8 import OFF_BY_DEFAULT

from flake8_harness import EXAMPLES, Hit, example_files, expectations, flake8, name_of, options

pytestmark = pytest.mark.subprocess

try:
    import bugbear  # noqa: F401
except ImportError:  # pragma: no cover
    HAVE_BUGBEAR = False
else:
    HAVE_BUGBEAR = True

FILES = example_files()


def by_file(hits: list[Hit]) -> dict[str, set[tuple[int, int, str]]]:
    found: dict[str, set[tuple[int, int, str]]] = defaultdict(set)
    for hit in hits:
        found[hit.path.removeprefix("./")].add((hit.row, hit.col, hit.code))
    return dict(found)


@cache
def results(group: tuple[str, ...], mode: str = "files") -> dict[str, set[tuple[int, int, str]]]:
    """flake8's hits for every example of an options group, per file name."""
    files = [p for p in FILES if tuple(options(p)) == group]
    args = [*group]
    if mode == "jobs":
        args += ["--jobs=2"]
    run = flake8([*args, *map(name_of, files)], cwd=EXAMPLES)
    return by_file(run.hits)


def expected(path: Path) -> set[tuple[int, int, str]]:
    wanted = expectations(path)
    if not HAVE_BUGBEAR:  # pragma: no cover
        wanted = {w for w in wanted if not w[2].startswith("B")}
    return wanted


@pytest.mark.parametrize("path", FILES, ids=lambda p: name_of(p).removesuffix(".py"))
def test_example(path: Path) -> None:
    assert results(tuple(options(path))).get(name_of(path), set()) == expected(path)


OFF_FILES = [p for p in FILES if any(code in " ".join(options(p)) for code in OFF_BY_DEFAULT)]


@pytest.mark.parametrize("path", OFF_FILES, ids=lambda p: p.stem)
def test_off_by_default(path: Path) -> None:
    """Without its options, a file of an off-by-default rule reports none of those codes."""
    plain = flake8_plain(path)
    assert not {hit for hit in plain if hit[2] in OFF_BY_DEFAULT}
    assert {w for w in expected(path) if w[2] not in OFF_BY_DEFAULT} <= plain


@cache
def _plain_all() -> dict[str, set[tuple[int, int, str]]]:
    run = flake8([name_of(p) for p in OFF_FILES], cwd=EXAMPLES)
    return by_file(run.hits)


def flake8_plain(path: Path) -> set[tuple[int, int, str]]:
    return _plain_all().get(name_of(path), set())


def test_jobs_2_same_as_serial() -> None:
    """``--jobs 2`` (forked workers import the plugin too) gives the same results."""
    assert results((), "jobs") == results(())


def test_spawned_workers() -> None:
    """Workers started with ``spawn`` import the plugin themselves (as on macOS and Windows)."""
    files = [name_of(p) for p in FILES if not options(p)]
    code = (
        "import multiprocessing as mp, sys\n"
        "mp.set_start_method('spawn')\n"
        "from flake8.main.cli import main\n"
        "main(sys.argv[1:])\n"
    )
    run = flake8(["--jobs=2", *files], cwd=EXAMPLES, python=[sys.executable, "-c", code])
    assert by_file(run.hits) == results(())


@pytest.mark.parametrize("name", ["nonascii.py", "noqa.py", "pycodestyle_checks.py", "basics.py"])
def test_stdin(name: str) -> None:
    """``flake8 - --stdin-display-name F`` works on the lines given, never the file on disk."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    # run where the file does not exist: nothing can be read from disk
    run = flake8(["-", f"--stdin-display-name={name}"], stdin=text, cwd=EXAMPLES.parent)
    assert {hit.path for hit in run.hits} <= {name}
    assert {(h.row, h.col, h.code) for h in run.hits} == expected(EXAMPLES / name)


def test_expectations_are_read() -> None:
    """The harness itself: every example that should report something has expectations."""
    assert expectations(EXAMPLES / "basics.py") >= {(3, 1, "F401"), (10, 5, "F841")}
    assert (6, 23, "W291") not in expectations(EXAMPLES / "pycodestyle_checks.py")
    assert all(expected(p) for p in FILES if p.stem.startswith("tag0") and "shadowed" not in p.stem)


def test_select_ignore_per_file_ignores() -> None:
    """flake8's own selection applies to TAG codes and to the codes found inside tag strings."""
    run = flake8(
        ["--select=TAG,F821", "--extend-select=TAG006", "--ignore=TAG001",
         "--per-file-ignores=tag005.py:TAG005", "tag001_lt314.py", "tag005.py", "tag006.py", "basics.py"],
        cwd=EXAMPLES,
    )
    got = by_file(run.hits)
    assert "tag001_lt314.py" not in got  # TAG001 ignored, nothing else there
    assert {code for *_, code in got["tag005.py"]} == {"F821"}
    assert {code for *_, code in got["tag006.py"]} == {"TAG006"}
    assert {code for *_, code in got["basics.py"]} == {"F821"}


_WITHOUT_LIBCST = (
    "import sys\n"
    "class NoLibcst:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.partition('.')[0] == 'libcst':\n"
    "            raise ImportError('libcst is not installed')\n"
    "sys.meta_path.insert(0, NoLibcst())\n"
    "from flake8.main.cli import main\n"
    "main(sys.argv[1:])\n"
)


def test_scope_rules_without_libcst() -> None:
    """TAG005, TAG006 and TAG009 resolve names on the lint tree: no libcst needed."""
    names = ["tag005.py", "tag006.py", "tag009.py", "scopes.py"]
    run = flake8(
        ["--extend-select=TAG005,TAG006,TAG009", *names], cwd=EXAMPLES, python=[sys.executable, "-c", _WITHOUT_LIBCST]
    )
    codes = {"TAG005", "TAG006", "TAG009"}
    got = {name: {hit for hit in hits if hit[2] in codes} for name, hits in by_file(run.hits).items()}
    assert got == {name: {w for w in expected(EXAMPLES / name) if w[2] in codes} for name in names}
