"""The path hook: plain modules exactly as stock CPython loads them, tag modules desugared.

Most tests import real files from a temporary ``sys.path`` directory in this
process; the few that must see what a fresh interpreter prints (trimmed
tracebacks, a stock ``python`` without the hook) run one.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import textwrap
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime._importhook import TagSourceFileLoader
from fstring_typos import ISSUE_CASES
from clean_python import clean_env, run_python

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]

TAG_MODULE = '''\
"""A module with tag strings."""

def collect(*args):
    return [a if isinstance(a, str) else (a.expr, a.getvalue(), a.conv, a.format_spec) for a in args]

x = 41
VALUE = collect"<p>{x + 1!r:>4}</p>"
'''


@pytest.fixture
def hook() -> Iterator[None]:
    """The hook installed for the test, and the process left as it was found."""
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.install()
    yield
    if not was_installed:
        tagstr_runtime.uninstall()


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, str], Path]]:
    """Write modules into a fresh ``sys.path`` directory; forget them afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    before = set(sys.modules)

    def write(name: str, source: str) -> Path:
        path = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        importlib.invalidate_caches()
        return path

    yield write
    for name in set(sys.modules) - before:
        del sys.modules[name]


def fresh_import(name: str) -> ModuleType:
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def python(*args: str, cwd: Path, autoload: bool = False) -> subprocess.CompletedProcess[str]:
    return run_python(*args, cwd=cwd, env=clean_env(TAGSTR_AUTOLOAD="1" if autoload else "0"))


# -- install / uninstall ------------------------------------------------------------


def test_install_is_idempotent_and_precedes_the_stock_hook(hook: None) -> None:
    tagstr_runtime.install()
    tagstr_runtime.install()
    ours = [h for h in sys.path_hooks if h is _importhook._hook]
    assert len(ours) == 1
    names = [getattr(h, "__qualname__", "") for h in sys.path_hooks]
    stock = [i for i, n in enumerate(names) if n.startswith("FileFinder.path_hook")]
    assert sys.path_hooks.index(ours[0]) == stock[0]  # ours is the first FileFinder hook


def test_install_replaces_cached_stock_finders(tmp_path: Path) -> None:
    was_installed = _importhook._hook in sys.path_hooks
    tagstr_runtime.uninstall()
    try:
        importlib.machinery.PathFinder.find_spec("nothing_here", [str(tmp_path)])
        stock = sys.path_importer_cache[str(tmp_path)]
        assert type(stock) is importlib.machinery.FileFinder
        tagstr_runtime.install()
        ours = sys.path_importer_cache[str(tmp_path)]
        assert type(ours) is importlib.machinery.FileFinder  # CPython's type (issue 36)
        assert ours is not stock and _importhook._holds(ours, TagSourceFileLoader)
        # the directory listing already made is reused, not redone
        assert vars(ours)["_path_cache"] is vars(stock)["_path_cache"]
        tagstr_runtime.uninstall()
        assert str(tmp_path) not in sys.path_importer_cache
        assert _importhook._hook not in sys.path_hooks
        tagstr_runtime.uninstall()  # idempotent too
    finally:
        if was_installed:
            tagstr_runtime.install()


def test_public_names_come_from_the_hook_module() -> None:
    assert tagstr_runtime.install is _importhook.install
    assert tagstr_runtime.uninstall is _importhook.uninstall


# -- plain modules: exactly stock ---------------------------------------------------


def test_plain_module_gets_stock_code_and_stock_pyc(
    hook: None, modules: Callable[[str, str], Path]
) -> None:
    path = modules("plain_mod", "def f(a):\n    return a + 1\nVALUE = f(1)\n")
    module = fresh_import("plain_mod")
    assert module.VALUE == 2
    loader = module.__loader__
    assert type(loader) is importlib.machinery.SourceFileLoader  # no tag strings: CPython's (issue 36)
    assert module.__spec__ is not None and module.__spec__.loader is loader
    assert loader == importlib.machinery.SourceFileLoader("plain_mod", str(path))
    assert vars(loader) == {"name": "plain_mod", "path": str(path)}
    expected = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    assert loader.get_code("plain_mod") == expected
    pyc = Path(importlib.util.cache_from_source(str(path)))
    assert pyc.exists()
    assert module.__spec__.cached == str(pyc)
    if sys.version_info < (3, 15):  # 3.15 stopped setting __cached__ (gh-65961)
        assert module.__cached__ == str(pyc)
    assert [p.name for p in pyc.parent.iterdir()] == [pyc.name]
    # the stock loader accepts the pyc as its own
    stock = importlib.machinery.SourceFileLoader("plain_mod", str(path))
    assert stock.get_code("plain_mod") == expected


