"""The shipped text form: plain Python that does what the import hook runs, on the same lines.

``ship(source)`` is what the build hooks (``tagstr_runtime.shipping``) put in
a wheel in place of a module with tag strings.  Like ``desugar()`` (the
readable form, ``desugarer.render``) it keeps every line where it was, so
tracebacks, coverage and debuggers point at the lines the author wrote; unlike
it, it builds what the runtime builds (``desugarer.emit.RuntimeEmitter``):

- the module's ``Decoded`` objects once per module execution, in a prologue
  (``from tagstr_runtime._rt import ...; __tagstr_<salt>_1__, ... =
  decoded(TEXTS, RAWS)``), each tag string then passing global names;
- a format spec with a backslash as a ``RawSpec`` (the bridge's ``t"..."`` text);
- typed, for a consumer's type checker: ``Interpolation`` is the class itself,
  ``decoded`` returns ``list[Decoded]``, so a tag string has its tag's type.

The prologue has no line of its own: it is appended to the docstring or the
last ``from __future__`` import, or written before the first statement on its
line, or on a blank or comment line above a first statement that is compound.
A module that offers none of those (a ``def`` on line 1) is shipped in the
readable form, which needs no prologue.

Inside an f-string, generated code carries no quote and no backslash (before
3.12 an f-string field may hold neither): its string constants are prologue
names there.  The module is parsed as Python 3.11-3.13 parse it (``t"..."`` is
a tag string): a tag named ``t``, ``tr`` or ``rt`` is refused (TAG001), since
3.14 reads it as a template string.

Not reproduced (docs/decisions/0209-the-shipped-form-is-the-runtimes-code.md): ``Interpolation`` objects the
runtime builds once (hoisting; the shipped code builds one per evaluation,
which no code can tell but by identity), and annotations under ``from
__future__ import annotations`` hold the call's text instead of the tag string's.
"""

from __future__ import annotations

import ast
import re

from tagstr_runtime.desugarer.desugaring import Desugaring, _salt
from tagstr_runtime.desugarer.emit import Position, TagCall, prologue_index, slot_name
from tagstr_runtime.desugarer.placeholder import splice
from tagstr_runtime.desugarer.render import Layout, ReadableEmitter, desugar
from tagstr_runtime.syntax.errors import error_at
from tagstr_runtime.syntax.escapes import spec_texts
from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.syntax.source import SourceText, decode_source

__all__ = ["RUNTIME_API", "ShippedEmitter", "ship"]

#: the module shipped code imports, and nothing else of ours
RUNTIME_API = "tagstr_runtime._rt"
#: a generated string constant not yet written: ``\0<index>\0`` (no source holds a NUL)
_MARK = re.compile("\0(\\d+)\0")
_TEMPLATE_PREFIXES = frozenset({"t", "tr", "rt"})
_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
    ast.With, ast.AsyncWith, ast.Try, ast.Match, *[getattr(ast, n) for n in ("TryStar",) if hasattr(ast, n)],
)
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def _span(tag: TagString) -> Span:
    return tag.span


