"""What a tag does with what it gets (``analysis.tag_reading``), shape by shape, and which
bindings of a name reach a read (``analysis.reaching``).

Each body is a tag of its own; the verdict is ``None`` (proven to read each
value once, in order, with nothing observable in between) or the kind of
shape that is not proven.  The differential corpus
(``test_migrate_differential.py``) shows what each kind changes in a program.
"""

from __future__ import annotations

import ast

import pytest

from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.reaching import reaching
from tagstr_runtime.analysis.tag_reading import reading

HEAD = """
import sys, html, contextvars
from tagstr_runtime import Decoded, Interpolation, accepts_template, format_value
LOG = []
var = contextvars.ContextVar("v")
def helper(v):
    return html.escape(str(v))
def noisy(v):
    print(v)
    return v
def checked(v):
    if v is None:
        raise ValueError("none")
    return v
def raw_of(d):
    return getattr(d, "raw")
"""

BODIES = [
    # proven
    pytest.param('return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)', None,
                 id="join of a generator"),
    pytest.param("return [a if isinstance(a, Decoded) else a.getvalue() for a in args]", None, id="a list"),
    pytest.param("out = []\nfor a in args:\n    if isinstance(a, Interpolation):\n"
                 "        out.append(helper(a.getvalue()))\n    else:\n        out.append(a)\n"
                 "return ''.join(out)", None, id="a loop with a quiet helper"),
    pytest.param("out = []\nfor a in args:\n    match a:\n        case Decoded() as d:\n            out.append(d)\n"
                 "        case Interpolation(getvalue, _, conv, spec):\n"
                 "            out.append(format_value(getvalue(), conv, spec))\n        case _:\n"
                 "            raise TypeError(a)\nreturn ''.join(out)", None, id="match, unreachable raise"),
    pytest.param("out = []\nfor a in args:\n    if isinstance(a, str):\n        out.append(a)\n    else:\n"
                 "        g, e, c, s = a\n        out.append(str(g()))\nreturn ''.join(out)", None, id="unpacking"),
    pytest.param("out = []\nfor i, a in enumerate(args):\n    if type(a) is Decoded:\n        continue\n"
                 "    out.append((i, a[0]()))\nreturn out", None, id="enumerate, type() is, continue"),
    # lazy
    pytest.param("return list(args)", "lazy", id="keeps its arguments"),
    pytest.param("for a in args:\n    yield a", "lazy", id="a generator"),
    pytest.param("return lambda: [a.getvalue() for a in args]", "lazy", id="a closure"),
    pytest.param("kept = []\nfor a in args:\n    kept.append(a)\nreturn kept", "lazy", id="appends each argument"),
    pytest.param("return [a.getvalue for a in args if isinstance(a, Interpolation)]", "lazy", id="keeps getvalue"),
    # order
    pytest.param("if not LOG:\n    return None\nreturn [a.getvalue() for a in args if isinstance(a, Interpolation)]",
                 "order", id="returns early"),
    pytest.param("return [a.getvalue() for a in args if isinstance(a, Interpolation) and a.conv]", "order",
                 id="filters"),
    pytest.param("return [a.getvalue() for a in reversed(args) if isinstance(a, Interpolation)]", "order",
                 id="reversed"),
    pytest.param("return [args[0].getvalue()]", "order", id="indexes"),
    pytest.param("return len(args)", "order", id="never reads"),
    pytest.param("out = []\nfor a in args:\n    if len(out) > 2:\n        break\n    if isinstance(a, Interpolation):\n"
                 "        out.append(a.getvalue())\nreturn out", "order", id="breaks"),
    pytest.param("a = [x.getvalue() for x in args if isinstance(x, Interpolation)]\n"
                 "b = [x.getvalue() for x in args if isinstance(x, Interpolation)]\nreturn a, b", "order", id="twice"),
    # observable
    pytest.param("out = []\nfor a in args:\n    if isinstance(a, str):\n        out.append(a)\n    else:\n"
                 "        try:\n            out.append(a.getvalue())\n        except Exception:\n"
                 "            out.append('?')\nreturn out", "observable", id="try around a read"),
    pytest.param("for a in args:\n    sys.stdout.write(a if isinstance(a, str) else str(a.getvalue()))",
                 "observable", id="writes between reads"),
    pytest.param("t = var.set(1)\nout = [a if isinstance(a, str) else a.getvalue() for a in args]\nvar.reset(t)\n"
                 "return out", "observable", id="sets a contextvar first"),
    pytest.param("return [a if isinstance(a, str) else noisy(a.getvalue()) for a in args]", "observable",
                 id="a helper that prints"),
    pytest.param("LOG.append(1)\nreturn [a if isinstance(a, str) else a.getvalue() for a in args]", "observable",
                 id="changes a global"),
    pytest.param('return [a if isinstance(a, str) else f"{len(LOG)}:{a.getvalue()}" for a in args]', "observable",
                 id="reads a global container its values may change"),
    pytest.param("return [a if isinstance(a, str) else checked(a.getvalue()) for a in args]", "raises",
                 id="a helper that raises"),
]


