"""``python -m tagstr_mypy.stubgen``: stubs that let plain importers (pyright, Pylance) type-check."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

STUB = Path("typings/pkg/tags.pyi")  # pyright's default stubPath

TAGS = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation
    from pkg.markup import Markup


    def html(*args: Decoded | Interpolation) -> Markup:
        return Markup("")


    def words(*args: Decoded | Interpolation) -> list[str]:
        return []


    name = "x"
    greeting = html"Hello {name}"
    parts = words"a {name} b"
    maybe = html"{name}" if name else None


    def greet(who: str) -> Markup:
        return html"Hi {who}"


    class Page:
        heading = html"<h1>{name}</h1>"

        def render(self) -> Markup:
            return html"<p>{self.heading}</p>"
''')


def stubgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tagstr_mypy.stubgen", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "markup.py").write_text("class Markup(str):\n    pass\n", encoding="utf-8")
    (pkg / "tags.py").write_text(TAGS, encoding="utf-8")
    return tmp_path


def test_stub_has_the_tags_return_types(project: Path) -> None:
    proc = stubgen("pkg", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"wrote {STUB}\n", proc.stdout
    assert sorted(p.name for p in (project / "typings" / "pkg").iterdir()) == ["tags.pyi"]  # plain: none
    assert not list((project / "pkg").glob("*.pyi"))  # beside the module, mypy would read the stub
    stub = (project / STUB).read_text(encoding="utf-8").splitlines()
    for line in ("import pkg.markup", "def html(*args: Decoded | Interpolation) -> Markup: ...",
                 "greeting: pkg.markup.Markup", "parts: list[str]", "maybe: pkg.markup.Markup | None",
                 "def greet(who: str) -> Markup: ...", "class Page:", "    heading: pkg.markup.Markup",
                 "    def render(self) -> Markup: ..."):
        assert line in stub, stub
    assert "Incomplete" not in "\n".join(stub)


def test_check_mode_and_what_is_left_alone(project: Path) -> None:
    assert stubgen("--check", "pkg", cwd=project).returncode == 1  # missing
    assert stubgen("pkg", cwd=project).returncode == 0
    fresh = stubgen("--check", "pkg", cwd=project)
    assert (fresh.returncode, fresh.stdout) == (0, ""), fresh
    tags = project / "pkg" / "tags.py"
    tags.write_text(tags.read_text(encoding="utf-8") + 'late = words"{name}"\n', encoding="utf-8")
    stale = stubgen("--check", "pkg", cwd=project)
    assert (stale.returncode, stale.stdout) == (1, f"would update {STUB}\n"), stale
    # a hand-written stub is the user's; a generated one whose module lost its tag strings goes
    (project / "typings" / "pkg" / "markup.pyi").write_text("class Markup(str): ...\n", encoding="utf-8")
    tags.write_text("greeting = 'plain'\n", encoding="utf-8")
    assert stubgen("pkg", cwd=project).stdout == f"deleted {STUB}\n"
    assert (project / "typings" / "pkg" / "markup.pyi").read_text(encoding="utf-8") == (
        "class Markup(str): ...\n"
    )


def test_malformed_tag_string_is_reported_at_its_position(project: Path) -> None:
    (project / "pkg" / "broken.py").write_text('x = 1\ny = html"{x"\n', encoding="utf-8")
    proc = stubgen("pkg", cwd=project)
    assert proc.returncode == 1
    assert f"{Path('pkg/broken.py')}:2:12: TagSyntaxError: tag string: expecting '}}'" in proc.stderr, proc.stderr
    assert (project / STUB).exists()  # the other modules still get theirs


@pytest.mark.slow
def test_pyright_on_plain_importers(project: Path, pyright: list[str]) -> None:
    (project / "use.py").write_text(textwrap.dedent('''\
        from pkg.tags import Page, greet, greeting, parts

        shout: str = greeting.upper() + greet("a").upper() + Page().render().upper()
        first: str = parts[0]
        broken = greeting + 1
    '''), encoding="utf-8")
    (project / "pyrightconfig.json").write_text(
        json.dumps({"ignore": ["pkg/tags.py"], "pythonVersion": "3.11"}), encoding="utf-8"
    )
    command = [*pyright, "--outputjson", "--pythonpath", sys.executable]

    def errors() -> list[tuple[int, int, str]]:
        proc = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300)
        report = json.loads(proc.stdout)
        return sorted((d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["rule"])
                      for d in report["generalDiagnostics"] if d["severity"] == "error")

    without = errors()
    assert (3, 23, "reportFunctionMemberAccess") in without, without  # what users meet today
    assert stubgen("pkg", cwd=project).returncode == 0
    assert errors() == [(5, 10, "reportOperatorIssue")]  # only the real mistake, where it is
