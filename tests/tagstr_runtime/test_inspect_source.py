"""``inspect.getsource``/``getsourcelines`` and pdb's ``ll``/``list`` in modules with tag strings.

3.11/3.12 parse the whole file to find a class; every version tokenizes a
block to find its end, which tag strings with a field spanning lines or a
quote in a field broke (issue 30).
"""

from __future__ import annotations

import importlib
import inspect
import io
import os
import pdb
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

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


# Every kind of field the stock tokenizer misreads, in functions, lambdas and classes.  Each object
# ends right before a line "# end <name>"; TWIN is the same module with f-strings, line for line.
FIELDS = textwrap.dedent('''\
    def show(*args):
        return args


    def keep(function):
        return function


    xs = ["a", "b"]
    q = 1


    def multi_line():
        return show"{q} and {
    q}"
    # end multi_line


    def quotes():
        return show"{'"'.join(xs)}"
    # end quotes


    def nested():
        return show"<{show"{'"'}{
    q}"}>"
    # end nested


    def commented():
        s = show"{q  # a comment
    }"
        return s
    # end commented


    lam_multi = lambda: show"{q} and {
    q}"
    # end lam_multi
    lam_quotes = lambda: show"{'"'.join(xs)}"
    # end lam_quotes


    @keep
    def decorated():
        return show"""{
    q # }
    }"""
    # end decorated


    class Page:
        title = show"{'"'.join(xs)} {
    q}"

        def render(self):
            return show"{q
    }" + show"{'"'}"
        # end render
    # end Page


    def after():
        return show"{'"'}"
    # end after
''')
TWIN = FIELDS
for _tag, _twin in [
    ('return show"{q} and {\nq}"', 'return show(f"{q} and {\nq}")'),
    ('lambda: show"{q} and {\nq}"', 'lambda: show(f"{q} and {\nq}")'),
    ('show"{\'"\'.join(xs)}"', 'show(f"{\'"\'.join(xs)}")'),
    ('show"<{show"{\'"\'}{\nq}"}>"', 'show(f"<{show(f"{\'"\'}{\nq}")}>")'),
    ('show"{q  # a comment\n}"', 'show(f"{q  # a comment\n}")'),
    ('show"""{\nq # }\n}"""', 'show(f"""{\nq # }\n}""")'),
    ('show"{\'"\'.join(xs)} {\nq}"', 'show(f"{\'"\'.join(xs)} {\nq}")'),
    ('show"{q\n}" + show"{\'"\'}"', 'show(f"{q\n}") + show(f"{\'"\'}")'),
    ('return show"{\'"\'}"\n# end after', 'return show(f"{\'"\'}")\n# end after'),
]:
    assert _tag in TWIN, _tag
    TWIN = TWIN.replace(_tag, _twin)
NAMES = ["multi_line", "quotes", "nested", "commented", "lam_multi", "lam_quotes", "decorated", "Page", "after"]


def expected_lines(name: str, start: str) -> tuple[list[str], int]:
    """``getsourcelines``' answer: the lines from the one starting with ``start`` to the end marker."""
    lines = FIELDS.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith(start))
    last = next(i for i, line in enumerate(lines) if line.strip() == f"# end {name}")
    return lines[first:last], first + 1


STARTS = {"lam_multi": "lam_multi =", "lam_quotes": "lam_quotes =", "decorated": "@keep",
          "Page": "class Page", "render": "def render"}


def objects(mod: Any) -> dict[str, Any]:
    found = {name: getattr(mod, name) for name in NAMES}
    found["render"] = mod.Page.render
    return found


def load(tmp_path: Path, name: str, text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    module = importlib.import_module(name)
    monkeypatch.setitem(sys.modules, name, module)  # removed again after the test
    return module


@pytest.fixture
def fields(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    return load(tmp_path, f"fields_{abs(hash(str(tmp_path)))}", FIELDS, monkeypatch)


def test_getsourcelines_with_every_kind_of_field(fields: Any) -> None:
    for name, obj in objects(fields).items():
        start = STARTS.get(name, f"def {name}")
        assert inspect.getsourcelines(obj) == expected_lines(name, start), name
        assert inspect.getsource(obj) == "".join(expected_lines(name, start)[0]), name


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the f-string twin needs PEP 701 (3.12+)")
def test_getsourcelines_as_for_the_fstring_twin(tmp_path: Path, fields: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The twin has the same lines: every object has the same first line and line count."""
    twin = load(tmp_path, f"twin_{abs(hash(str(tmp_path)))}", TWIN, monkeypatch)
    ours, theirs = objects(fields), objects(twin)
    for name in ours:
        lines, first = inspect.getsourcelines(ours[name])
        twin_lines, twin_first = inspect.getsourcelines(theirs[name])
        assert (first, len(lines)) == (twin_first, len(twin_lines)), name


def test_lines_of_no_known_file() -> None:
    """Plain lines get the stock answer; lines the stock tokenizer fails on are read masked."""
    import tagstr_runtime

    tagstr_runtime.compile('show"{1}"\n', "<patches inspect>", "exec")
    lines = ['def f():\n', '    return "it\'s"\n', '\n', 'x = 1\n']
    assert inspect.getblock(lines) == lines[:2]
    lines = ['def f():\n', '    return show"{q} and {\n', 'q}"\n', 'x = 1\n']
    assert inspect.getblock(lines) == lines[:3]
    assert inspect.getsource(inspect.getblock).startswith("def getblock(lines):")  # the stdlib's


def run_pdb(function: Callable[[], object], commands: str) -> str:
    out = io.StringIO()
    debugger = pdb.Pdb(stdin=io.StringIO(commands), stdout=out, nosigint=True)
    debugger.use_rawinput = False
    debugger.runcall(function)
    return out.getvalue()


@pytest.mark.parametrize("name", ["multi_line", "quotes", "nested", "commented", "lam_multi", "lam_quotes", "render"])
def test_pdb_longlist_and_list(fields: Any, name: str) -> None:
    """``ll`` prints the function (it went post-mortem on the tokenizer's error); ``list`` its lines."""
    function = fields.Page().render if name == "render" else getattr(fields, name)
    printed = run_pdb(function, "ll\nlist\ncontinue\n")
    start = STARTS.get(name, f"def {name}")
    lines, first = expected_lines(name, start)
    for number, line in enumerate(lines, first):
        assert f"{number:>3}" in printed and line.rstrip() in printed, (name, line)
    assert printed.count(lines[-1].rstrip()) >= 2, printed  # by ll and by list
    assert "Traceback" not in printed and "TokenError" not in printed


@pytest.mark.subprocess
def test_a_module_loaded_from_the_import_hooks_cache(tmp_path: Path) -> None:
    """No desugaring then (the code object is read back): inspect is made to read it all the same."""
    (tmp_path / "cached_fields.py").write_text(FIELDS, encoding="utf-8")
    env = {**os.environ}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    code = ("import cached_fields, inspect; "
            "print(repr(inspect.getsource(cached_fields.quotes)), repr(inspect.getsource(cached_fields.Page)))")
    runs = [subprocess.run([sys.executable, "-v", "-c", code], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    cached = [line for line in runs[1].stderr.splitlines() if "cached_fields" in line and "tagstr-" in line]
    assert cached and "matches" in cached[0], runs[1].stderr[-2000:]
    quotes, page = expected_lines("quotes", "def quotes")[0], expected_lines("Page", "class Page")[0]
    expected = f"{''.join(quotes)!r} {''.join(page)!r}"
    for run in runs:
        assert (run.returncode, run.stdout.strip()) == (0, expected), run.stderr[-2000:]