class ShippedEmitter(ReadableEmitter):
    """The readable emitter's layout, with the runtime's objects: see the module docstring."""

    def __init__(self, text: str, salt: str) -> None:
        super().__init__(text)
        self.salt = salt
        self.interpolation_class = slot_name(0, salt)
        self.format_value_function = f"__tagstr_{salt}_format__"
        #: each Decoded slot's (cooked, raw), and each RawSpec slot's (raws, cooked, has fields)
        self.slots: list[tuple[str, str] | tuple[tuple[str, ...], tuple[str, ...] | str, bool]] = []
        self._slot_index: dict[object, int] = {}
        self.interpolations = 0
        self.format_values = 0
        #: the string constants written as ``\0<index>\0`` until their context is known:
        #: (text, is a conversion)
        self.constants: list[tuple[str, bool]] = []
        #: those that are prologue names (inside an f-string): (name, constant index)
        self.named: list[tuple[str, int]] = []

    # what the generated code reads -------------------------------------------------

    def _slot(self, entry: tuple[str, str] | tuple[tuple[str, ...], tuple[str, ...] | str, bool]) -> str:
        index = self._slot_index.get(entry)
        if index is None:
            self.slots.append(entry)
            index = self._slot_index[entry] = len(self.slots)
        return slot_name(index, self.salt)

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return self._record(ast.Constant(cooked), at, self._slot((cooked, raw)), at[0])

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        self.interpolations += 1
        return super().interpolation(field, value, spec, at)

    def literal(self, text: str) -> str:
        self.constants.append((text, False))
        return f"\0{len(self.constants) - 1}\0"

    def conversion(self, conv: str | None) -> str:
        if conv is None:
            return "None"
        self.constants.append((conv, True))
        return f"\0{len(self.constants) - 1}\0"

    def spec(self, layout: Layout, field: Field) -> None:
        """As the readable form's, but a spec with a backslash is a ``RawSpec`` (``_rt.raw_spec``)."""
        parts = field.spec
        if parts is None or not any(isinstance(part, Literal) and "\\" in part.raw for part in parts):
            super().spec(layout, field)
            return
        raws, cooked = spec_texts(parts)
        fields = [part for part in parts if not isinstance(part, Literal)]
        name = self._slot((raws, cooked, bool(fields)))
        if not fields:
            layout.put(name)
            return
        layout.put(f"{name}(")
        for index, part in enumerate(fields):
            self.formatted_field(layout, part, ", " if index else "")
        layout.put(")")

    def formatted_field(self, layout: Layout, part: Field, sep: str = "") -> None:
        self.format_values += 1
        super().formatted_field(layout, part, sep)

    def call(self, site: TagCall) -> ast.expr:
        node = super().call(site)
        if any(isinstance(step, (ast.JoinedStr, ast.FormattedValue)) for step in site.path):
            # in an f-string field: before 3.12 it may hold no quote and no backslash
            span = site.tag.span
            self.rendered[span] = _MARK.sub(self._named, self.rendered[span])
        return node

    def _named(self, match: re.Match[str]) -> str:
        name = f"__tagstr_{self.salt}_s{len(self.named) + 1}__"
        self.named.append((name, int(match[1])))
        return name

    def inline(self, text: str) -> str:
        """``text`` with the constants still marked written in place."""
        return _MARK.sub(lambda match: repr(self.constants[int(match[1])][0]), text)

    # the prologue -------------------------------------------------------------------

    def prologue(self) -> str:
        """One line of simple statements binding every name the module's generated code reads."""
        salt = self.salt
        imports: list[str] = []
        statements: list[str] = []
        if self.interpolations:
            imports.append(f"Interpolation as {slot_name(0, salt)}")
        decoded = [(index, entry) for index, entry in enumerate(self.slots, 1) if isinstance(entry[0], str)]
        if decoded:
            imports.append(f"decoded as __tagstr_{salt}__")
            targets = ", ".join(slot_name(index, salt) for index, _ in decoded)
            texts = tuple(entry[0] for _, entry in decoded)
            raws = tuple((position, entry[1]) for position, (_, entry) in enumerate(decoded) if entry[1] != entry[0])
            arguments = f"{texts!r}, {raws!r}" if raws else f"{texts!r}"
            statements.append(f"{targets}, = __tagstr_{salt}__({arguments})")
        for builder, has_fields in (("raw_spec", False), ("raw_spec_fields", True)):
            specs = [(index, entry) for index, entry in enumerate(self.slots, 1)
                     if not isinstance(entry[0], str) and entry[2] is has_fields]
            if specs:
                imports.append(f"{builder} as __tagstr_{salt}_{builder}__")
            for index, entry in specs:
                statements.append(f"{slot_name(index, salt)} = __tagstr_{salt}_{builder}__({entry[0]!r}, {entry[1]!r})")
        if self.format_values:
            imports.append(f"format_value as {self.format_value_function}")
        if self.named:
            values = []
            for _, index in self.named:
                text, is_conversion = self.constants[index]
                values.append(f"__tagstr_{salt}_conversion__({text!r})" if is_conversion else repr(text))
            if any(self.constants[index][1] for _, index in self.named):
                imports.append(f"conversion as __tagstr_{salt}_conversion__")
            targets = ", ".join(name for name, _ in self.named)
            statements.append(f"{targets}, = {', '.join(values)},")
        if not imports:
            return ""
        return "; ".join([f"from {RUNTIME_API} import {', '.join(imports)}", *statements])


def ship(source: str | bytes, filename: str = "<ship>") -> str:
    """The shipped plain-Python text of ``source`` (see the module docstring).

    A source without tag strings comes back unchanged (as decoded text).
    Malformed tag strings raise ``TagSyntaxError``, as at import.
    """
    text = decode_source(source)
    emitter = ShippedEmitter(text, _salt(text))
    work = Desugaring(text, filename, emitter=emitter, template_strings=False)
    if not work.tag_strings:
        return text
    _refuse_template_prefixes(work.tag_strings, work.source, filename)
    body = splice(text, work.tag_strings, _span, lambda tag: emitter.rendered[tag.span])
    body = emitter.inline(body)
    prologue = emitter.prologue()
    shipped = _with_prologue(body, prologue) if prologue else body
    if shipped is None:
        return desugar(source, template_strings=False)
    return shipped


def _refuse_template_prefixes(tags: tuple[TagString, ...], source: SourceText, filename: str) -> None:
    for outer in tags:
        for tag in outer.walk():
            if tag.name.lower() in _TEMPLATE_PREFIXES:
                raise error_at(
                    source, filename,
                    f"a tag named {tag.name!r} is a template string on Python 3.14 (TAG001): "
                    "rename the tag to ship this module",
                    tag.tag_span.start, tag.tag_span.end,
                )


def _with_prologue(body: str, prologue: str) -> str | None:
    """``body`` with ``prologue`` on one of its lines (see the module docstring), or ``None``."""
    tree = ast.parse(body)
    lines = body.split("\n")
    at = prologue_index(tree.body)
    if at:
        anchor = tree.body[at - 1]
        line, column = anchor.end_lineno or anchor.lineno, anchor.end_col_offset or 0
        text = lines[line - 1]
        cut = len(text.encode("utf-8")[:column].decode("utf-8"))
        lines[line - 1] = f"{text[:cut]}; {prologue}{text[cut:]}"
    elif not isinstance(tree.body[0], _COMPOUND):
        line = tree.body[0].lineno
        lines[line - 1] = f"{prologue}; {lines[line - 1]}"
    else:
        first = tree.body[0]
        decorators = getattr(first, "decorator_list", None) or [first]
        start = min(node.lineno for node in decorators)
        for line in range(start - 1, 0, -1):
            text = lines[line - 1]
            if (line == 1 and text.startswith("#!")) or (line <= 2 and _COOKIE.match(text)):
                return None
            if not text.strip() or text.lstrip().startswith("#"):
                lines[line - 1] = f"{prologue}  {text.lstrip()}".rstrip()
                break
        else:
            return None
    return "\n".join(lines)
