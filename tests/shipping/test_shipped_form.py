"""The shipped text form (``desugarer.shipped``): what a wheel carries in place of tag-string source.

Differential, against the import hook's own compilation of the same source:

- the same number of lines, every line without a tag string unchanged but the
  one that takes the prologue, each interpolation's expression on its line;
- it compiles with the builtin ``compile``, and on stock Python gives each tag
  exactly what the tag string gives it: values, texts, conversions, specs
  (``RawSpec`` where the runtime makes one), and the same ``Decoded`` objects
  at every evaluation, as the runtime's table does;
- the prologue finds a line in every shape of module, or the readable form is used;
- a source in another encoding keeps it; generated code inside an f-string has no
  quote and no backslash (it compiles on 3.11 whatever Python built it).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation
from tagstr_runtime.desugarer.shipped import ship
from tagstr_runtime.frontend import SourceText, TagSyntaxError, decode_source, parse
from tagstr_runtime.shipping.modules import ShipError, missing_runtime, shipped_module

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "_tagstr_parser_strategies", REPO / "tests" / "tagstr_runtime" / "parser" / "strategies.py"
)
assert _spec is not None and _spec.loader is not None
S = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = S
_spec.loader.exec_module(S)

SETUP = "x = 3\ny = 'why'\nname = 'Ada'\né = 1.5\n日本 = [1, 2]\n_ = 0\nvalue_2 = None\n"
PROLOGUE = "from tagstr_runtime._rt import "


def _tag_lines(text: str) -> set[int]:
    src = SourceText(text)
    lines: set[int] = set()
    for tag in parse(text, template_strings=False).tag_strings:
        lines.update(range(src.line_of(tag.span.start), src.line_of(tag.span.end) + 1))
    return lines


def assert_keeps_lines(source: str) -> str:
    text = decode_source(source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        out = ship(source)
    before, after = text.split("\n"), out.split("\n")
    assert len(after) == len(before), out
    touched = _tag_lines(text)
    for number, (old, new) in enumerate(zip(before, after), start=1):
        if number in touched:
            continue
        if new != old:  # only the prologue may join a line: the line is the old one around it
            start = new.find(PROLOGUE)
            assert start >= 0, (old, new)
            head = new[:start].removesuffix("; ")
            assert old.startswith(head) and new.endswith(old[len(head):].lstrip()), (old, new)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        compile(out, "<shipped>", "exec", dont_inherit=True)
    return out


def _no_address(text: str) -> str:
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def _describe(args: tuple[Any, ...]) -> list[tuple[object, ...]]:
    seen: list[tuple[object, ...]] = []
    for arg in args:
        if isinstance(arg, Decoded):
            seen.append(("D", str(arg), arg.raw, type(arg).__name__))
        else:
            assert type(arg) is Interpolation
            try:
                value: object = _no_address(repr(arg.getvalue()))
            except Exception as exc:  # noqa: BLE001 - the exception type is the result
                value = type(exc).__name__
            spec = arg.format_spec
            shown = spec if spec is None else (_no_address(spec), type(spec).__name__,
                                               getattr(spec, "_cooked", None))
            seen.append(("I", value, arg.expr, type(arg.expr).__name__, arg.conv, shown))
    return seen


def _run(code: Any) -> tuple[list[object], list[bool]]:
    """What ``tg`` received at each call, and whether each call's ``Decoded`` objects were
    the very ones of the first evaluation (the module is run twice in one namespace)."""
    calls: list[object] = []
    received: list[tuple[Any, ...]] = []

    def tg(*args: Any) -> None:
        received.append(args)
        calls.append(_describe(args))

    namespace: dict[str, Any] = {"tg": tg}
    exec(compile(SETUP, "<setup>", "exec"), namespace)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 - eager format specs may raise: same both ways
        calls.append(type(exc).__name__)
    first = list(received)
    received.clear()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)
    except Exception:  # noqa: BLE001
        pass
    same = [all(a is b for a, b in zip(one, two) if isinstance(a, Decoded)) for one, two in zip(first, received)]
    return calls, same


def assert_runs_the_same(source: str) -> None:
    out = assert_keeps_lines(source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        tagged = tagstr_runtime.compile(source, "<tagged>", "exec", dont_inherit=True)
        plain = compile(out, "<shipped>", "exec", dont_inherit=True)
    assert _run(plain) == _run(tagged)


@settings(max_examples=S.examples(120))
@given(S.bodies(), st.sampled_from((*S.CONTEXTS, ("class K:\n    v = ", ""))), st.booleans())
def test_generated_tag_strings(body: S.Body, context: tuple[str, str], docstring: bool) -> None:
    source = ('"""Doc."""\n' if docstring else "") + "a = 1  # before\n" + S.tag_source(body, "tg", context)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            tagstr_runtime.compile(source, "<tagged>", "exec", dont_inherit=True)
    except SyntaxError:
        assume(False)
    assert_runs_the_same(source)


SHAPES = {
    "docstring": '"""Doc."""\nv = tg"{x}"\n',
    "future import with comment": 'from __future__ import annotations  # c\nv = tg"{x}"\n',
    "first statement": 'import os; v = tg"{x}"\n',
    "multi-line": 'v = tg"""a\n{x\n + 1}\nb {y!r:>{x}}\n"""\nw = 1\n',
    "nested": 'v = tg"{tg\'{x}\'}"\n',
    "nested-in-spec": 'v = tg"{x:{tg\'{y}\'}}"\n',
    "debug": 'v = tg"{x = }{y=!s:>5}"\n',
    "escapes": 'v = tg"a\\n\\x41 {x} \\N{{BULLET}}"\n',
    "spec with an escape": 'v = tg"{x:\\x3e10}|{y!r:\\x3e{x}}"\n',
    "comment in field": 'v = tg"""{x  # the x\n}"""\n',
    "class body": "class K:\n    z = 1\n    v = tg'{x}'\n",
    "compound first, comment above": "# a comment\nif x:\n    v = tg'{x}'\n",
    "compound first, blank above": "\nfor _ in [1]:\n    v = tg'{x!r}'\n",
    "compound on line 1": "if x:\n    v = tg'{x!r}'\n",
    "decorated first": "\n@(lambda f: f)\ndef f(a=tg'{x}'):\n    return a\nv = f()\n",
    "in an f-string": "v = f'{tg\"q{name!r:>4} {x}\"}'\n",
    "in a triple-quoted f-string": "v = f'''{tg\"a{x\n+1}\"}'''\n",
    "non-ascii": "é2 = tg'é {é} 日本 {日本!a}'\n",
    "no tag string": "print('plain')\n",
    "empty tag string": "v = tg''\n",
}