def test_plain_syntax_error_is_the_builtin_one(hook: None, modules: Callable[[str, str], Path]) -> None:
    path = modules("broken_plain", "x = 1\ny = = 2\n")
    with pytest.raises(SyntaxError) as caught:
        fresh_import("broken_plain")
    with pytest.raises(SyntaxError) as builtin:
        compile(path.read_bytes(), str(path), "exec")
    got, want = caught.value, builtin.value
    assert type(got) is type(want)
    assert (got.msg, got.filename, got.lineno, got.offset, got.text) == (
        want.msg, want.filename, want.lineno, want.offset, want.text,
    )


def test_plain_fstring_typos_are_the_builtin_error(hook: None, modules: Callable[[str, str], Path]) -> None:
    """Issue 11 item 2: a typo in a plain f-string, not a tag-string error."""
    for index, source in enumerate(ISSUE_CASES):
        name = f"fstring_typo_{index}"
        path = modules(name, source)
        with pytest.raises(SyntaxError) as caught:
            fresh_import(name)
        with pytest.raises(SyntaxError) as builtin:
            compile(path.read_bytes(), str(path), "exec")
        got, want = caught.value, builtin.value
        assert (type(got), got.msg, got.lineno, got.offset, got.end_lineno, got.end_offset, got.text) == (
            type(want), want.msg, want.lineno, want.offset, want.end_lineno, want.end_offset, want.text,
        )


# -- modules with tag strings -------------------------------------------------------


def test_tag_module_imports(hook: None, modules: Callable[[str, str], Path]) -> None:
    modules("tag_mod", TAG_MODULE)
    module = fresh_import("tag_mod")
    assert module.VALUE == ["<p>", ("x + 1", 42, "r", ">4"), "</p>"]
    assert module.__doc__ == "A module with tag strings."
    assert module.__spec__ is not None and type(module.__spec__.loader) is TagSourceFileLoader
    assert "__tagstr__" not in getattr(module, "__all__", ())


def test_tag_package_and_submodule(hook: None, modules: Callable[[str, str], Path]) -> None:
    modules("tag_pkg.__init__", "def tg(*a):\n    return len(a)\nN = tg'{1}{2}'\n")
    modules("tag_pkg.sub", "from . import tg\nM = tg'a{3}b'\n")
    assert fresh_import("tag_pkg").N == 2
    assert fresh_import("tag_pkg.sub").M == 3


def test_reload_after_edit(hook: None, modules: Callable[[str, str], Path]) -> None:
    path = modules("reload_mod", "def tg(*a):\n    return a[0]\nV = tg'one'\n")
    module = fresh_import("reload_mod")
    assert module.V == "one"
    path.write_text("def tg(*a):\n    return a[0]\nV = tg'two, edited'\n", encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 2_000_000_000))
    assert importlib.reload(module).V == "two, edited"


def test_tag_syntax_error_points_at_the_original_source(
    hook: None, modules: Callable[[str, str], Path]
) -> None:
    path = modules("broken_tag", "a = 1\nb = tag'{}'\n")
    with pytest.raises(SyntaxError) as caught:
        fresh_import("broken_tag")
    error = caught.value
    assert isinstance(error, tagstr_runtime.TagSyntaxError)
    assert (error.filename, error.lineno, error.offset) == (str(path), 2, 10)
    assert error.text is not None and error.text.rstrip("\n") == "b = tag'{}'"
    assert error.__traceback__ is not None
    # nothing of ours between the importing frame and the error
    files = {frame.filename for frame in traceback.extract_tb(error.__traceback__)}
    package = str(Path(tagstr_runtime.__file__).resolve().parent)
    assert not any(str(Path(name).resolve()).startswith(package) for name in files if not name.startswith("<"))


