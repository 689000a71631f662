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

from tagstr_runtime.migrate.scan import HAZARDS, ModuleScan, scan
from tagstr_runtime.migrate.tag_facts import Answers, TagFacts, answers, verdicts
from tagstr_runtime.syntax.model import Field, Literal, Span, TagString
from tagstr_runtime.desugarer.placeholder import splice
from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.findings import CLASS_VARIABLE

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
    "MIG012": "{}; the module is left as it is: rename the tag, then migrate",
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
    text: str,
    filename: str = "<unknown>",
    options: Options = NO_OPTIONS,
    *,
    module: str = "__main__",
    path: str | None = None,
    resolver: TagResolver | None = None,
) -> Migration:
    """Raises ``TagSyntaxError`` for a malformed tag string, ``SyntaxError`` for other broken code
    in a module with tag strings.  ``module``: its dotted name (options name tags by qualified
    name); ``path``: its file; ``resolver``: the tree's (without one, imported tags are unknown)."""
    scanned = scan(text, filename, resolver, path=path, name=module)
    if scanned is None:
        return Migration(text, 0, (), ())
    return _Migrator(text, scanned, options).run()


class _Migrator:
    def __init__(self, text: str, module: ModuleScan, options: Options) -> None:
        self.text = text
        self.tags = module.tags
        self.options = options
        self.scan = module
        self.flags: list[Flag] = []
        self.notes: dict[str, Note] = {}
        self.migrated = self.kept = 0
        self.answered: set[str] = set()
        self.debug_spans = _debug_fields(module, text)

    def run(self) -> Migration:
        refused = [self.flag("MIG012", offset, message) for offset, message in self.scan.prefix_named]
        if refused:  # a tag named like a string prefix: nothing in this module can be trusted
            kept = sum(not self.scan.is_template(tag) for tag in self.scan.sites_tags())
            return Migration(self.text, 0, tuple(refused), (), kept)
        out = self.fill(0, len(self.text), self.tags)
        flags = tuple(sorted(self.flags, key=lambda f: (f.offset, f.code)))
        return Migration(out, self.migrated, flags, tuple(self.notes.values()), self.kept, frozenset(self.answered))

    def fill(self, start: int, end: int, tags: Iterable[TagString]) -> str:
        return splice(self.text, tags, lambda t: t.span, self.site, start, end)

    def site(self, tag: TagString) -> str:
        if self.scan.is_template(tag):  # a t-string already: what is inside may be tag strings
            self.debug_spans.extend(field.expr_span for field in tag.fields() if field.debug is not None)
            return self.fill(tag.span.start, tag.span.end, _children(tag.parts))
        facts = self.scan.facts(tag)
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
        return self.scan.calls_in(field)

    def scope_flags(self, tag: TagString, fields: tuple[Field, ...]) -> Iterable[Flag]:
        """The hazards of lazy interpolations (``analysis.findings``), which a t-string has not."""
        for finding in self.scan.hazards.get(tag.span.start, ()):
            args = (finding.args["name"],) if finding.code == CLASS_VARIABLE else ()
            yield self.flag(HAZARDS[finding.code], finding.span.start, *args)

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


def _debug_fields(module: ModuleScan, text: str) -> list[Span]:
    """The expressions of f-string and t-string fields written ``{expr=}``."""
    kinds = tuple(k for k in (ast.FormattedValue, getattr(ast, "Interpolation", None)) if k is not None)
    spans: list[Span] = []
    source = module.module.source
    assert source is not None
    for node in ast.walk(module.module.tree):
        if isinstance(node, kinds):
            value = node.value
            if value.end_lineno is None or value.end_col_offset is None:
                continue
            start = source.offset(value.lineno, value.col_offset)
            end = source.offset(value.end_lineno, value.end_col_offset)
            after = text[end:].lstrip(" \t\n\\")
            if after.startswith("=") and not after.startswith("=="):
                spans.append(Span(start, end))
    return spans
