"""The readable text form of a source with tag strings (``desugar()``, ``--desugar``).

The promise: the output has exactly as many lines as the input, every line
that holds no tag string is byte-identical (a shebang and a coding cookie
stay on lines 1-2), each part of a tag string stays on its line, and the
output runs on stock Python with the same result.  Tools that re-read source
(coverage, doctest, stubgen...) can be given it.

So there is no prologue line: each tag string is written in place as the
call it evaluates to, reaching the runtime through ``__import__``, which is
valid in every scope (a class body, a default, a decorator) and binds no
name::

    html"<p>{user!r}</p>"   ->
    html(__import__('tagstr_runtime').Decoded('<p>'), __import__('tagstr_runtime').Interpolation((lambda: user, 'user', 'r', None)), __import__('tagstr_runtime').Decoded('</p>'))

Interpolation expressions are copied as written (comments and line breaks
inside a field included), not re-generated, so the reader sees their code.
"""

from __future__ import annotations

import ast
import re
from typing import Sequence

from tagstr_runtime._desugaring import Desugaring
from tagstr_runtime._emit import Emitter, Position, located
from tagstr_runtime._escapes import cook
from tagstr_runtime._model import Field, Literal, Span, TagString
from tagstr_runtime._placeholder import splice
from tagstr_runtime._source import decode_source

__all__ = ["ReadableEmitter", "desugar"]

RUNTIME = "__import__('tagstr_runtime')"
_SIMPLE = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")


def _span(tag: TagString) -> Span:
    return tag.span


class ReadableEmitter(Emitter):
    """Records, for each tag string, the text of its call (``rendered``, by span).

    The tree it returns is never compiled; it only carries the positions.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.rendered: dict[Span, str] = {}
        self._args: dict[int, tuple[str, int]] = {}  # id(node) -> (text, first line)

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        try:
            exact = cook(raw) == cooked
        except ValueError:
            exact = False
        args = repr(raw) if exact else f"{cooked!r}, raw={raw!r}"
        return self._record(ast.Constant(cooked), at, f"{RUNTIME}.Decoded({args})", at[0])

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        text = (
            f"{RUNTIME}.Interpolation((lambda: {self.expression(field)}, {field.expr!r}, "
            f"{field.effective_conv!r}, {self.spec(field)}))"
        )
        first_line = value.lineno
        return self._record(ast.Constant(None), at, text, first_line)

    def call(
        self,
        tag: TagString,
        func: ast.Name,
        args: list[ast.expr],
        at: Position,
        path: Sequence[ast.AST],
        enclosing: Field | None,
    ) -> ast.expr:
        line, end_line = at[0], at[2]
        out = [tag.tag, "("]
        for index, arg in enumerate(args):
            text, first = self._args.pop(id(arg))
            if first > line:
                out.append("," * bool(index) + "\n" * (first - line))
                line = first
            elif index:
                out.append(", ")
            out.append(text)
            line += text.count("\n")
        out.append("\n" * max(end_line - line, 0) + ")")
        self.rendered[tag.span] = "".join(out)
        return located(ast.Call(func, args, []), at)

    # -------------------------------------------------------------------------------

    def _record(self, node: ast.expr, at: Position, text: str, first_line: int) -> ast.expr:
        self._args[id(node)] = (text, first_line)
        return located(node, at)

    def expression(self, field: Field) -> str:
        """The field's expression as written, its nested tag strings rendered,
        parenthesised unless it is a (dotted) name."""
        span = field.expr_span
        expr = splice(self.text, field.nested, _span, lambda t: self.rendered[t.span], span.start, span.end)
        return expr if _SIMPLE.fullmatch(expr) else f"({expr})"

    def spec(self, field: Field) -> str:
        """The format spec as an expression: a constant, or what the f-string spec formats to."""
        if field.spec is None:
            return "None"
        if all(isinstance(part, Literal) for part in field.spec):
            return repr("".join(part.raw for part in field.spec if isinstance(part, Literal)))
        pieces: list[str] = []
        for part in field.spec:
            if isinstance(part, Literal):
                pieces.append(repr(part.raw))
                continue
            if part.debug is not None:
                pieces.append(repr(part.debug))
            inner = self.spec(part)
            pieces.append(
                f"{RUNTIME}.format_value({self.expression(part)}, {part.effective_conv!r}, {inner})"
            )
        return "(" + " + ".join(pieces) + ")"


def desugar(source: str | bytes, *, template_strings: bool | None = None) -> str:
    """The readable plain-Python text of ``source``: same lines, runs on stock Python."""
    text = decode_source(source)
    emitter = ReadableEmitter(text)
    work = Desugaring(
        text, "<desugar>", emitter=emitter, template_strings=template_strings, emit_warnings=False
    )
    if not work.tag_strings:
        return text
    return splice(text, work.tag_strings, _span, lambda tag: emitter.rendered[tag.span])
