"""Bytecode caching of desugared modules: separate from, and invisible to, stock CPython.

"Desugared again or not" is observed by counting calls of ``desugar_ast``:
a module loaded from our cache never reaches the desugarer.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import tagstr_runtime
from tagstr_runtime import _importhook
from tagstr_runtime.run import compile as _compile
from tagstr_runtime import _rt
from tagstr_runtime.desugarer import fingerprint as _fingerprint
from clean_python import clean_env

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]

TAGGED = "def tg(*args):\n    return args[0]\nVALUE = tg'0'\n"


class Env:
    """A ``sys.path`` directory holding module ``cached_mod``, and a desugarer call counter."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.source = root / "cached_mod.py"
        self.calls = 0
        self.mtime_ns = 1_700_000_000 * 10**9

    def write(self, text: str) -> None:
        self.source.write_text(text, encoding="utf-8")
        self.mtime_ns += 10 * 10**9  # a distinct whole second, as a pyc header records it
        os.utime(self.source, ns=(self.mtime_ns, self.mtime_ns))

    def load(self) -> ModuleType:
        sys.modules.pop("cached_mod", None)
        importlib.invalidate_caches()
        return importlib.import_module("cached_mod")

    def value(self, label: str) -> str:
        return f"def tg(*args):\n    return args[0]\nVALUE = tg'{label}'\n"

    def pycache(self) -> list[str]:
        folder = self.root / "__pycache__"
        return sorted(p.name for p in folder.iterdir()) if folder.exists() else []

    @property
    def tag_pyc(self) -> Path:
        path = _importhook.tag_cache_path(str(self.source))
        assert path is not None
        return Path(path)

    @property
    def standard_pyc(self) -> Path:
        return Path(importlib.util.cache_from_source(str(self.source)))


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Env]:
    was_installed = _importhook._hook in sys.path_hooks
    tagstr_runtime.install()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    state = Env(tmp_path)
    real = _compile.desugar_ast

    def counting(*args: object, **kwargs: object) -> object:
        state.calls += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_compile, "desugar_ast", counting)
    yield state
    sys.modules.pop("cached_mod", None)
    if not was_installed:
        tagstr_runtime.uninstall()


def test_cache_file_name_and_reuse(env: Env) -> None:
    env.write(TAGGED)
    assert env.load().VALUE == "0"
    tag = sys.implementation.cache_tag
    assert env.pycache() == [f"cached_mod.{tag}.tagstr-{_fingerprint.fingerprint()}.pyc"]
    assert env.calls == 1
    assert env.load().VALUE == "0"
    assert env.calls == 1  # loaded from the cache
    module = env.load()
    assert module.__spec__.cached == str(env.standard_pyc)  # what the spec says, as for any module
    if sys.version_info < (3, 15):  # 3.15 stopped setting __cached__ (gh-65961)
        assert module.__cached__ == str(env.standard_pyc)


def test_source_edit_invalidates(env: Env) -> None:
    env.write(env.value("one"))
    assert env.load().VALUE == "one"
    env.write(env.value("two"))  # same size, new mtime
    assert env.load().VALUE == "two"
    assert env.calls == 2
    assert env.load().VALUE == "two"
    assert env.calls == 2


