"""The import hook is invisible to code that looks loaders and finders up by type (issue 36).

distlib (vendored by pip, and standalone) finds a package's resource finder
with ``_finder_registry[type(module.__loader__)]`` and a path's with
``type(sys.path_importer_cache[path])``: with the hook, a module without
tag strings must have CPython's ``SourceFileLoader`` and a directory
CPython's ``FileFinder``.  Only modules with tag strings keep our loader.
These tests import real files in this process; ``tests/shipping`` runs real
pip versions after installing the wheel.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.resources
import importlib.util
import inspect
import linecache
import pkgutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime._importhook import TagSourceFileLoader
from clean_python import clean_env, run_python

STOCK_LOADER = importlib.machinery.SourceFileLoader
TAG_SOURCE = "def tg(*a):\n    return [x if isinstance(x, str) else x.getvalue() for x in a]\nV = tg'v{1}'\n"


@pytest.fixture
def hook() -> Iterator[None]:
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.install()
    yield
    if not was_installed:
        tagstr_runtime.uninstall()


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[dict[str, str]], Path]]:
    """Write files under a fresh ``sys.path`` folder; forget the modules afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    before = set(sys.modules)

    def write(files: dict[str, str]) -> Path:
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        importlib.invalidate_caches()
        return tmp_path

    yield write
    for name in set(sys.modules) - before:
        del sys.modules[name]


def fresh(name: str) -> ModuleType:
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]
    return importlib.import_module(name)


def assert_stock(module: ModuleType) -> None:
    loader = module.__loader__
    assert type(loader) is STOCK_LOADER, (module.__name__, type(loader))
    assert module.__spec__ is not None and module.__spec__.loader is loader
    assert vars(loader) == {"name": module.__name__, "path": module.__file__}
    assert loader == STOCK_LOADER(module.__name__, str(module.__file__))


def test_plain_modules_and_packages_keep_cpythons_types(hook: None, tree: Callable[[dict[str, str]], Path]) -> None:
    root = tree({"plainpkg/__init__.py": "X = 1\n", "plainpkg/sub.py": "Y = f'{1 + 1}'\n", "plainmod.py": "Z = 3\n"})
    for name in ("plainpkg", "plainpkg.sub", "plainmod"):
        assert_stock(fresh(name))
    # from the pyc written above, in a new finder: the same
    sys.path_importer_cache.pop(str(root), None)
    for name in ("plainpkg", "plainpkg.sub", "plainmod"):
        assert_stock(fresh(name))
    finder = sys.path_importer_cache[str(root)]
    assert type(finder) is importlib.machinery.FileFinder
    assert type(sys.path_importer_cache[str(root / "plainpkg")]) is importlib.machinery.FileFinder
    # CPython's own path hook, given our loader class
    assert [type(h).__qualname__ for h in sys.path_hooks if h is _importhook._hook] == ["function"]
    assert _importhook._hook.__qualname__ == "FileFinder.path_hook.<locals>.path_hook_for_FileFinder"


def test_only_tag_string_modules_keep_our_loader(hook: None, tree: Callable[[dict[str, str]], Path]) -> None:
    tree({"mixed/__init__.py": "PLAIN = True\n", "mixed/tagged.py": TAG_SOURCE, "mixed/plain.py": "P = 1\n"})
    assert_stock(fresh("mixed"))
    tagged = importlib.import_module("mixed.tagged")
    assert tagged.V[1] == 1
    assert type(tagged.__loader__) is TagSourceFileLoader and tagged.__spec__.loader is tagged.__loader__
    assert vars(tagged.__loader__) == {"name": "mixed.tagged", "path": tagged.__file__}
    assert_stock(importlib.import_module("mixed.plain"))
    # cached the second time: still ours, still right
    assert type(fresh("mixed.tagged").__loader__) is TagSourceFileLoader


def test_a_plain_module_edited_to_have_tag_strings_reloads(
    hook: None, tree: Callable[[dict[str, str]], Path]
) -> None:
    root = tree({"edited.py": "V = ['plain']\n"})
    module = fresh("edited")
    assert_stock(module)
    path = root / "edited.py"
    path.write_text(TAG_SOURCE, encoding="utf-8")
    stat = path.stat()
    import os

    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    assert importlib.reload(module).V[0] == "v"
    assert type(module.__loader__) is TagSourceFileLoader


