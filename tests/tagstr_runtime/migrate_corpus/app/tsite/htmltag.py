"""Generates code that builds a DOM: the template is compiled once per shape, then called with the args."""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from typing import Any, Callable

ENDS_WITH_ATTRIBUTE_KEY = re.compile(r"\s+(\S+)=$")


class DomCodeGenerator(HTMLParser):
    def __init__(self) -> None:
        self.lines = ["def compiled(vdom, /, *args):", "  return \\"]
        self.attrs: list[str] = []
        self.stack: list[str] = []
        super().__init__()

    def indent(self) -> str:
        return "  " * (len(self.stack) + 2)

    @property
    def code(self) -> str:
        return "\n".join(self.lines)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        code = [repr(dict(attrs)), *self.attrs]
        self.attrs = []
        self.lines.append(f"{self.indent()}vdom({tag!r}, {'|'.join(code)}, [")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.stack.pop()
        self.lines.append(f"{self.indent()}]){',' if self.stack else ''}")

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.lines.append(f"{self.indent()}{data!r},")

    def add_interpolation(self, index: int) -> None:
        if not self.rawdata:
            self.lines.append(f"{self.indent()}args[{index}][0](), ")
        elif match := ENDS_WITH_ATTRIBUTE_KEY.search(self.rawdata):
            self.attrs.append(f"{{{match.group(1)!r}: args[{index}][0]()}}")
        else:
            self.attrs.append(f"args[{index}][0]()")


@cache
def make_compiled_template(*shape: str | int) -> Callable[..., Any]:
    print(f"compiling a template of {len(shape)} parts")
    builder = DomCodeGenerator()
    for index, part in enumerate(shape):
        if isinstance(part, str):
            builder.feed(part)
        else:
            builder.add_interpolation(index)
    namespace: dict[str, Any] = {}
    exec(compile(builder.code, "<template>", "exec"), namespace)
    return namespace["compiled"]


def shape_of(*args: Any) -> tuple[str | int, ...]:
    return tuple(arg if isinstance(arg, str) else 0 for arg in args)


def make_html_tag(vdom: Callable[..., Any]) -> Callable[..., Any]:
    from tagstr_runtime import accepts_template

    @accepts_template
    def html(*args: Any) -> Any:
        compiled = make_compiled_template(*shape_of(*args))
        return compiled(vdom, *args)

    return html


def vdom(tag: str, attributes: dict[str, Any] | None, children: list[Any] | None) -> dict[str, Any]:
    node: dict[str, Any] = {"tag": tag}
    if attributes:
        node["attributes"] = attributes
    if children:
        node["children"] = children
    return node


html = make_html_tag(vdom)
