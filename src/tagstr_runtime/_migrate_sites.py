"""One module's tag strings rewritten as ``tag(t"...")``, or the reasons they are kept.

Pure: text in, ``Migration`` out.  Each tag string is judged on its own
(nested ones too); one that cannot keep its behaviour as a t-string stays a
tag string and gets a ``Flag`` per reason, with a ``MIG`` code (table in
``docs/python314.md``).  Everything outside migrated tag strings is copied
byte for byte, and a migrated tag string keeps its body's text except for
``\\N{{NAME}}``, which a t-string spells ``\\N{NAME}``.
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, NamedTuple

from tagstr_runtime._migrate_scan import ModuleScan, scan
from tagstr_runtime._migrate_tags import CLASS, FUNCTION, UNKNOWN, Answers, TagFacts, answers, verdicts
from tagstr_runtime._model import Field, Literal, Span, TagString
from tagstr_runtime._parser import parse
from tagstr_runtime._placeholder import splice

__all__ = ["MESSAGES", "NO_OPTIONS", "Flag", "Migration", "Note", "Options", "migrate_text"]

MESSAGES = {
    "MIG001": "tag {!r} may read its values after it returns ({}); a t-string evaluates them at once{}",
    "MIG002": "tag {!r} reads .raw and this text has escapes; a template keeps one text "
              "({} keeps the source text, as rt\"...\")",
    "MIG003": "'\\N{{{}}}' is '\\N' and an interpolation in a tag string, a named character in a t-string "
              "(the character is '\\N{{{{{}}}}}' in a tag string)",
    "MIG004": "{!r} is bound in the class body: a tag string's interpolation cannot see it, a t-string's can",
    "MIG005": "assignment expression in an interpolation: it binds inside the tag string's closure, "
              "in the enclosing scope in a t-string",
    "MIG006": "super() without arguments fails in a tag string's interpolation and works in a t-string",
    "MIG007": "this tag string is inside an '=' field, whose text would change",
    "MIG008": "nested format-spec fields run before the values in a tag string, in source order in a t-string, "
              "and this tag string calls functions",
    "MIG009": "tag {!r} ({}) takes no template: {}",
    "MIG010": "backslash in a format spec: kept as written in a tag string, an escape in a t-string",
    "MIG011": "tag {!r} is unknown ({}): nothing says whether it {}; if it does, {}",
    "MIG012": "{}",
}

_NAMED_ESCAPE_DOUBLED = re.compile(r"(?<!\\)((?:\\\\)*)\\N\{\{([^{}\n]*)\}\}")


class Options(NamedTuple):
    """What the command line says about tags, each a set of qualified names (``pkg.tags.html``)."""

    lazy_tags: frozenset[str] = frozenset()
    eager_tags: frozenset[str] = frozenset()
    template_tags: frozenset[str] = frozenset()
    raw_tags: frozenset[str] = frozenset()


class Flag(NamedTuple):
    code: str
    offset: int  # where, in the original text
    message: str


class Note(NamedTuple):
    """Something the migration says that is not a reason to keep a tag string."""

    offset: int
    message: str


class Migration(NamedTuple):
    text: str
    migrated: int  # tag strings rewritten
    flags: tuple[Flag, ...]
    notes: tuple[Note, ...]
    kept: int = 0  # tag strings kept (each with one flag or more)
    answered: frozenset[str] = frozenset()  # the options' qualified names that matched a tag here


NO_OPTIONS = Options()


def migrate_text(
    text: str, filename: str = "<unknown>", options: Options = NO_OPTIONS, *, module: str = "__main__"
) -> Migration:
    """Raises ``TagSyntaxError`` for a malformed tag string, ``SyntaxError`` for other broken code.
    ``module``: the module's dotted name (the options name tags by qualified name)."""
    result = parse(text, filename, template_strings=True)
    if not result.tag_strings:
        return Migration(text, 0, (), ())
    return _Migrator(text, result.tag_strings, filename, options, module).run()


