"""``_rt.table``: the objects a desugared module passes, built once per module execution."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import tagstr_runtime
from tagstr_runtime import Decoded, Interpolation
from tagstr_runtime import _rt
from tagstr_runtime._rt import fields_table, table

SRC = Path(tagstr_runtime.__file__).resolve().parents[1]


def test_table_slots() -> None:
    built = table(("plain", "caf\u00e9\n"), ((1, "caf\\u00e9\\n"),))
    made = built[0]((len, "len", None, None))  # the class, or the compiled constructor (_speedups)
    assert type(made) is Interpolation and made == (len, "len", None, None)
    assert (built[0] is Interpolation) == (not _rt.SPEEDUPS)
    by_fields = fields_table(("plain",))[0](len, "len", "r", ">3")
    assert type(by_fields) is Interpolation and by_fields == (len, "len", "r", ">3")
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


def test_generic_and_protocol_names_at_run_time() -> None:
    """``Interpolation[int]`` subscripts like ``tuple[int]``; ``TagFunction`` and
    ``Conversion`` (built with ``typing`` when first asked for) are what they were."""
    import typing

    from tagstr_runtime import InterpolationConcrete, TagFunction
    from tagstr_runtime._types import Conversion

    alias = Interpolation[int]
    assert typing.get_origin(alias) is Interpolation and typing.get_args(alias) == (int,)
    made = alias((lambda: 1, "1", None, None))  # calling the alias builds the class's instance
    assert type(made) is Interpolation and made.expr == "1"
    assert issubclass(InterpolationConcrete, Interpolation) and issubclass(Interpolation, tuple)
    assert TagFunction.__qualname__ == "TagFunction" and TagFunction.__module__ == "tagstr_runtime._types"
    assert typing.get_origin(TagFunction[str]) is TagFunction
    assert typing.get_args(Conversion) == ("a", "r", "s")
    assert pickle.loads(pickle.dumps(TagFunction)) is TagFunction


@pytest.mark.subprocess
def test_cached_modules_import_no_typing(tmp_path: Path) -> None:
    """A program of cached tag-string modules pays for ``_rt`` and ``_types``, not for
    ``typing`` (about 10 ms) that its f-string twin would not import either."""
    (tmp_path / "tmod.py").write_text(
        "def tag(*args):\n    return args\nVALUE = tag'x{len}'\nN = tag'{VALUE!r:>3}'\n", encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TAGSTR_"))}
    env.update(PYTHONPATH=str(SRC), TAGSTR_AUTOLOAD="0")
    script = "import sys, tagstr_runtime; tagstr_runtime.install(); import tmod; print('typing' in sys.modules)"
    first = subprocess.run([sys.executable, "-S", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert first.stdout == "True\n", first.stderr  # the desugarer needs it
    second = subprocess.run([sys.executable, "-S", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=60)
    assert second.stdout == "False\n", second.stderr
