"""The pytest plugin: tag strings in test files and conftest.py, with assertion rewriting.

Runs pytest in this process through ``pytester`` (fast, and possible where
subprocesses are not); one test runs a real ``python -m pytest``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime.run import compile as _compile
from tagstr_runtime.desugarer import fingerprint as _fingerprint
from clean_python import clean_env

pytest_plugins = ["pytester"]

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]


def _plugin_args() -> tuple[str, ...]:
    """Name the plugin with ``-p`` only when its entry point will not load it anyway.

    (pluggy refuses one module registered under two names.)
    """
    from importlib.metadata import entry_points

    installed = any(ep.value == "tagstr_runtime._pytest_plugin" for ep in entry_points(group="pytest11"))
    if installed:
        return ("-p", "no:cacheprovider")
    return ("-p", "tagstr_runtime._pytest_plugin", "-p", "no:cacheprovider")


PLUGIN = _plugin_args()

CONFTEST = '''\
import pytest

def tag(*args):
    return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)

CONF = tag"conf{1 + 1}"

@pytest.fixture
def conf():
    return CONF
'''

TESTS = '''\
from conftest import tag

def test_passes(conf):
    x = 3
    assert conf == "conf2"
    assert tag"a{x}" == "a3"

def test_fails():
    x = 4
    assert tag"<b>{x}</b>" == "<b>5</b>"
'''


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.Pytester]:
    was_installed = _importhook._hook in sys.path_hooks
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_tags=TESTS)
    yield pytester
    if not was_installed:
        tagstr_runtime.uninstall()


def test_tag_strings_in_tests_and_conftest(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN)
    result.assert_outcomes(passed=1, failed=1)


def test_failing_assert_is_introspected(project: pytest.Pytester) -> None:
    result = project.runpytest(*PLUGIN)
    result.stdout.fnmatch_lines(
        [
            '>       assert tag"<b>{x}</b>" == "<b>5</b>"',
            "E       AssertionError: assert '<b>4</b>' == '<b>5</b>'",
            "*test_tags.py:10: AssertionError",
        ]
    )


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(("--import-mode=importlib",), id="importlib"),
        pytest.param(("--import-mode=append",), id="append"),
        pytest.param(("--assert=plain",), id="plain-assert"),
    ],
)
@pytest.mark.subprocess
def test_other_pytest_modes(project: pytest.Pytester, options: tuple[str, ...]) -> None:
    # In a subprocess: with --import-mode=append the project's conftest.py is imported
    # as the top-level module "conftest", which an in-process run may already hold.
    result = project.runpytest_subprocess(*PLUGIN, *options)
    result.assert_outcomes(passed=1, failed=1)


def test_syntax_error_in_a_test_file(project: pytest.Pytester) -> None:
    project.makepyfile(test_bad="x = 1\ny = tag'{}'\n")
    result = project.runpytest(*PLUGIN, "test_bad.py")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            '*File "*test_bad.py", line 2',
            "E       y = tag'{}'",
            "E                ^",
            "*tag string: valid expression required before '}'",
        ]
    )
    assert "_pytest_plugin" not in result.stdout.str()
    assert "tagstr_runtime/_" not in result.stdout.str()


def test_plain_tests_are_untouched(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    pytester.makepyfile(test_plain="def test_it():\n    x = 1\n    assert x == 2\n")
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E       assert 1 == 2"])
    names = [p.name for p in (pytester.path / "__pycache__").iterdir()]
    assert len(names) == 1 and "-pytest-" in names[0] and ".tagstr-" not in names[0]


def test_rewritten_code_is_cached_apart(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = _compile.desugar_ast

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args[1])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_compile, "desugar_ast", counting)
    project.runpytest(*PLUGIN).assert_outcomes(passed=1, failed=1)
    assert sorted(Path(str(c)).name for c in calls) == ["conftest.py", "test_tags.py"]
    names = sorted(p.name for p in (project.path / "__pycache__").iterdir())
    assert len(names) == 2
    assert all(n.endswith(f"-pytest-{pytest.__version__}.tagstr-{_fingerprint.fingerprint()}.pyc") for n in names)
    project.runpytest(*PLUGIN).assert_outcomes(passed=1, failed=1)
    assert len(calls) == 2  # the second run read the cache
    # a test file edited to plain Python goes back to pytest's own cache file
    (project.path / "test_tags.py").write_text("def test_plain():\n    assert True\n", encoding="utf-8")
    os.utime(project.path / "test_tags.py", (1, 1))
    project.runpytest(*PLUGIN).assert_outcomes(passed=1)
    assert len(list((project.path / "__pycache__").iterdir())) == 3


@pytest.mark.subprocess
def test_real_pytest_run(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_tags.py").write_text(TESTS, encoding="utf-8")
    env = clean_env("PYTEST_", TAGSTR_AUTOLOAD="0")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *PLUGIN, "-q", "-rN", "--tb=short"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed, 1 passed" in result.stdout
    assert "AssertionError: assert '<b>4</b>' == '<b>5</b>'" in result.stdout


def _run_python(code: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = clean_env("PYTEST_", TAGSTR_AUTOLOAD="0")
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.subprocess
def test_importing_the_plugin_patches_nothing(tmp_path: Path) -> None:
    code = (
        "import _pytest.assertion.rewrite as r\n"
        "import tagstr_runtime._pytest_plugin as p\n"
        "assert not any(hasattr(getattr(r, n), '__wrapped__') for n in ('_rewrite_test', '_read_pyc', '_write_pyc'))\n"
        "p._activate()\n"
        "assert r._rewrite_test._tagstr_wrapped and r._write_pyc.__wrapped__\n"
    )
    result = _run_python(code, tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.subprocess
def test_moved_internal_is_one_warning_and_stock_pytest(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text("def test_it():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    code = (  # a pytest whose _write_pyc takes a cache key this plugin does not know
        "import sys, _pytest.assertion.rewrite as r\n"
        "stock = r._write_pyc\n"
        "def _write_pyc(state, co, new_key, pyc):\n"
        "    return stock(state, co, new_key, pyc)\n"
        "r._write_pyc = _write_pyc\n"
        "import pytest\n"
        "sys.exit(pytest.main(sys.argv[1:]))\n"
    )
    result = _run_python(code, tmp_path, *PLUGIN, "-q")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    assert result.stdout.count("cannot hook _pytest.assertion.rewrite._write_pyc (unexpected shape") == 1
    assert "PatchWarning" in result.stdout
