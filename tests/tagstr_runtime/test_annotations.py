"""Tag strings in annotations: kept as their own text under PEP 563, evaluated without it.

On 3.14+ (PEP 649) an annotation's STRING format is its source text too (issue 30).
"""

from __future__ import annotations

import __future__
import sys
import textwrap
import traceback
from typing import Any

import pytest

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


DEFERRED = textwrap.dedent('''\
    from typing import Annotated

    def doc(*args):
        calls.append(args)
        return args

    def f(a: Annotated[int, doc"a {b!r:>{w}}"], /, *rest: doc"{x}") -> list[doc"{x}"]:
        return a

    class C:
        v: Annotated[str, doc"outer {doc"inner {q}"}"] = "s"
        later: later_tag"{Later}"

    def g(x: later_tag"{x}" = 1): ...

    w = 3
    x: doc"m" = doc"runs {1 + 1}"
''')


@pytest.mark.skipif(sys.version_info < (3, 14), reason="annotations are evaluated on demand from 3.14 (PEP 649)")
def test_deferred_annotations_as_strings_are_the_source_text() -> None:
    """``annotationlib``'s STRING format, ``inspect.signature`` and ``help()`` show what the user
    wrote, not generated code; VALUE (and FORWARDREF where names are bound) are the tag's values."""
    import annotationlib
    import inspect
    import pydoc

    STRING, VALUE, FORWARDREF = annotationlib.Format.STRING, annotationlib.Format.VALUE, annotationlib.Format.FORWARDREF
    ns = run(DEFERRED)
    assert len(ns["calls"]) == 1  # the value only: annotations wait to be asked for
    f, C, g = ns["f"], ns["C"], ns["g"]
    assert annotationlib.get_annotations(f, format=STRING) == {
        "a": 'Annotated[int, doc"a {b!r:>{w}}"]', "rest": 'doc"{x}"', "return": 'list[doc"{x}"]',
    }
    assert annotationlib.get_annotations(C, format=STRING) == {
        "v": 'Annotated[str, doc"outer {doc"inner {q}"}"]', "later": 'later_tag"{Later}"',
    }
    assert annotationlib.call_annotate_function(ns["__annotate__"], STRING) == {"x": 'doc"m"'}
    # as for any annotation in the STRING format: quoted by str(), not by help()
    assert str(inspect.signature(g, annotation_format=STRING)) == "(x: 'later_tag\"{x}\"' = 1)"
    assert '*rest: doc"{x}") -> list[doc"{x}"]' in pydoc.render_doc(f, renderer=pydoc.plaintext)
    # the values as without the text: the tag called, its interpolations lazy, its specs formatted
    value = annotationlib.get_annotations(f, format=VALUE)
    decoded, interpolation = value["a"].__metadata__[0]
    assert (decoded, interpolation.expr, interpolation.conv, interpolation.format_spec) == ("a ", "b", "r", ">3")
    assert value["rest"][0].expr == "x" and value["return"].__origin__ is list
    # FORWARDREF: a bound tag gives its value; an unbound one a reference by its text
    assert annotationlib.get_annotations(f, format=FORWARDREF)["rest"][0].expr == "x"
    later = annotationlib.get_annotations(C, format=FORWARDREF)["later"]
    assert isinstance(later, annotationlib.ForwardRef) and later.__forward_arg__ == 'later_tag"{Later}"'
    with pytest.raises(NameError, match="later_tag") as info:
        annotationlib.get_annotations(C, format=VALUE)
    last = traceback.extract_tb(info.tb)[-1]  # at the tag's name, as the call would be
    line = DEFERRED.splitlines().index('    later: later_tag"{Later}"') + 1
    assert (last.lineno, last.colno, last.end_colno) == (line, 11, 20)