def test_runtime_error_positions_are_the_original_ones(
    hook: None, modules: Callable[[str, str], Path]
) -> None:
    path = modules(
        "late_error",
        '''\
        def force(*args):
            return [a.getvalue() for a in args if not isinstance(a, str)]

        zero = 0
        VALUE = force"""first line
          second {1 / zero} line"""
        ''',
    )
    with pytest.raises(ZeroDivisionError) as caught:
        fresh_import("late_error")
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno) == (str(path), 6)
    assert frame.line == "second {1 / zero} line\"\"\"".strip()
    if sys.version_info >= (3, 11):
        assert (frame.colno, frame.end_colno) == (10, 18)  # the `1 / zero` itself


def test_without_the_hook_tag_modules_fail_as_stock(modules: Callable[[str, str], Path]) -> None:
    was_installed = _importhook._hook in sys.path_hooks
    tagstr_runtime.uninstall()
    try:
        modules("no_hook_mod", TAG_MODULE)
        with pytest.raises(SyntaxError) as caught:
            fresh_import("no_hook_mod")
        assert not isinstance(caught.value, tagstr_runtime.TagSyntaxError)
    finally:
        if was_installed:
            tagstr_runtime.install()


def test_source_to_code_on_foreign_text(tmp_path: Path) -> None:
    loader = TagSourceFileLoader("m", str(tmp_path / "m.py"))
    code = loader.source_to_code(b"def tg(*a):\n    return a\nV = tg'x{1}'\n", "<text>")
    namespace: dict[str, object] = {}
    exec(code, namespace)
    assert namespace["V"][0] == "x"  # type: ignore[index]
    assert code.co_filename == "<text>"
    assert list(tmp_path.iterdir()) == []  # nothing cached for text that is not the file


# -- in a fresh interpreter ---------------------------------------------------------


@pytest.mark.subprocess
def test_import_error_traceback_is_trimmed_like_stock(tmp_path: Path) -> None:
    (tmp_path / "bad_tag.py").write_text("a = 1\nb = tag'{}'\n", encoding="utf-8")
    (tmp_path / "bad_plain.py").write_text("a = 1\nb = = 2\n", encoding="utf-8")
    (tmp_path / "main.py").write_text(
        "import sys\nimport tagstr_runtime\ntagstr_runtime.install()\n__import__(sys.argv[1])\n",
        encoding="utf-8",
    )
    tag = python("main.py", "bad_tag", cwd=tmp_path)
    plain = python("main.py", "bad_plain", cwd=tmp_path)
    assert tag.returncode == plain.returncode == 1

    def lines(text: str) -> list[str]:  # without 3.13's position markers under the call
        return [line for line in text.splitlines() if "~" not in line]

    # The same shape as CPython's own: the importing line, then the error.
    assert lines(plain.stderr)[:3] == lines(tag.stderr)[:3] == [
        "Traceback (most recent call last):",
        f'  File "{tmp_path / "main.py"}", line 4, in <module>',
        "    __import__(sys.argv[1])",
    ]
    error = lines(tag.stderr)[3:]
    assert error[:3] == [
        f'  File "{tmp_path / "bad_tag.py"}", line 2',
        "    b = tag'{}'",
        "    " + " " * len("b = tag'{") + "^",  # at the '}'
    ]
    assert error[3].endswith("tag string: valid expression required before '}'")
    assert "_importhook" not in tag.stderr and "frozen" not in tag.stderr


@pytest.mark.subprocess
def test_stock_python_never_runs_desugared_code(tmp_path: Path) -> None:
    (tmp_path / "tmod.py").write_text(TAG_MODULE, encoding="utf-8")
    hooked = python(
        "-c", "import tagstr_runtime; tagstr_runtime.install(); import tmod; print(tmod.VALUE[1])", cwd=tmp_path
    )
    assert hooked.returncode == 0, hooked.stderr
    assert hooked.stdout == "('x + 1', 42, 'r', '>4')\n"
    assert [p.name for p in (tmp_path / "__pycache__").iterdir()][0].startswith("tmod.cpython-")
    stock = python("-c", "import tmod", cwd=tmp_path)
    assert stock.returncode == 1
    assert stock.stderr.splitlines()[-1] == "SyntaxError: invalid syntax"


