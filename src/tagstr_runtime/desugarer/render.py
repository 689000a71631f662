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

    html"<p>{user!r}</p>"   ->   html(
        __import__('tagstr_runtime').Decoded('<p>'),
        __import__('tagstr_runtime').Interpolation((lambda: user, 'user', 'r', None)),
        __import__('tagstr_runtime').Decoded('</p>'))

(all on the tag string's one line).

Interpolation expressions are copied as written (comments and line breaks
inside a field included), not re-generated, so the reader sees their code.
"""

from __future__ import annotations

import ast
import re

from tagstr_runtime.desugarer.desugaring import Desugaring
from tagstr_runtime.desugarer.emit import Emitter, Position, TagCall, located
from tagstr_runtime.desugarer.interpolation_call import write_interpolation
from tagstr_runtime.syntax.escapes import cook
from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.desugarer.placeholder import splice
from tagstr_runtime.syntax.source import SourceText, decode_source

__all__ = ["Layout", "ReadableEmitter", "desugar"]

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
        self.source = SourceText(text)
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
        layout = Layout(value.lineno)
        expression = self.expression(field)
        text, conv = self.literal(field.expr), self.conversion(field.effective_conv)
        write_interpolation(layout.put, self.interpolation_class, expression, text, conv,
                            lambda: self.spec(layout, field))
        return self._record(ast.Constant(None), at, layout.text(), value.lineno)

    # how names and constants are written (``desugarer.shipped`` writes them otherwise) -----

    interpolation_class = f"{RUNTIME}.Interpolation"
    format_value_function = f"{RUNTIME}.format_value"

    def literal(self, text: str) -> str:
        """A ``str`` constant the generated code passes (an expression's text, a spec's)."""
        return repr(text)

    def conversion(self, conv: str | None) -> str:
        return repr(conv)

    def call(self, site: TagCall) -> ast.expr:
        layout = Layout(site.at[0])
        layout.put(site.tag.tag + "(")
        for index, arg in enumerate(site.args):
            text, first = self._args.pop(id(arg))
            layout.put(text, first, ", " if index else "")
        layout.put(")", site.at[2])
        self.rendered[site.tag.span] = layout.text()
        return located(ast.Call(site.func, site.args, []), site.at)

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

    def spec(self, layout: Layout, field: Field) -> None:
        """The format spec as an expression: a constant, or what the f-string spec
        formats to, each piece on the line where it was written."""
        if field.spec is None:
            layout.put("None")
            return
        if all(isinstance(part, Literal) for part in field.spec):
            layout.put(self.literal("".join(part.raw for part in field.spec if isinstance(part, Literal))))
            return
        layout.put("(")
        sep = ""
        for part in field.spec:
            if isinstance(part, Literal):
                layout.put(self.literal(part.raw), self.line_of(part.span.start), sep)
            else:
                if part.debug is not None:
                    layout.put(self.literal(part.debug), self.line_of(part.span.start), sep)
                    sep = " + "
                self.formatted_field(layout, part, sep)
            sep = " + "
        layout.put(")")

    def formatted_field(self, layout: Layout, part: Field, sep: str = "") -> None:
        """A nested field of a format spec, formatted as an f-string formats it."""
        layout.put(f"{self.format_value_function}(", self.line_of(part.expr_span.start), sep)
        layout.put(self.expression(part))
        layout.put(f", {self.conversion(part.effective_conv)}, ")
        self.spec(layout, part)
        layout.put(")")

    def line_of(self, offset: int) -> int:
        return self.source.line_of(offset)


class Layout:
    """Text written piece by piece, each piece starting on a given line at the latest
    (newlines are added before it; the pieces' own newlines count)."""

    def __init__(self, line: int) -> None:
        self.line = line
        self._out: list[str] = []

    def put(self, text: str, line: int | None = None, sep: str = "") -> None:
        if line is not None and line > self.line:
            self._out.append(sep.rstrip() + "\n" * (line - self.line))
            self.line = line
        else:
            self._out.append(sep)
        self._out.append(text)
        self.line += text.count("\n")

    def text(self) -> str:
        return "".join(self._out)


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