def test_spec_from_file_location_gives_plain_files_the_stock_loader(hook: None, tmp_path: Path) -> None:
    """setuptools' editable finders and plugin loaders: the loader they get is ours
    until the module turns out plain."""
    (tmp_path / "located.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "located_tag.py").write_text(TAG_SOURCE, encoding="utf-8")
    for name, kind in (("located", STOCK_LOADER), ("located_tag", TagSourceFileLoader)):
        spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert type(module.__loader__) is kind


def test_standalone_distlib_finds_resources(hook: None, tree: Callable[[dict[str, str]], Path]) -> None:
    resources = pytest.importorskip("distlib.resources", reason="distlib is in the tests dependency group")
    root = tree({"withdata/__init__.py": "", "withdata/data.txt": "payload", "taggeddata/__init__.py": TAG_SOURCE})
    fresh("withdata")
    found = resources.finder("withdata")
    resource = found.find("data.txt")
    assert resource is not None and resource.bytes == b"payload"
    assert resources.finder_for_path(str(root)) is not None  # type(sys.path_importer_cache[path])
    fresh("distlib")
    assert resources.finder("distlib") is not None


@pytest.mark.subprocess
def test_pips_distlib_finds_its_resources_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """Issue 36's failure: what pip 24.1/24.2 call at import (and current pip on Windows)."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed here")
    code = (
        "import sys, tagstr_runtime; tagstr_runtime.install()\n"
        "from pip._vendor.distlib.resources import finder\n"
        "import pip._vendor.distlib as d\n"
        "print(finder('pip._vendor.distlib').find('util.py') is not None, type(d.__loader__).__name__)\n"
    )
    done = run_python("-c", code, cwd=tmp_path, env=clean_env(TAGSTR_AUTOLOAD="0"))
    assert (done.returncode, done.stdout) == (0, "True SourceFileLoader\n"), done.stderr


def test_resource_and_source_readers_on_both_kinds(hook: None, tree: Callable[[dict[str, str]], Path]) -> None:
    root = tree({
        "rpkg/__init__.py": "", "rpkg/data.txt": "plain data", "rpkg/code.py": "def f():\n    return 1\n",
        "tpkg/__init__.py": TAG_SOURCE, "tpkg/data.txt": "tag data",
        "tpkg/fn.py": "def tg(*a):\n    return a\n\ndef g(x):\n    return tg'{x}'\n",
    })
    fresh("rpkg")
    fresh("tpkg")
    assert importlib.resources.files("rpkg").joinpath("data.txt").read_text() == "plain data"
    assert importlib.resources.files("tpkg").joinpath("data.txt").read_text() == "tag data"
    assert {m.name for m in pkgutil.iter_modules([str(root / "rpkg")])} == {"code"}
    assert {m.name for m in pkgutil.iter_modules([str(root / "tpkg")])} == {"fn"}
    code = importlib.import_module("rpkg.code")
    fn = importlib.import_module("tpkg.fn")
    assert inspect.getsource(code.f) == "def f():\n    return 1\n"
    assert inspect.getsource(fn.g) == "def g(x):\n    return tg'{x}'\n"
    assert linecache.getline(str(root / "tpkg" / "fn.py"), 5) == "    return tg'{x}'\n"
    assert fn.__loader__.get_source("tpkg.fn") == (root / "tpkg" / "fn.py").read_text()


def test_install_leaves_another_tools_file_finders_alone(tmp_path: Path) -> None:
    """A tool with its own ``FileFinder`` hook (beartype.claw, pyximport...): install and
    uninstall replace only CPython's finders and ours, told apart by their loaders."""

    class OtherLoader(importlib.machinery.SourceFileLoader):
        pass

    other_hook = importlib.machinery.FileFinder.path_hook((OtherLoader, [".py"]))
    was_installed = _importhook._hook is not None and _importhook._hook in sys.path_hooks
    tagstr_runtime.uninstall()
    other, stock, ours = tmp_path / "other", tmp_path / "stock", tmp_path / "ours"
    for folder in (other, stock, ours):
        folder.mkdir()
    cache = sys.path_importer_cache
    try:
        cache[str(other)] = other_hook(str(other))
        importlib.machinery.PathFinder.find_spec("nothing", [str(stock)])
        tagstr_runtime.install()
        assert _importhook._holds(cache[str(other)], OtherLoader)  # not replaced
        assert _importhook._holds(cache[str(stock)], TagSourceFileLoader)  # replaced by ours
        importlib.machinery.PathFinder.find_spec("nothing", [str(ours)])
        assert _importhook._holds(cache[str(ours)], TagSourceFileLoader)
        tagstr_runtime.uninstall()
        assert str(other) in cache and str(stock) not in cache and str(ours) not in cache
    finally:
        for folder in (other, stock, ours):
            cache.pop(str(folder), None)
        (tagstr_runtime.install if was_installed else tagstr_runtime.uninstall)()


@pytest.mark.subprocess
def test_a_fresh_interpreter_has_no_loader_or_finder_of_ours(tmp_path: Path) -> None:
    """The start-up hook on: every module loaded from source by start-up and by a plain
    program has CPython's loader type, every directory CPython's finder type."""
    code = textwrap.dedent('''
        import importlib.machinery as m, sys, json, email.parser, tagstr_runtime._importhook as h
        assert h._hook in sys.path_hooks
        odd = sorted(n for n, mod in list(sys.modules.items())
                     if isinstance(getattr(mod, "__loader__", None), m.SourceFileLoader)
                     and type(mod.__loader__) is not m.SourceFileLoader)
        finders = {type(f).__name__ for f in sys.path_importer_cache.values()}
        print(odd, sorted(finders))
    ''')
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=clean_env(), capture_output=True,
                          text=True, timeout=60)
    if "AssertionError" in done.stderr:
        pytest.skip("the start-up hook is not installed in this environment")
    assert (done.returncode, done.stdout) == (0, "[] ['FileFinder', 'NoneType']\n"), done.stderr
