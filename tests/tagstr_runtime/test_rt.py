"""``_rt.table``: the objects a desugared module passes, built once per module execution."""

from __future__ import annotations

import copy
import pickle

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation
from tagstr_runtime._rt import table


def test_table_slots() -> None:
    built = table(("plain", "caf\u00e9\n"), ((1, "caf\\u00e9\\n"),))
    assert built[0] is Interpolation
    plain, escaped = built[1:]
    assert type(plain) is Decoded and type(escaped) is Decoded
    assert (str(plain), plain.raw) == ("plain", "plain")
    assert (str(escaped), escaped.raw) == ("caf\u00e9\n", "caf\\u00e9\\n")
    assert type(plain.raw) is str and type(escaped.raw) is str


@pytest.mark.parametrize(("cooked", "raw"), [("plain", "plain"), ("caf\u00e9\n", "caf\\u00e9\\n"), ("", "\\\n")])
def test_a_table_slot_is_the_decoded_the_constructor_makes(cooked: str, raw: str) -> None:
    (made,) = table((cooked,), ((0, raw),) if raw != cooked else ())[1:]
    expected = Decoded(cooked, raw=raw)
    assert (made, made.raw, repr(made), hash(made)) == (expected, expected.raw, repr(expected), hash(expected))
    for clone in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
        assert type(clone) is Decoded and (str(clone), clone.raw) == (cooked, raw)
    with pytest.raises(AttributeError, match="immutable"):
        made.raw = "x"  # type: ignore[misc]


def test_decoded_of_a_module_run_once_per_execution() -> None:
    code = tagstr_runtime.compile("def tag(*a): return a\ndef f(): return tag'x'\nr = f()\n", "<m>", "exec")
    first: dict[str, object] = {}
    exec(code, first)
    assert first["f"]()[0] is first["r"][0]  # type: ignore[operator, index]
    second: dict[str, object] = {}
    exec(code, second)
    assert second["r"][0] is not first["r"][0]  # type: ignore[index]