def test_spec_from_file_location_loads_tag_strings(tmp_path: Path) -> None:
    """What setuptools' editable finders (a flat layout's top-level package) and
    plugin loaders call: it picks its loader itself, not through ``sys.path_hooks``."""
    path = tmp_path / "by_location.py"
    path.write_text("def tg(*a):\n    return a\nV = tg'x{1}'\n", encoding="utf-8")
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.uninstall()
    try:
        spec = importlib.util.spec_from_file_location("by_location", path)
        assert spec is not None and spec.loader is not None
        with pytest.raises(SyntaxError):
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
        tagstr_runtime.install()
        spec = importlib.util.spec_from_file_location("by_location", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.V[0] == "x" and module.V[1].getvalue() == 1
        plain = importlib.util.spec_from_file_location("plain_by_location", tmp_path / "x.pyc")
        assert plain is not None and type(plain.loader).__name__ == "SourcelessFileLoader"
    finally:
        (tagstr_runtime.install if was_installed else tagstr_runtime.uninstall)()


# -- zip archives on sys.path (zipimport) ---------------------------------------------


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[dict[str, str]], None]]:
    """Write a zip of modules and put it on ``sys.path``; forget the modules afterwards."""
    import zipfile

    before = set(sys.modules)

    def write(members: dict[str, str]) -> None:
        path = tmp_path / f"lib{len(list(tmp_path.iterdir()))}.zip"
        with zipfile.ZipFile(path, "w") as zf:
            for name, text in members.items():
                zf.writestr(name, textwrap.dedent(text))
        monkeypatch.syspath_prepend(str(path))
        importlib.invalidate_caches()

    yield write
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_zipimport_tag_modules(hook: None, archive: Callable[[dict[str, str]], None]) -> None:
    archive({"zipped_tags.py": TAG_MODULE, "zipped_pkg/__init__.py": "from zipped_tags import collect\n"
             "V = collect\"{'pkg'}\"\n", "zipped_plain.py": "PLAIN = f'{1 + 1}'\n"})
    assert importlib.import_module("zipped_tags").VALUE == ["<p>", ("x + 1", 42, "r", ">4"), "</p>"]
    assert importlib.import_module("zipped_pkg").V == [("'pkg'", "pkg", None, None)]
    assert importlib.import_module("zipped_plain").PLAIN == "2"


def test_zipimport_errors(hook: None, archive: Callable[[dict[str, str]], None]) -> None:
    archive({"zipped_bad_tag.py": "x = 1\ny = tag\"{x y}\"\n", "zipped_bad_plain.py": "y = f'{1 +}'\n"})
    with pytest.raises(SyntaxError) as info:
        importlib.import_module("zipped_bad_tag")
    error = info.value
    # CPython's error on the interpolation, at its place, in the archive's member
    assert (type(error).__name__, error.msg, error.lineno, error.offset, error.end_lineno, error.end_offset) == (
        "TagSyntaxError", "tag string: invalid syntax. Perhaps you forgot a comma?", 2, 10, 2, 13
    )
    assert error.filename.endswith(os.path.join(".zip", "zipped_bad_tag.py")), error.filename
    assert error.text == 'y = tag"{x y}"\n'
    with pytest.raises(SyntaxError) as stock:
        importlib.import_module("zipped_bad_plain")
    with pytest.raises(SyntaxError) as builtin:
        compile("y = f'{1 +}'\n", "x.py", "exec")
    assert type(stock.value) is SyntaxError
    assert (stock.value.msg, stock.value.lineno, stock.value.offset) == (
        builtin.value.msg, builtin.value.lineno, builtin.value.offset
    )


def test_zipimport_without_the_hook_is_stock(archive: Callable[[dict[str, str]], None]) -> None:
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.uninstall()
    try:
        archive({"zipped_unhooked.py": TAG_MODULE})
        with pytest.raises(SyntaxError) as info:
            importlib.import_module("zipped_unhooked")
        assert type(info.value) is SyntaxError
    finally:
        if was_installed:
            tagstr_runtime.install()
