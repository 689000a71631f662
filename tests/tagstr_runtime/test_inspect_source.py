"""``inspect.getsource`` of classes in a module with tag strings (3.11/3.12 parse the whole file)."""

from __future__ import annotations

import importlib
import inspect
import sys
import textwrap
from pathlib import Path

import pytest

MODULE = textwrap.dedent('''\
    def tag(*args):
        return args


    GREETING = tag"Hello {1 + 1}"


    def decorate(cls):
        return cls


    @decorate
    class Page:
        title = tag"<h1>{GREETING}</h1>"

        class Inner:
            text = tag"{'inner'}"

        def render(self):
            return tag"{self.title}"
''')


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    name = f"inspected_{abs(hash(str(tmp_path)))}"
    (tmp_path / f"{name}.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    mod = importlib.import_module(name)
    yield mod
    sys.modules.pop(name, None)


def test_getsource_of_classes(module: object) -> None:
    page = module.Page  # type: ignore[attr-defined]
    lines = MODULE.splitlines(keepends=True)
    assert inspect.getsource(page) == "".join(lines[11:21])
    assert inspect.getsource(page.Inner) == "".join(lines[15:17])
    assert inspect.getsource(page.render) == "".join(lines[18:20])
    assert inspect.getsourcelines(page)[1] == 12


def test_plain_sources_keep_the_stock_answers(tmp_path: Path) -> None:
    assert inspect.getsource(inspect.Parameter).startswith("class Parameter:")
    with pytest.raises(SyntaxError) as info:
        inspect.ast.parse("x = (")  # type: ignore[attr-defined]
    assert "was never closed" in str(info.value)


@pytest.mark.subprocess
def test_inspect_imported_after_the_module(tmp_path: Path) -> None:
    """The usual order in a program: the tag-string module is imported first, inspect later."""
    import subprocess

    (tmp_path / "pages.py").write_text(MODULE, encoding="utf-8")
    code = "import pages, sys; assert 'inspect' not in sys.modules; import inspect; " \
           "print(inspect.getsource(pages.Page.Inner), end='')"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "".join(MODULE.splitlines(keepends=True)[15:17])), proc.stderr
