"""The migration on multi-module programs: the same output after it, or a refusal.

Each program of ``migrate_projects/`` is migrated with default flags, then run
before (tag strings) and after (t-strings: natively on 3.14, the pyodide env)
in this process (``migrate_programs``).  The command must report exactly the
reasons its ``# expect:`` comments announce, keep exactly those tag strings,
leave a module with a prefix-named tag as it is, and say so in its exit
status; the program must then print the same, unless a refusal says it cannot.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from migrate_programs import (
    PY314, compile_after, compile_before, expectations, reported, run_program, stand_ins, tag_string_lines,
)

from tagstr_runtime.migrate import main

PROJECTS = Path(__file__).resolve().parent / "migrate_projects"
NAMES = sorted(p.name for p in PROJECTS.iterdir() if (p / "app" / "main.py").is_file())
#: the reason that refuses a whole module: a tag named like a string prefix
PREFIX_NAMED = "MIG012"
#: the programs that cannot print the same on 3.14, whatever the migration does: a tag named t
CHANGED_BY_314 = {"tnamed"}


class Program:
    def __init__(self, name: str, tmp_path: Path) -> None:
        self.name = name
        self.root = tmp_path / name
        shutil.copytree(PROJECTS / name, self.root)
        self.app = self.root / "app"
        self.main = self.app / "main.py"
        self.roots = [self.app, *[p for p in [self.root / "vendor"] if p.is_dir()]]
        self.expected = expectations(self.app)

    def run(self, after: bool) -> str:
        if after:
            return run_program(self.main, self.roots, compile_after, stand_ins())
        return run_program(self.main, self.roots, compile_before, {})

    def refused_files(self) -> set[Path]:
        return {e.path for e in self.expected if e.code == PREFIX_NAMED}


@pytest.fixture(params=NAMES)
def program(request: pytest.FixtureRequest, tmp_path: Path) -> Program:
    return Program(request.param, tmp_path)


def test_there_are_programs() -> None:
    assert NAMES == ["storefront", "tnamed"]


def test_the_command_reports_exactly_the_expected_reasons(
    program: Program, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--check", str(program.app)])
    out, err = capsys.readouterr()
    assert reported(out + err) == program.expected, out + err
    assert status == 1


def test_the_program_prints_the_same_or_the_migration_refuses(
    program: Program, capsys: pytest.CaptureFixture[str]
) -> None:
    before = program.run(after=False)
    assert before.count("\n") >= 3
    sources = {p: p.read_text(encoding="utf-8") for p in program.app.rglob("*.py")}
    assert main([str(program.app)]) == 0
    capsys.readouterr()
    kept_lines = {(e.path, e.line) for e in program.expected}
    for path, text in sources.items():
        new = path.read_text(encoding="utf-8")
        if path.resolve() in program.refused_files():
            assert new == text, f"{path} has a prefix-named tag: it must be left as it is"
            continue
        left = {(path.resolve(), line) for line in tag_string_lines(new)}
        assert left <= kept_lines, f"{path}: tag strings kept without a reason: {sorted(left - kept_lines)}"
    # what was kept is reported again, and fails a check
    assert main(["--check", str(program.app)]) == 1
    out, err = capsys.readouterr()
    assert reported(out + err) == program.expected
    if program.name in CHANGED_BY_314:
        assert program.refused_files()
        if PY314:  # as it is, the program does something else on 3.14: hence the refusal
            with pytest.raises(TypeError, match="Template"):  # str + Template
                program.run(after=True)
        return
    assert program.run(after=True).splitlines() == before.splitlines()