@pytest.mark.parametrize("source", SHAPES.values(), ids=SHAPES.keys())
def test_shapes(source: str) -> None:
    assert_runs_the_same(source)


def test_the_prologue_line() -> None:
    assert ship('"""Doc."""\nv = tg"{x}"\n').split("\n")[0].startswith('"""Doc."""; from tagstr_runtime._rt import ')
    first = ship('import os\nv = tg"{x}"\n').split("\n")[0]
    assert first.startswith("from tagstr_runtime._rt import ") and first.endswith("; import os")
    assert ship("# c\nif x:\n    v = tg'{x}'\n").split("\n")[0].endswith("  # c")
    # no line for it: the readable form, which needs none
    assert "__import__('tagstr_runtime')" in ship("if x:\n    v = tg'{x}'\n")
    # a shebang and a coding cookie are never taken
    header = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nclass K:\n    v = tg'{x}'\n"
    assert ship(header).split("\n")[:2] == header.split("\n")[:2]


def test_template_prefixes_are_refused() -> None:
    with pytest.raises(TagSyntaxError, match="template string on Python 3.14"):
        ship('v = T"{x}"\n')
    if sys.version_info >= (3, 14):  # rt"..." is standard Python there: a module CPython compiles
        assert shipped_module(b'x = 1\nv = rt"{x}"\n', "m.py") is None
        return
    with pytest.raises(ShipError, match=r"m\.py:2:5: a tag named 'rt'"):
        shipped_module(b'x = 1\nv = rt"{x}"\n', "m.py")


