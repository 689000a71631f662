"""The coverage.py plugin, through real coverage and pytest-cov in subprocesses.

The sample package has a module with tag strings (``tags.py``) and its
f-string twin (``twin.py``: the same lines, each tag string an f-string), and
both are run the same way.  The twin is the baseline: every figure coverage
gives for the tag-string module (statements, missing and excluded lines,
branches and partial branches, in each report format) must be the twin's,
including where an interpolation is lazy and its ``getvalue`` is never
called (docs/decisions/0047-coverage-baseline-is-the-f-string-twin.md).  Expected lines are marked in the
source (``# missed``) rather than numbered here.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("coverage")

pytestmark = pytest.mark.subprocess

import tagstr_runtime  # noqa: E402
from clean_python import clean_env, run_python  # noqa: E402

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]

TAGDEFS = '''\
"""Two tags: one reads each interpolation, one keeps them for later."""


def html(*args):
    return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)


def lazy(*args):
    return args
'''

TAGS = '''\
"""Pages built with tag strings; twin.py is this module with f-strings."""
from sample.tagdefs import html, lazy

G = 1


def greet(name, polite):
    if polite:
        return html"<p>Dear {name}</p>"
    return html"<p>Hi {name}</p>"  # missed: polite is always true


def page(items):
    if items is None:  # pragma: no cover
        raise ValueError(html"no {items!r}")
    rows = [html"<li>{item}</li>" for item in items]
    body = lazy"""<ul>{
        "".join(rows)
    }</ul>"""  # lazy: the tag never calls getvalue
    return body


def unused(x):  # pragma: no cover
    return html"<b>{x}</b>"


def missed(x):
    return html"<i>{x.upper()}</i>"  # missed: never called


def missed_global():
    return html"<i>{G}</i>"  # missed: never called, its interpolation is built at import


class Card:
    title = html"<h1>{'card'}</h1>"

    def render(self, flag):
        while flag:
            flag -= 1
            if flag > 5:
                break  # missed: the flag is small
        return html"{self.title}{html'<em>{flag}</em>'}"
'''

# Line 1 opens a loop: a hoisted interpolation's lambda (made on line 1) must not
# show the loop's branches as taken when it runs.
TOP = '''\
while True:
    from sample.tagdefs import html
    if html"{len}":  # partial: it always breaks
        break
'''

DRIVE = """\
import tagstr_runtime

tagstr_runtime.install()

from sample import tags, twin, top, top_twin

for module in (tags, twin):
    module.greet("Ann", True)
    module.page(["a", "b"])
    module.Card().render(2)
