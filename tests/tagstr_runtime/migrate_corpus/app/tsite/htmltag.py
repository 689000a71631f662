"""Generates code that builds a DOM: the template is compiled once per shape, then called with the args."""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Callable

TAG = re.compile(r"<(/?)(\w+)([^>]*)>")


def _code(shape: tuple[str | int, ...]) -> str:
    """``compiled(vdom, *args)``: nested ``vdom(tag, attributes, children)`` calls; each
    interpolation ``args[i][0]()``, read when the compiled function runs."""
    lines = ["def compiled(vdom, /, *args):", "    stack = [('root', {}, [])]"]
    for index, part in enumerate(shape):
        if not isinstance(part, str):
            lines.append(f"    stack[-1][2].append(args[{index}][0]())")
            continue
        pos = 0
        for match in TAG.finditer(part):
            text = part[pos : match.start()].strip()
            if text:
                lines.append(f"    stack[-1][2].append({text!r})")
            closing, name, attributes = match.groups()
            if closing:
                lines.append("    tag, attrs, children = stack.pop()")
                lines.append("    stack[-1][2].append(vdom(tag, attrs, children))")
            else:
                pairs = dict(re.findall(r"(\w+)=\"?(\w+)\"?", attributes))
                lines.append(f"    stack.append(({name!r}, {pairs!r}, []))")
            pos = match.end()
        tail = part[pos:].strip()
        if tail:
            lines.append(f"    stack[-1][2].append({tail!r})")
    lines.append("    return stack[0][2]")
    return "\n".join(lines)


@cache
def make_compiled_template(*shape: str | int) -> Callable[..., Any]:
    print(f"compiling a template of {len(shape)} parts")
    namespace: dict[str, Any] = {}
    exec(compile(_code(shape), "<template>", "exec"), namespace)
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