def test_shipped_module_bytes() -> None:
    assert shipped_module(b"print('plain')\n", "m.py") is None
    assert shipped_module(b"match = (\n", "m.py") is None  # no tag string: left to CPython
    with pytest.raises(ShipError, match=r"m\.py:1:11: tag string: invalid conversion character"):
        shipped_module(b'v = tg"{x!z}"\n', "m.py")
    # a coding cookie is kept, with the bytes in that encoding
    source = '# -*- coding: latin-1 -*-\nv = tg"caf\\u00e9 é {x}"\n'.encode("latin-1")
    out = shipped_module(source, "m.py")
    assert out is not None and out.startswith(b"# -*- coding: latin-1 -*-\n") and "é".encode("latin-1") in out
    calls: list[tuple[Any, ...]] = []
    exec(compile(out, "m.py", "exec"), {"tg": lambda *a: calls.append(a), "x": 1})
    assert str(calls[0][0]) == "café é " and calls[0][0].raw == "caf\\u00e9 é "
    bom = b"\xef\xbb\xbf" + b'v = tg"{x}"\n'
    assert (shipped_module(bom, "m.py") or b"").startswith(b"\xef\xbb\xbf")


def test_the_runtime_dependency_is_named() -> None:
    assert missing_runtime(["tagstr-toolkit"]) is None
    assert missing_runtime(["Tagstr_Toolkit[mypy] >=0.1 ; python_version>'3.10'"]) is None
    assert "add \"tagstr-toolkit>=" in (missing_runtime(["requests", "tagstr-toolkitx"]) or "")


PY311 = Path.home() / ".pyenv" / "versions" / "3.11.7" / "bin" / "python"


@pytest.mark.subprocess
@pytest.mark.skipif(sys.version_info < (3, 12), reason="built on a newer Python, compiled on 3.11")
def test_code_inside_f_strings_compiles_on_311(tmp_path: Path) -> None:
    python = os.environ.get("TAGSTR_PYTHON311") or (str(PY311) if PY311.exists() else shutil.which("python3.11"))
    if not python:
        pytest.skip("needs a Python 3.11 (TAGSTR_PYTHON311)")
    shipped = ship("x, name = 1, 'n'\nv = f'{tg\"q{name!r:>4} {x:\\x3e3}\"}'\nw = f'''{tg\"{x\n+1}\"}'''\n")
    (tmp_path / "m.py").write_text(shipped, encoding="utf-8")
    done = subprocess.run([python, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", "m.py"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_ship_a_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tagstr_runtime.shipping.tree import main

    app = tmp_path / "app"
    (app / "pkg" / "__pycache__").mkdir(parents=True)
    (app / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (app / "pkg" / "views.py").write_text('x = 1\nv = tg"{x}"\n', encoding="utf-8")
    (app / "pkg" / "data.json").write_text("{}", encoding="utf-8")
    (app / "pkg" / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"stale")
    assert main(["--out", str(tmp_path / "out"), str(app)]) == 0
    out = tmp_path / "out" / "app" / "pkg"
    assert sorted(p.name for p in out.iterdir()) == ["__init__.py", "data.json", "views.py"]
    compile((out / "views.py").read_text(encoding="utf-8"), "views.py", "exec")
    assert capsys.readouterr().out == f"shipped {out / 'views.py'}\n"
    (app / "pkg" / "broken.py").write_text('v = tg"{x!z}"\n', encoding="utf-8")
    assert main(["--in-place", str(app)]) == 1
    assert "broken.py:1:11: tag string: invalid conversion" in capsys.readouterr().err
    compile((app / "pkg" / "views.py").read_text(encoding="utf-8"), "views.py", "exec")  # in place