"""
TWINS = {"sample/tags.py": "sample/twin.py", "sample/top.py": "sample/top_twin.py"}

RC_PLUGIN = "[run]\nplugins = tagstr_runtime.coverage_plugin\nsource = sample\n"
RC_PLAIN = "[run]\nsource = sample\n"


def twin_of(source: str) -> str:
    """The same module with f-strings: each tag name before a quote becomes ``f``."""
    return re.sub(r"\b(?:html|lazy)(?=['\"])", "f", source)


def lines_marked(source: str, marker: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if marker in line]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run(cwd: Path, *args: str, check: bool = True, **env_vars: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with this checkout's runtime and no coverage variables of an outer run."""
    done = run_python(*args, cwd=cwd, env=clean_env("COVERAGE_", "PYTEST_", keep=("TAGSTR_",), **env_vars),
                      timeout=120)
    if check and done.returncode != 0:
        pytest.fail(f"{args} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


def sample(root: Path, rc: str | None = RC_PLUGIN) -> Path:
    """The sample package; ``rc``: the ``.coveragerc`` (``None``: configured elsewhere)."""
    write(root, {
        "sample/__init__.py": "",
        "sample/tagdefs.py": TAGDEFS,
        "sample/tags.py": TAGS,
        "sample/twin.py": twin_of(TAGS),
        "sample/top.py": TOP,
        "sample/top_twin.py": twin_of(TOP),
        "drive.py": DRIVE,
    })
    return root if rc is None else write(root, {".coveragerc": rc})


@pytest.fixture(scope="module", params=["line", "branch"])
def measured(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The sample project after one ``coverage run`` in each mode."""
    root = sample(tmp_path_factory.mktemp(f"cov-{request.param}"))
    mode = ["--branch"] if request.param == "branch" else []
    run(root, "-m", "coverage", "run", *mode, "drive.py")
    return root, request.param


@functools.cache
def json_files(root: Path) -> dict[str, dict[str, object]]:
    """The JSON report's files (one report per measured project)."""
    run(root, "-m", "coverage", "json", "-q", "-o", "coverage.json")
    files: dict[str, dict[str, object]] = json.loads((root / "coverage.json").read_text())["files"]
    return files


# -- the tag-string module is its twin, in every report --------------------------------


def test_json_figures_are_the_twins(measured: tuple[Path, str]) -> None:
    root, mode = measured
    files = json_files(root)
    for module, twin in TWINS.items():
        assert files[module] == files[twin], module  # statements, lines, branches, per function and class
    summary = files["sample/tags.py"]["summary"]
    assert isinstance(summary, dict) and summary["num_statements"] > 15
    if mode == "branch":
        assert summary["num_partial_branches"] == 2
        partial = [arc[0] for arc in files["sample/top.py"]["missing_branches"]]  # type: ignore[attr-defined]
        assert partial == lines_marked(TOP, "# partial")


def test_missed_lines_are_reported_where_they_are(measured: tuple[Path, str]) -> None:
    root, _ = measured
    tags = json_files(root)["sample/tags.py"]
    assert tags["missing_lines"] == lines_marked(TAGS, "# missed")


def test_pragma_no_cover_excludes_lines_and_blocks(measured: tuple[Path, str]) -> None:
    root, _ = measured
    tags = json_files(root)["sample/tags.py"]
    pragma = lines_marked(TAGS, "# pragma: no cover")
    assert tags["excluded_lines"] == sorted(line for first in pragma for line in (first, first + 1))


def test_lazy_interpolations_are_not_missed(measured: tuple[Path, str]) -> None:
    """The lazy tag never calls ``getvalue``: the interpolation's lines still count
    as run, as the twin's do, and no branch into or out of its lambda is reported."""
    root, mode = measured
    tags = json_files(root)["sample/tags.py"]
    lazy = lines_marked(TAGS, 'lazy"""')[0]
    assert lazy in tags["executed_lines"]  # type: ignore[operator]
    assert not set(range(lazy, lazy + 3)) & set(tags["missing_lines"])  # type: ignore[call-overload]
    if mode == "branch":
        touched = {n for arc in tags["missing_branches"] for n in arc}  # type: ignore[attr-defined]
        assert not touched & set(range(lazy, lazy + 3))


def _report_rows(text: str) -> dict[str, str]:
    rows = {}
    for line in text.splitlines():
        name, _, figures = line.partition(" ")
        rows[name] = " ".join(figures.split())
    return rows


def test_text_report_rows_are_the_twins(measured: tuple[Path, str]) -> None:
    root, _ = measured
    done = run(root, "-m", "coverage", "report", "-m")
    rows = _report_rows(done.stdout)
    assert all(rows[module] == rows[twin] for module, twin in TWINS.items())
    assert rows["sample/tags.py"].endswith(", ".join(map(str, lines_marked(TAGS, "# missed"))))


def test_xml_lines_are_the_twins(measured: tuple[Path, str]) -> None:
    root, _ = measured
    run(root, "-m", "coverage", "xml", "-q", "-o", "coverage.xml")
    text = (root / "coverage.xml").read_text()
    classes = dict(re.findall(r'<class name="(\w+)\.py".*?<lines>(.*?)</lines>', text, re.S))
    assert classes["tags"] == classes["twin"] and classes["top"] == classes["top_twin"]
    assert 'hits="0"' in classes["tags"]


def test_lcov_records_are_the_twins(measured: tuple[Path, str]) -> None:
    root, _ = measured
    run(root, "-m", "coverage", "lcov", "-q", "-o", "coverage.lcov")
    records = {}
    for record in (root / "coverage.lcov").read_text().split("end_of_record"):
        name = re.search(r"^SF:(.*)$", record, re.M)
        if name:
            records[name.group(1)] = record.replace(name.group(0), "")
    assert all(records[module] == records[twin] for module, twin in TWINS.items())


def _html_lines(root: Path, module: str) -> list[tuple[str, str]]:
    """(line classes, shown text) of each source line of a module's HTML page."""
    (page,) = [p for p in (root / "htmlcov").iterdir() if re.fullmatch(rf"z_[0-9a-f]+_{module}_py\.html", p.name)]
    row = r'<p class="([^"]*)"><span class="n">.*?</span><span class="t">(.*?)&nbsp;</span>'
    rows = re.findall(row, page.read_text())
    return [(classes, unescape(re.sub(r"<[^>]+>", "", body))) for classes, body in rows]


def test_html_shows_the_original_text_with_the_twins_marks(measured: tuple[Path, str]) -> None:
    root, _ = measured
    run(root, "-m", "coverage", "html", "-q")
    tags, twin = _html_lines(root, "tags"), _html_lines(root, "twin")
    assert [marks for marks, _ in tags] == [marks for marks, _ in twin]
    assert [marks for marks, _ in _html_lines(root, "top")] == [marks for marks, _ in _html_lines(root, "top_twin")]
    assert [text for _, text in tags] == [line.rstrip() for line in TAGS.splitlines()]
    page = next((root / "htmlcov").glob("z_*_tags_py.html")).read_text()
    assert '<span class="str">html&quot;&lt;p&gt;Dear {name}&lt;/p&gt;&quot;</span>' in page


# -- pytest-cov ------------------------------------------------------------------------


def _pytest_plugin_args() -> list[str]:
    """``-p`` for our pytest plugin only where its entry point does not load it anyway."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "tagstr_runtime._pytest_plugin" for ep in entry_points(group="pytest11"))
    return ["-p", "no:cacheprovider"] + ([] if installed else ["-p", "tagstr_runtime._pytest_plugin"])


PYPROJECT = """\
[tool.coverage.run]
plugins = ["tagstr_runtime.coverage_plugin"]
branch = true
"""


def test_pytest_cov_counts_tag_string_modules(tmp_path: Path) -> None:
    pytest.importorskip("pytest_cov")
    root = sample(tmp_path, rc=None)
    write(root, {
        "pyproject.toml": PYPROJECT,
        "tests/test_sample.py": textwrap.dedent("""\
            from sample import tags, twin

            def test_pages():
                for module in (tags, twin):
                    assert module.greet("Ann", True) == "<p>Dear Ann</p>"
                    module.page(["a"])
                    module.Card().render(2)
            """),
    })
    done = run(root, "-m", "pytest", *_pytest_plugin_args(), "--cov=sample", "--cov-report=term-missing", "tests")
    rows = _report_rows(done.stdout)
    assert rows["sample/tags.py"] == rows["sample/twin.py"]
    assert "Couldn't parse" not in done.stdout + done.stderr


def test_pytest_cov_fail_under_fails_on_a_missed_tag_string_line(tmp_path: Path) -> None:
    """Only the tag-string module misses a line: without the plugin it was dropped
    from the table and the run passed at 100%."""
    pytest.importorskip("pytest_cov")
    root = write(tmp_path, {
        "sample/__init__.py": "",
        "sample/tagdefs.py": TAGDEFS,
        "sample/pages.py": textwrap.dedent('''\
            from sample.tagdefs import html


            def shown(x):
                return html"<p>{x}</p>"


            def forgotten(x):
                return html"<p>{x}!</p>"
            '''),
        "pyproject.toml": PYPROJECT,
        "tests/test_pages.py": "from sample.pages import shown\n\n\ndef test_shown():\n    shown(1)\n",
    })
    done = run(
        root, "-m", "pytest", *_pytest_plugin_args(), "--cov=sample", "--cov-report=term-missing",
        "--cov-fail-under=100", "tests", check=False,
    )
    assert done.returncode != 0, done.stdout
    assert "Required test coverage of 100% not reached" in done.stdout
    assert _report_rows(done.stdout)["sample/pages.py"].endswith("9")


# -- what the plugin leaves alone, and bad input -----------------------------------------


def test_a_project_without_tag_strings_is_reported_as_without_the_plugin(tmp_path: Path) -> None:
    """Reports and errors are byte for byte stock (a broken module in ``source`` included)."""
    outputs = []
    for rc in (RC_PLAIN, RC_PLUGIN):
        root = write(tmp_path / str(len(outputs)), {
            "sample/__init__.py": "",
            "sample/tagdefs.py": TAGDEFS,
            "sample/twin.py": twin_of(TAGS),
            "sample/broken.py": "def broken(:\n    pass\n",
            "drive.py": "from sample import twin\ntwin.greet('Ann', True)\ntwin.Card().render(2)\n",
            ".coveragerc": rc,
        })
        run(root, "-m", "coverage", "run", "--branch", "drive.py")
        broken = run(root, "-m", "coverage", "report", check=False)
        report = run(root, "-m", "coverage", "report", "-m", "-i").stdout
        run(root, "-m", "coverage", "json", "-i", "-q", "-o", "coverage.json")
        run(root, "-m", "coverage", "lcov", "-i", "-q", "-o", "coverage.lcov")
        files = json.loads((root / "coverage.json").read_text())["files"]
        lcov = (root / "coverage.lcov").read_text()
        outputs.append((broken.returncode, (broken.stdout + broken.stderr).replace(str(root), ""), report, files, lcov))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 1 and "Couldn't parse" in outputs[0][1]


def test_a_malformed_tag_string_is_reported_at_its_line(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "sample/__init__.py": "",
        "sample/bad.py": 'x = 1\ny = html"<p>{x</p>"\n',
        "drive.py": "import sample\n",
        ".coveragerc": RC_PLUGIN,
    })
    run(root, "-m", "coverage", "run", "drive.py")
    done = run(root, "-m", "coverage", "report", check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    message = r"Couldn't parse '.*bad\.py' as Python source: \"tag string: expecting '}'\" at line 2"
    assert re.search(message, done.stdout)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is new in Python 3.12")
def test_the_sysmon_core_measures_the_same(tmp_path: Path) -> None:
    """File-tracer plugins are off under sys.monitoring; this plugin does not need one."""
    root = sample(tmp_path)
    done = run(root, "-m", "coverage", "run", "--debug=sys", "drive.py", COVERAGE_CORE="sysmon")
    assert re.search(r"core: SysMonitor", done.stdout + done.stderr)
    files = json_files(root)
    assert files["sample/tags.py"] == files["sample/twin.py"]
    assert files["sample/tags.py"]["missing_lines"] == lines_marked(TAGS, "# missed")