def test_desugarer_change_invalidates(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    env.write(TAGGED)
    env.load()
    monkeypatch.setattr(_fingerprint, "_cached", "0badc0de")
    assert env.load().VALUE == "0"
    assert env.calls == 2
    assert env.tag_pyc.name.endswith(".tagstr-0badc0de.pyc")
    assert len(env.pycache()) == 2


def test_module_that_loses_its_tag_strings(env: Env) -> None:
    env.write(TAGGED)
    env.load()
    env.write("VALUE = 'plain now'\n")
    assert env.load().VALUE == "plain now"
    assert env.standard_pyc.exists()
    env.write(env.value("tagged again"))  # a stale standard pyc must not shadow it
    assert env.load().VALUE == "tagged again"
    assert env.load().VALUE == "tagged again"
    assert env.calls == 2


def test_no_standard_pyc_for_tag_modules(env: Env) -> None:
    env.write(TAGGED)
    env.load()
    env.load()
    assert not env.standard_pyc.exists()


def test_dont_write_bytecode(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    env.write(TAGGED)
    assert env.load().VALUE == "0"
    assert env.load().VALUE == "0"
    assert env.pycache() == []
    assert env.calls == 2


def test_pycache_prefix(env: Env, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    prefix = tmp_path_factory.mktemp("prefix")
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    env.write(TAGGED)
    env.load()
    env.load()
    assert env.calls == 1
    assert env.pycache() == []
    assert env.tag_pyc.is_relative_to(prefix) and env.tag_pyc.exists()


def test_corrupt_cache_is_only_stale(env: Env) -> None:
    env.write(TAGGED)
    env.load()
    data = env.tag_pyc.read_bytes()
    env.tag_pyc.write_bytes(data[:16] + b"\x00garbage")
    assert env.load().VALUE == "0"
    env.tag_pyc.write_bytes(b"short")
    assert env.load().VALUE == "0"
    assert env.calls == 3
    assert env.load().VALUE == "0"
    assert env.calls == 3  # rewritten by the last desugaring


def test_hash_based_cache(env: Env) -> None:
    """A checked hash-based pyc (PEP 552) is validated by content, not by mtime."""
    env.write(TAGGED)
    env.load()
    data = env.tag_pyc.read_bytes()
    source_hash = importlib.util.source_hash(env.source.read_bytes())
    env.tag_pyc.write_bytes(data[:4] + (0b11).to_bytes(4, "little") + source_hash + data[16:])
    env.write(TAGGED)  # new mtime, same content
    assert env.load().VALUE == "0"
    assert env.calls == 1
    env.write(env.value("X"))  # same size, other content
    assert env.load().VALUE == "X"
    assert env.calls == 2


def test_fingerprint_is_computed_once_and_covers_version_and_sources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _fingerprint.fingerprint()
    assert len(first) == 8 and int(first, 16) >= 0
    computed: list[int] = []

    def compute() -> str:
        computed.append(1)
        return "x"

    monkeypatch.setattr(_fingerprint, "_compute", compute)
    assert _fingerprint.fingerprint() == first and computed == []
    monkeypatch.undo()
    assert _fingerprint._compute() == first
    monkeypatch.setattr(tagstr_runtime, "__version__", "9.9.9")
    assert _fingerprint._compute() != first
    monkeypatch.undo()
    real_stamp = _fingerprint._stamp

    def touched(path: str) -> tuple[int, int] | None:  # syntax/parser.py edited: a new time
        stamp = real_stamp(path)
        return (stamp[0], stamp[1] + 1) if stamp is not None and path.endswith("parser.py") else stamp

    monkeypatch.setattr(_fingerprint, "_stamp", touched)
    assert _fingerprint._compute() != first
    monkeypatch.undo()
    real_read = _fingerprint._read  # a zipped install (no times): the bytes
    monkeypatch.setattr(_fingerprint, "_stamp", lambda path: None)
    zipped = _fingerprint._compute()
    monkeypatch.setattr(
        _fingerprint, "_read",
        lambda path: (real_read(path) or b"") + (b"#" if path.endswith("syntax/parser.py") else b""),
    )
    assert _fingerprint._compute() != zipped
    monkeypatch.undo()
    monkeypatch.setattr("tagstr_runtime._rt.SPEEDUPS", 0 if _rt.SPEEDUPS else 1)  # the other form of code
    assert _fingerprint._compute() != first
    assert "syntax/parser.py" in _fingerprint.DESUGARER_FILES and "_rt.py" in _fingerprint.DESUGARER_FILES
    # the names are the package's files (the fingerprint once looked for them beside itself, in
    # desugarer/, found none and hashed the version alone)
    package = Path(tagstr_runtime.__file__).parent
    assert [name for name in _fingerprint.DESUGARER_FILES if not (package / name).is_file()] == []


@pytest.mark.subprocess
def test_cache_across_processes_and_stock_python(tmp_path: Path) -> None:
    (tmp_path / "tmod.py").write_text(TAGGED, encoding="utf-8")
    env = clean_env(TAGSTR_AUTOLOAD="0")
    hooked = [
        sys.executable,
        "-c",
        "import sys, tagstr_runtime; tagstr_runtime.install(); import tmod; "
        "print(tmod.VALUE, 'tagstr_runtime.desugarer.desugaring' in sys.modules)",
    ]
    first = subprocess.run(hooked, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert first.stdout == "0 True\n", first.stderr
    second = subprocess.run(hooked, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert second.stdout == "0 False\n", second.stderr  # the desugarer was not even imported
    stock = subprocess.run(
        [sys.executable, "-c", "import tmod"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert stock.returncode == 1 and "SyntaxError" in stock.stderr
    assert len(list((tmp_path / "__pycache__").iterdir())) == 1


@pytest.mark.subprocess
def test_fingerprint_covers_every_module_the_desugarer_uses() -> None:
    """Derived, not trusted: the modules a tag-string module's compile and run load
    must all be hashed, or a change to one would leave stale cached bytecode."""
    # a tag string in a function too: its hoisting reads the desugarer's scope index
    module = TAGGED + "SPEC = tg'{VALUE!r:>{3}}'\ndef later():\n    return tg'{VALUE}'\n"
    script = (
        "import sys, tagstr_runtime\n"
        "before = set(sys.modules)  # the package (and, where installed, its start-up hook)\n"
        "from tagstr_runtime.run import compile as _compile\n"
        f"code = _compile.compile_source({module!r}, 'm.py')\n"
        "exec(code, {})\n"
        # the other modes (eval: the table bound by the expression; single) and a spec with a
        # backslash (a RawSpec slot)
        "tg = lambda *args: args\n"
        "eval(_compile.compile_source(\"tg'{1:\\\\>3}{2!r}'\", '<e>', 'eval'), {'tg': tg})\n"
        "exec(_compile.compile_source(\"x = tg'{3}'\\n\", '<s>', 'single'), {'tg': tg})\n"
        "import os\n"
        "root = os.path.dirname(tagstr_runtime.__file__)\n"
        "new = sorted(m for m in set(sys.modules) - before if m.startswith('tagstr_runtime.'))\n"
        "print(' '.join(os.path.relpath(sys.modules[m].__file__, root).replace(os.sep, '/') for m in new))\n"
    )
    env = clean_env(TAGSTR_AUTOLOAD="0")
    ran = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    loaded = set(ran.stdout.split())  # paths in the package: "desugarer/generator.py", "desugarer/sites.py"
    assert "desugarer/generator.py" in loaded and "_rt.py" in loaded  # the check sees the desugarer
    assert {"desugarer/interpolation_call.py", "desugarer/scopes.py"} <= loaded  # the call's shape, the hoisting
    # the compiled _speedups: named by its ABI (_rt.SPEEDUPS), which the fingerprint hashes
    compiled = {path for path in loaded if path.startswith("_speedups.") and not path.endswith(".py")}
    assert loaded - compiled - set(_fingerprint.DESUGARER_FILES) <= {"desugarer/fingerprint.py"}, loaded


@pytest.mark.subprocess
def test_plain_modules_cost_no_file_system_call_each(tmp_path: Path) -> None:
    """Plain modules compiled from source (no standard pyc yet) with the hook
    installed: no probe for a cache of ours per module (one listing per
    ``__pycache__`` folder), and no fingerprint computed."""
    for index in range(30):
        (tmp_path / f"plain_{index}.py").write_text(f"VALUE = {index}\n", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "tmod.py").write_text(TAGGED, encoding="utf-8")
    script = (
        "import sys, tagstr_runtime\n"
        "tagstr_runtime.install()\n"
        "events = []\n"
        "sys.addaudithook(lambda event, args: events.append((event, str(args[0]))) "
        "if event in ('open', 'os.listdir') else None)\n"
        "for index in range(30):\n"
        "    __import__(f'plain_{index}')\n"
        "probes = [a for e, a in events if e == 'open' and '.tagstr-' in a]\n"
        "listings = [a for e, a in events if e == 'os.listdir' and a.endswith('__pycache__')]\n"
        "print(len(probes), len(listings), 'tagstr_runtime.desugarer.fingerprint' in sys.modules)\n"
        "import tmod\n"
        "print(tmod.VALUE)\n"
    )
    env = clean_env(TAGSTR_AUTOLOAD="0", PYTHONDONTWRITEBYTECODE="1")
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=60)
    assert ran.stdout.splitlines() == ["0 1 False", "0"], ran.stderr
