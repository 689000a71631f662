"""Tag strings in annotations: kept as their own text under PEP 563, evaluated without it."""

from __future__ import annotations

import __future__
import textwrap
from typing import Any

import tagstr_runtime

SOURCE = textwrap.dedent('''\
    from typing import Annotated

    def doc(*args):
        calls.append(args)
        return args

    def f(a: Annotated[int, doc"a {b!r:>{w}}"], /, *rest: doc"{x}") -> list[doc"{x}"]:
        y: doc"{z}" = 1
        return y

    class C:
        v: Annotated[str, doc"outer {doc"inner {q}"}"] = "s"

    x: doc"m" = doc"runs {1 + 1}"
''')


def run(source: str, flags: int = 0) -> dict[str, Any]:
    namespace: dict[str, Any] = {"calls": []}
    exec(tagstr_runtime.compile(source, "<annotations>", "exec", flags, dont_inherit=True), namespace)
    return namespace


def test_future_annotations_keep_the_source_text() -> None:
    ns = run("from __future__ import annotations\n" + SOURCE)
    assert ns["f"].__annotations__ == {
        "a": 'Annotated[int, doc"a {b!r:>{w}}"]', "rest": 'doc"{x}"', "return": 'list[doc"{x}"]',
    }
    assert ns["C"].__annotations__ == {"v": 'Annotated[str, doc"outer {doc"inner {q}"}"]'}
    assert ns["__annotations__"] == {"x": 'doc"m"'}
    assert len(ns["calls"]) == 1  # only the value: annotations are never evaluated
    assert ns["x"][1][0]() == 2


def test_inherited_future_flag() -> None:
    ns = run(SOURCE, __future__.annotations.compiler_flag)
    assert ns["__annotations__"] == {"x": 'doc"m"'}


def test_same_as_the_f_string_twin_outside_tag_strings() -> None:
    """The rest of an annotation is unparsed by CPython exactly as without tag strings."""
    plain = "from __future__ import annotations\nx: dict[ str,int ] = 1\ny: 'q' = 2\n"
    twin = run(plain + 'z: f"{x}" = 3\n')["__annotations__"]
    ours = run(plain + 'z: n"{x}" = 3\n')["__annotations__"]
    assert {k: ours[k] for k in ("x", "y")} == {k: twin[k] for k in ("x", "y")}
    assert (twin["z"], ours["z"]) == ("f'{x}'", 'n"{x}"')  # CPython unparses; the tag string is verbatim


def test_without_future_annotations_they_are_evaluated() -> None:
    ns = run("def doc(*args):\n    return args\n\ndef f(a: doc\"{1 + 1}\") -> doc\"r\": ...\n")
    hints = ns["f"].__annotations__
    assert hints["a"][0].getvalue() == 2 and hints["return"] == ("r",)
