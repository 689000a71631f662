"""Another plugin's hooks on a tag see a tag string as they see the call it stands for.

A second plugin (written here, loaded by a second ``plugins =`` entry) hooks
tags by their own names: a function hook, a function signature hook, and the
method and method signature hooks of an instance tag's ``__call__``.  Each tag
string is on the line before its hand-desugared call, and both lines must get
the same diagnostics (revealed type, the other plugin's errors) at the same
columns.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness import Diagnostic, diagnostics, run_mypy, write_config

pytestmark = pytest.mark.subprocess

OTHER = textwrap.dedent('''\
    from typing import Callable

    from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext, MethodSigContext, Plugin
    from mypy.types import FunctionLike, Type


    def counted(ctx: FunctionContext) -> Type:
        ctx.api.fail(f"other plugin saw {sum(map(len, ctx.args))} arguments", ctx.context)
        return ctx.api.named_generic_type("builtins.int", [])


    def as_bytes(ctx: MethodContext) -> Type:
        return ctx.api.named_generic_type("builtins.bytes", [])


    def returns_float(ctx: FunctionSigContext) -> FunctionLike:
        return ctx.default_signature.copy_modified(ret_type=ctx.api.named_generic_type("builtins.float", []))


    def returns_complex(ctx: MethodSigContext) -> FunctionLike:
        return ctx.default_signature.copy_modified(ret_type=ctx.api.named_generic_type("builtins.complex", []))


    class Other(Plugin):
        def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
            return counted if fullname in ("tags.special", "tags.generic") else None

        def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
            return returns_float if fullname == "tags.resigned" else None

        def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
            return as_bytes if fullname == "tags.Renderer.__call__" else None

        def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
            return returns_complex if fullname == "tags.Resigner.__call__" else None


    def plugin(version: str) -> type[Plugin]:
        return Other
''')

TAGS = textwrap.dedent('''\
    from typing import TypeVar

    from tagstr_runtime import Decoded, Interpolation

    T = TypeVar("T")


    def special(*args: Decoded | Interpolation[object]) -> str:
        return ""


    def generic(*args: Decoded | Interpolation[T]) -> T:
        raise NotImplementedError


    def resigned(*args: Decoded | Interpolation[object]) -> str:
        return ""


    class Renderer:
        def __call__(self, *args: Decoded | Interpolation[object]) -> str:
            return ""


    class Resigner:
        def __call__(self, *args: Decoded | Interpolation[object]) -> str:
            return ""


    render = Renderer()
    resign = Resigner()
''')

TAG_NAMES = ["special", "generic", "resigned", "render", "resign"]


def app() -> str:
    lines = ["from tagstr_runtime import Decoded, Interpolation", f"from tags import {', '.join(TAG_NAMES)}", ""]
    for tag in TAG_NAMES:
        lines.append(f'reveal_type({tag}"a {{1}}")')
        lines.append(f'reveal_type({tag}(Decoded("a "), Interpolation((lambda: 1, "1", None, None))))')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("parser", ["--native-parser", "--no-native-parser"])
def test_another_plugins_hooks_see_the_call(tmp_path: Path, parser: str) -> None:
    write_config(tmp_path)
    config = tmp_path / "mypy.ini"
    config.write_text(config.read_text(encoding="utf-8").replace("tagstr_mypy", "tagstr_mypy, other.py"))
    (tmp_path / "other.py").write_text(OTHER, encoding="utf-8")
    (tmp_path / "tags.py").write_text(TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(app(), encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", parser, "app.py", cwd=tmp_path)
    by_line: dict[int, list[tuple[int, str, str]]] = {}
    for d in diagnostics(proc):
        by_line.setdefault(d.line, []).append((d.column, d.severity, d.message))
    for index, tag in enumerate(TAG_NAMES):
        line = 4 + 2 * index
        assert by_line.get(line) == by_line.get(line + 1), (tag, by_line.get(line), by_line.get(line + 1))
    revealed = [m for line in sorted(by_line) for _, sev, m in by_line[line] if sev == "note"]
    assert revealed == [f'Revealed type is "{t}"' for t in ("int", "int", "float", "bytes", "complex") for _ in "ab"]


# Tags that mypy's bundled plugins (functools, attrs, dataclasses, enums, ctypes)
# and pydantic's hook: each called with an interpolation it accepts and one it does not
BUNDLED = textwrap.dedent('''\
    import ctypes
    import dataclasses
    import enum
    import functools

    import attrs
    import pydantic

    from tagstr_runtime import Decoded, Interpolation


    def with_prefix(prefix: str, *args: Decoded | Interpolation[int]) -> str:
        return prefix


    psql = functools.partial(with_prefix, "/* app */")


    @functools.singledispatch
    def dispatched(*args: Decoded | Interpolation[int]) -> str:
        return ""


    @attrs.define
    class AttrsTag:
        prefix: str

        def __call__(self, *args: Decoded | Interpolation[int]) -> str:
            return self.prefix


    @attrs.define(init=False)
    class AttrsPage:
        def __init__(self, *args: Decoded | Interpolation[int]) -> None:
            pass


    @dataclasses.dataclass
    class DataTag:
        prefix: str

        def __call__(self, *args: Decoded | Interpolation[int]) -> str:
            return self.prefix


    @dataclasses.dataclass(init=False)
    class DataPage:
        def __init__(self, *args: Decoded | Interpolation[int]) -> None:
            pass


    class Color(enum.Enum):
        RED = 1

        def __call__(self, *args: Decoded | Interpolation[int]) -> str:
            return ""


    class Model(pydantic.BaseModel):
        prefix: str = ""

        def __call__(self, *args: Decoded | Interpolation[int]) -> str:
            return self.prefix


    class ModelPage(pydantic.BaseModel):
        def __init__(self, *args: Decoded | Interpolation[int]) -> None:
            super().__init__()


    IntArray = ctypes.c_int * 3
    attrs_tag = AttrsTag("x")
    data_tag = DataTag("x")
    red = Color.RED
    model = Model()
''')
BUNDLED_TAGS = ["psql", "dispatched", "attrs_tag", "AttrsPage", "data_tag", "DataPage", "red", "model", "ModelPage",
                "IntArray"]


@pytest.mark.slow  # pydantic's plugin and attrs' stubs: about 6 s
def test_bundled_and_pydantic_hooks_give_the_calls_verdict(tmp_path: Path) -> None:
    pytest.importorskip("pydantic")
    pytest.importorskip("attrs")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = tagstr_mypy, pydantic.mypy\n", encoding="utf-8")
    (tmp_path / "tags.py").write_text(BUNDLED, encoding="utf-8")
    lines = ["from tagstr_runtime import Decoded, Interpolation", f"from tags import {', '.join(BUNDLED_TAGS)}",
             "n = 1", "s = 'x'"]
    for tag in BUNDLED_TAGS:
        for value in ("n", "s"):
            lines.append(f'reveal_type({tag}"a {{{value}}}")')
            lines.append(f'reveal_type({tag}(Decoded("a "), Interpolation((lambda: {value}, "{value}", None, ""))))')
    (tmp_path / "app.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", "app.py", cwd=tmp_path)
    by_line: dict[int, list[Diagnostic]] = {}
    for d in diagnostics(proc):
        by_line.setdefault(d.line, []).append(d)
    for line in range(5, 5 + 4 * len(BUNDLED_TAGS), 2):
        tag_string, call = by_line.get(line, []), by_line.get(line + 1, [])
        # the same type, and an error exactly where the hand-written call has one
        assert [d.message for d in tag_string if d.severity == "note"] == [
            d.message for d in call if d.severity == "note"
        ], lines[line - 1]
        assert any(d.severity == "error" for d in tag_string) == any(d.severity == "error" for d in call), (
            lines[line - 1], tag_string, call
        )
        # in tag-string terms: no generated lambda, no argument counted with the literal parts
        for d in tag_string:
            assert "lambda" not in d.message and "Callable[[]" not in d.message, d
            assert not d.message.startswith("Argument "), d
    # the interpolations the tags do not accept, reported as such (what each tag accepts, as the call's type)
    rejected = [d.message for d in diagnostics(proc) if d.message.startswith("Interpolation")]
    assert len(rejected) == len(BUNDLED_TAGS) - 1  # the ctypes array is no tag: its own errors
    assert all(message.startswith('Interpolation "{s}" has type "str"') and 'accepts "int"' in message
               for message in rejected), rejected
