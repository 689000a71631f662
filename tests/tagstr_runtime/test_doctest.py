"""Doctest examples with tag strings: under pytest (our plugin) and under the runner."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

MODULE = textwrap.dedent('''\
    """Tags documented by their examples.

    >>> name = "<i>"
    >>> html"<b>{name}</b>"
    '<b>&lt;i&gt;</b>'
    >>> for n in ["a", "b"]:
    ...     print(html"<p>{n}</p>")
    <p>a</p>
    <p>b</p>
    """
    import html as _html


    def html(*args):
        """Escape each interpolation.

        >>> html"{1 + 1}!"
        '2!'
        >>> html"{len(1}"
        Traceback (most recent call last):
        tagstr_runtime.TagSyntaxError: tag string: closing parenthesis '}' does not match opening parenthesis '('
        >>> f"{1 + 1}!"
        '2!'
        """
        return "".join(a if isinstance(a, str) else _html.escape(str(a[0]())) for a in args)
''')
TEXT = textwrap.dedent('''\
    A text file of examples:

    >>> from tags import html
    >>> html"{'&'}"
    '&amp;'
''')


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tags.py").write_text(MODULE, encoding="utf-8")
    (tmp_path / "usage.txt").write_text(TEXT, encoding="utf-8")
    return tmp_path


def test_pytest_doctest_modules_and_glob(project: Path) -> None:
    proc = run(["-m", "pytest", "-p", "no:cacheprovider", "--doctest-modules", "--doctest-glob=*.txt",
                "tags.py", "usage.txt"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout, proc.stdout


def test_pytest_reports_a_wrong_example_at_its_line(project: Path) -> None:
    broken = MODULE.replace("'2!'\n    >>> html", "'3!'\n    >>> html")
    assert broken != MODULE
    (project / "tags.py").write_text(broken, encoding="utf-8")
    proc = run(["-m", "pytest", "-p", "no:cacheprovider", "--doctest-modules", "tags.py"], project)
    assert proc.returncode == 1, proc.stdout
    assert "tags.py:17: DocTestFailure" in proc.stdout, proc.stdout
    assert "Expected:\n    '3!'\nGot:\n    '2!'" in proc.stdout, proc.stdout


def test_runner_runs_python_m_doctest(project: Path) -> None:
    proc = run(["-m", "tagstr_runtime", "-m", "doctest", "tags.py", "usage.txt"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "", proc.stdout


def test_without_tagstr_the_examples_fail(project: Path) -> None:
    """The twin: stock pytest (plugin disabled) cannot compile the examples."""
    proc = run(["-m", "pytest", "-p", "no:cacheprovider", "-p", "no:tagstr", "--doctest-modules",
                "--doctest-glob=*.txt", "usage.txt"], project)
    assert proc.returncode == 1 and "SyntaxError" in proc.stdout, proc.stdout