class _Migrator:
    def __init__(
        self, text: str, tags: tuple[TagString, ...], filename: str, options: Options, module: str
    ) -> None:
        self.text = text
        self.tags = tags
        self.options = options
        self.module = module
        self.scan: ModuleScan = scan(text, tags, filename)
        self.flags: list[Flag] = []
        self.notes: dict[str, Note] = {}
        self.migrated = self.kept = 0
        self.answered: set[str] = set()
        self.debug_spans = _debug_fields(self.scan, text)
        self.starts = {t.span.start for top in tags for t in top.walk()}

    def run(self) -> Migration:
        out = self.fill(0, len(self.text), self.tags)
        flags = tuple(sorted(self.flags, key=lambda f: (f.offset, f.code)))
        return Migration(out, self.migrated, flags, tuple(self.notes.values()), self.kept, frozenset(self.answered))

    def fill(self, start: int, end: int, tags: Iterable[TagString]) -> str:
        return splice(self.text, tags, lambda t: t.span, self.site, start, end)

    def facts(self, tag: TagString) -> TagFacts:
        info = self.scan.tag_info(tag)
        qualname = f"{self.module}.{tag.name}"
        if not info.known:
            return TagFacts(tag.tag, qualname, frozenset([qualname]), UNKNOWN, unknown="not defined in this module")
        kind = FUNCTION if info.lazy != "a class keeps its arguments in the instance" else CLASS
        return TagFacts(tag.tag, qualname, frozenset([qualname]), kind, info.accepts_template, info.lazy,
                        reads_raw=info.reads_raw, where=f"line {info.line}")

    def site(self, tag: TagString) -> str:
        facts = self.facts(tag)
        options = self.options
        said = answers(facts, options.lazy_tags, options.eager_tags, options.template_tags, options.raw_tags)
        self.answered.update(said.given)
        raw = said.raw is not None and "\\" in self.text[tag.body_span.start : tag.body_span.end]
        flags = list(self.judge(tag, facts, said, raw))
        self.flags.extend(flags)
        if flags:
            self.kept += 1
            return self.fill(tag.span.start, tag.span.end, _children(tag.parts))
        self.migrated += 1
        body = self.body(tag, raw)
        return f"{tag.tag}({'rt' if raw else 't'}{tag.quote}{body}{tag.quote})"

    def body(self, tag: TagString, raw: bool) -> str:
        out: list[str] = []
        pos = tag.body_span.start
        for part in tag.parts:
            if isinstance(part, Field):
                out.append(self.literal(self.text[pos : part.span.start], raw))
                out.append(self.fill(part.span.start, part.span.end, _children((part,))))
                pos = part.span.end
        out.append(self.literal(self.text[pos : tag.body_span.end], raw))
        return "".join(out)

    @staticmethod
    def literal(source: str, raw: bool) -> str:
        return source if raw else _NAMED_ESCAPE_DOUBLED.sub(r"\1\\N{\2}", source)

    # -- the reasons to keep a tag string ---------------------------------------------

    def judge(self, tag: TagString, facts: TagFacts, said: Answers, raw: bool) -> Iterable[Flag]:
        at = tag.span.start
        for verdict in verdicts(facts, said):
            yield self.flag(verdict.code, at, *verdict.args)
        literals = [p for p in tag.parts if isinstance(p, Literal)]
        if facts.reads_raw and not raw and any(p.raw != p.cooked for p in literals):
            yield self.flag("MIG002", at, facts.name, f"--raw-tag {facts.qualname}")
        fields = tag.fields()
        # a tag string nested in one of these fields would change its text
        self.debug_spans.extend(field.expr_span for field in fields if field.debug is not None)
        for field in fields:
            if not raw and _after_named_escape(self.text, field.span.start):
                yield self.flag("MIG003", field.span.start - 2, field.expr, field.expr)
            for part in field.spec or ():
                if isinstance(part, Literal) and "\\" in self.text[part.span.start : part.span.end] and not raw:
                    yield self.flag("MIG010", part.span.start)
        yield from self.scope_flags(tag, fields)
        if any(span.start <= at < span.end for span in self.debug_spans):
            yield self.flag("MIG007", at)
        if self.order_matters(tag):
            yield self.flag("MIG008", at)

    def order_matters(self, tag: TagString) -> bool:
        """Whether a value written before a nested spec field runs after it here and before
        it in a t-string (specs are formatted first, SPEC 4), and one of the two calls something."""
        values = [p for p in tag.parts if isinstance(p, Field)]
        specs = [f for value in values for f in value.fields()[1:]]
        return any(
            value.expr_span.start < spec.expr_span.start and (self.calls(value) or self.calls(spec))
            for value in values
            for spec in specs
        )

    def calls(self, field: Field) -> bool:
        return any(
            isinstance(node, ast.Call) and self.scan.source.offset(node.lineno, node.col_offset) not in self.starts
            for node, _ in self.scan.nodes_in(field.expr_span.start, field.expr_span.end)
        )

    def scope_flags(self, tag: TagString, fields: tuple[Field, ...]) -> Iterable[Flag]:
        scopes = self.scan.scopes_at.get(tag.span.start, ())
        in_class = bool(scopes) and isinstance(scopes[-1], ast.ClassDef)
        class_names = self.scan.bindings(scopes[-1]) if in_class else {}
        for field in fields:
            for node, around in self.scan.nodes_in(field.expr_span.start, field.expr_span.end):
                offset = self.scan.source.offset(getattr(node, "lineno", 1), getattr(node, "col_offset", 0))
                if isinstance(node, ast.NamedExpr):
                    yield self.flag("MIG005", offset)
                elif isinstance(node, ast.Call) and _is_bare_super(node):
                    yield self.flag("MIG006", offset)
                elif (
                    isinstance(node, ast.Name)
                    and isinstance(node.ctx, ast.Load)
                    and node.id in class_names
                    and len(around) == len(scopes)  # not inside a lambda or comprehension of the field
                    and offset not in self.starts
                ):
                    yield self.flag("MIG004", offset, node.id)

    def flag(self, code: str, offset: int, *args: object) -> Flag:
        return Flag(code, offset, f"{code} " + MESSAGES[code].format(*args))