def _tag(body: str) -> str:
    indented = "".join(f"    {line}\n" for line in body.splitlines())
    return HEAD + "@accepts_template\ndef tag(*args):\n" + indented


@pytest.mark.parametrize(("body", "kind"), BODIES)
def test_the_shape_of_a_tag_body(body: str, kind: str | None) -> None:
    module = ModuleAnalysis.read(_tag(body), "<tag>", name="m")
    resolver = TagResolver(every_binding=True)
    node = next(n for n in module.tree.body if isinstance(n, ast.FunctionDef) and n.name == "tag")  # type: ignore
    found = reading(resolver.definition(module, node, "tag"), resolver)
    assert (found.unproven.kind if found.unproven else None) == kind, found.unproven


@pytest.mark.parametrize(("body", "raw", "expr"), [
    pytest.param("return [raw_of(a) if isinstance(a, str) else a.getvalue() for a in args]", True, False,
                 id=".raw in a helper, through getattr"),
    pytest.param("return [a if isinstance(a, str) else a.getvalue() for a in args]", True, False,
                 id="a Decoded let out"),
    pytest.param('return "".join(a if isinstance(a, str) else str(a.getvalue()) for a in args)', False, False,
                 id="joined"),
    pytest.param("out = []\nfor a in args:\n    match a:\n        case str():\n            out.append(a)\n"
                 "        case g, e, _, _:\n            out.append(f'{e}={g()}')\nreturn ''.join(out)", False, True,
                 id="expr from a sequence pattern"),
])
def test_what_a_tag_reads_of_its_parts(body: str, raw: bool, expr: bool) -> None:
    module = ModuleAnalysis.read(_tag(body), "<tag>", name="m")
    resolver = TagResolver(every_binding=True)
    node = next(n for n in module.tree.body if isinstance(n, ast.FunctionDef) and n.name == "tag")  # type: ignore
    found = reading(resolver.definition(module, node, "tag"), resolver)
    assert (found.reads_raw, found.reads_expr) == (raw, expr)


REACHING = [
    pytest.param("def tag(): pass\ntag = wrap(tag)\nx = tag", [2], id="a later unconditional binding replaces"),
    pytest.param("if c:\n    def tag(): pass\nelse:\n    def tag(): pass\nx = tag", [2, 4], id="both branches"),
    pytest.param("try:\n    from lib import tag\nexcept ImportError:\n    def tag(): pass\nx = tag", [2, 4],
                 id="a fallback import"),
    pytest.param("def tag(): pass\ndef f():\n    return tag\nprint(f())\ntag = 1", [1, 5],
                 id="a function sees a later rebinding"),
    pytest.param("def tag(): pass\ndef f():\n    return tag\ntag = accepts_template(tag)", [4],
                 id="no call in between: only the last"),
    pytest.param("def tag(): pass\ndef f():\n    return tag\ntag = wrap(tag)", [1, 4],
                 id="an unknown call in between: both"),
    pytest.param("def tag(): pass\nfor i in range(2):\n    x = tag\n    tag = 2", [1, 4], id="a loop's next pass"),
    pytest.param("from lib import *\ndef tag(): pass\nx = tag", [2], id="a star import replaced"),
    pytest.param("def tag(): pass\nfrom lib import *\nx = tag", [1, 2], id="a star import after"),
    pytest.param("def tag(): pass\ndef g():\n    global tag\n    tag = 3\nx = tag", [1, 4],
                 id="a global rebinding in a function"),
]


@pytest.mark.parametrize(("source", "lines"), REACHING)
def test_the_bindings_that_reach_a_read(source: str, lines: list[int]) -> None:
    module = ModuleAnalysis.read(source, "<reach>")
    reads = [n for n in ast.walk(module.tree) if isinstance(n, ast.Name) and n.id == "tag"
             and isinstance(n.ctx, ast.Load)]
    read = max(reads, key=lambda n: (n.lineno, n.col_offset)) if "return tag" not in source else next(
        n for n in reads if n.col_offset == 11)
    assert [b.line for b in reaching(module, read.lineno, read.col_offset)] == lines
