"""One module's tag strings rewritten as ``tag(t"...")``, or the reasons they are kept.

Pure: text in, ``Migration`` out.  Each tag string is judged on its own
(nested ones too); one that cannot keep its behaviour as a t-string stays a
tag string and gets a ``Flag`` per reason, with a ``MIG`` code (table in
``docs/python314.md``).  Everything outside migrated tag strings is copied
byte for byte, and a migrated tag string keeps its body's text except for
``\\N{{NAME}}``, which a t-string spells ``\\N{NAME}``.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, NamedTuple

from tagstr_runtime.migrate.reasons import MESSAGES
from tagstr_runtime.migrate.nesting import Nesting, changed_expression
from tagstr_runtime.migrate.scan import HAZARDS, ModuleScan, scan
from tagstr_runtime.migrate.tag_facts import LIBRARY, Answers, TagFacts, answers, verdicts
from tagstr_runtime.syntax.escapes import warned_escapes
from tagstr_runtime.syntax.model import Field, Literal, TagString
from tagstr_runtime.desugarer.placeholder import splice
from tagstr_runtime.analysis.definitions import TagResolver
from tagstr_runtime.analysis.findings import CLASS_VARIABLE, OWN_SCOPE

__all__ = ["MESSAGES", "NO_OPTIONS", "Flag", "Migration", "Note", "Options", "migrate_text"]

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
        #: each message once (20,000 tag strings of one tag kept for one reason: one text)
        self._messages: dict[str, str] = {}
        self.notes: dict[str, Note] = {}
        self.migrated = self.kept = 0
        self.answered: set[str] = set()
        self.nesting = Nesting(module, text, self.reader_facts)

    def run(self) -> Migration:
        refused = [self.flag("MIG012", offset, message) for offset, message in self.scan.prefix_named]
        if refused:  # a tag named like a string prefix: nothing in this module can be trusted
            kept = max(sum(not self.scan.is_template(tag) for tag in self.scan.sites_tags()), 1)
            return Migration(self.text, 0, tuple(refused), (), kept)
        out = self.fill(0, len(self.text), self.tags)
        flags = tuple(sorted(self.flags, key=lambda f: (f.offset, f.code)))
        return Migration(out, self.migrated, flags, tuple(self.notes.values()), self.kept, frozenset(self.answered))

    def reader_facts(self, tag: TagString) -> tuple[TagFacts, ...] | None:
        """What reads a tag string's or t-string's parts: its tag, or the call a t-string is passed to."""
        if self.scan.is_template(tag):
            return self.scan.consumer_facts(tag)
        return self.scan.facts(tag)

    def fill(self, start: int, end: int, tags: Iterable[TagString]) -> str:
        return splice(self.text, tags, lambda t: t.span, self.site, start, end)

    def site(self, tag: TagString) -> str:
        if self.scan.is_template(tag):  # a t-string already: what is inside may be tag strings
            return self.fill(tag.span.start, tag.span.end, _children(tag.parts))
        facts = self.scan.facts(tag)
        options = self.options
        said = [answers(f, options.lazy_tags, options.eager_tags, options.template_tags, options.raw_tags)
                for f in facts]
        for each in said:
            self.answered.update(each.given)
        raw = self.raw(tag, facts, said)
        flags = list(self.judge(tag, facts, said, raw))
        self.flags.extend(flags)
        if flags:
            self.kept += 1
            return self.fill(tag.span.start, tag.span.end, _children(tag.parts))
        self.migrated += 1
        body = self.body(tag, raw)
        return f"{tag.tag}({'rt' if raw else 't'}{tag.quote}{body}{tag.quote})"

    def raw(self, tag: TagString, facts: tuple[TagFacts, ...], said: list[Answers]) -> bool:
        """Whether to write ``rt"..."``: the body has a backslash, and the tag takes the source
        text (``--raw-tag``, ``template_tag(..., raw=True)``), or no escape changes any text
        (``\\d``: the same text either way, and no warning)."""
        if "\\" not in self.text[tag.body_span.start : tag.body_span.end]:
            return False
        if all(s.raw is not None or f.raw_template for f, s in zip(facts, said)):
            return True
        return all(p.raw == p.cooked for p in tag.parts if isinstance(p, Literal))

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

    def judge(self, tag: TagString, facts: tuple[TagFacts, ...], said: list[Answers], raw: bool) -> Iterable[Flag]:
        at = tag.span.start
        yield from self.tag_flags(tag, facts, said)
        literals = [p for p in tag.parts if isinstance(p, Literal)]
        name = facts[-1].name
        if any(f.reads_raw for f in facts) and not raw and any(p.raw != p.cooked for p in literals):
            yield self.flag("MIG002", at, name, f"--raw-tag {facts[-1].qualname}")
        fields = tag.fields()
        for field in fields:
            if _after_named_escape(self.text, field.span.start):  # a tag string warns there (rt"..." would not)
                yield self.flag("MIG003", field.span.start - 2, field.expr, field.expr)
            for part in field.spec or ():
                if isinstance(part, Literal) and "\\" in self.text[part.span.start : part.span.end] and not raw:
                    yield self.flag("MIG010", part.span.start)
        if not raw:
            for start, source in self.literal_sources(tag):
                warned = warned_escapes(source)
                if warned:
                    yield self.flag("MIG016", start + source.index(warned[0]), warned[0], "\\" + warned[0])
                    break
        yield from self.expression_flags(tag, facts)
        if not all(f.kind == LIBRARY for f in facts):
            for part in tag.parts:
                if isinstance(part, Field) and part.spec == ():
                    yield self.flag("MIG018", part.span.start, part.expr, name)
        yield from self.scope_flags(tag)
        debug = self.nesting.debug_reason(tag)
        if debug:
            yield self.flag("MIG007", at, debug)
        early = self.order_matters(tag)
        if early:
            yield self.flag("MIG008", at, early)

    def tag_flags(self, tag: TagString, facts: tuple[TagFacts, ...], said: list[Answers]) -> Iterator[Flag]:
        """The verdicts on what the tag is (MIG001, MIG009, MIG011, MIG013, MIG014), or MIG015 when
        one of several definitions a run may call here fails."""
        at = tag.span.start
        quiet = all(self.scan.trivial(field) for field in tag.fields())
        judged = [[self.flag(v.code, at, *v.args) for v in verdicts(f, s, quiet)] for f, s in zip(facts, said)]
        if len(facts) == 1:
            yield from judged[0]
            return
        ordered = [*zip(facts, judged)][1:] + [(facts[0], judged[0])]  # the alternatives come first in the source
        failing = [(f, flags) for f, flags in ordered if flags]
        if failing:
            wheres = "; ".join(f.where or f.unknown or f.qualname for f, _ in ordered)
            first, flags = failing[0]
            yield self.flag("MIG015", at, first.name, len(facts), wheres, flags[0].message)

    def literal_sources(self, tag: TagString) -> Iterator[tuple[int, str]]:
        """The body's literal text as written, between its fields, with where each starts."""
        pos = tag.body_span.start
        for part in tag.parts:
            if isinstance(part, Field):
                yield pos, self.text[pos : part.span.start]
                pos = part.span.end
        yield pos, self.text[pos : tag.body_span.end]

    def expression_flags(self, tag: TagString, facts: tuple[TagFacts, ...]) -> Iterator[Flag]:
        """MIG017: a tag that reads ``expr`` would get another text."""
        reader = self.nesting.read_by.get(tag.span.start)
        if reader is not None:
            outer, start = reader
            line = self.text.count("\n", 0, start) + 1
            yield self.flag("MIG017", tag.span.start,
                            f"this tag string is in a field of a tag string of {outer!r} (line {line}), which reads "
                            f"expr", "it would show the migrated text")
        if any(f.reads_expr for f in facts):
            for part in tag.parts:
                if isinstance(part, Field):
                    changed = changed_expression(self.text, part)
                    if changed:
                        yield self.flag("MIG017", part.span.start, f"tag {facts[-1].name!r} reads expr", changed)

    def order_matters(self, tag: TagString) -> str:
        """A value written before a nested spec field runs after it here and before it in a
        t-string (specs are formatted first, SPEC 4), and one of the two is more than a name:
        that expression's text ("" when the order cannot matter)."""
        values = [p for p in tag.parts if isinstance(p, Field)]
        for value in values:
            for spec in (f for later in values for f in later.fields()[1:]):
                if value.expr_span.start < spec.expr_span.start:
                    for field in (value, spec):
                        if not self.scan.trivial(field):
                            return repr(field.expr)
        return ""

    def scope_flags(self, tag: TagString) -> Iterable[Flag]:
        """The hazards of lazy interpolations (``analysis.findings``), which a t-string has not."""
        for finding in self.scan.hazards.get(tag.span.start, ()):
            if finding.code == CLASS_VARIABLE:
                args: tuple[str, ...] = (finding.args["name"],)
            elif finding.code == OWN_SCOPE:
                args = (finding.args["call"],)
            else:
                args = ()
            yield self.flag(HAZARDS[finding.code], finding.span.start, *args)

    def flag(self, code: str, offset: int, *args: object) -> Flag:
        message = f"{code} " + MESSAGES[code].format(*args)
        return Flag(code, offset, self._messages.setdefault(message, message))


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