def _children(parts: Iterable[object]) -> list[TagString]:
    """The tag strings directly inside these parts' fields, in source order."""
    found = [inner for part in parts if isinstance(part, Field) for f in part.fields() for inner in f.nested]
    return sorted(found, key=lambda t: t.span.start)


def _after_named_escape(text: str, brace: int) -> bool:
    """``\\N{`` where ``{`` opens a field: the backslash before N not itself escaped."""
    if text[brace - 2 : brace] != "\\N":
        return False
    run = 0
    index = brace - 2
    while index >= 0 and text[index] == "\\":
        run += 1
        index -= 1
    return run % 2 == 1


def _is_bare_super(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and not node.keywords


def _debug_fields(module: ModuleScan, text: str) -> list[Span]:
    """The expressions of f-string and t-string fields written ``{expr=}``."""
    kinds = tuple(k for k in (ast.FormattedValue, getattr(ast, "Interpolation", None)) if k is not None)
    spans: list[Span] = []
    for node in ast.walk(module.tree):
        if isinstance(node, kinds):
            value = node.value
            if value.end_lineno is None or value.end_col_offset is None:
                continue
            start = module.source.offset(value.lineno, value.col_offset)
            end = module.source.offset(value.end_lineno, value.end_col_offset)
            after = text[end:].lstrip(" \t\n\\")
            if after.startswith("=") and not after.startswith("=="):
                spans.append(Span(start, end))
    return spans
