"""What the migration reads of a module: the desugarer's sites, the analysis layer's tag definitions and findings.

The module is desugared once for analysis (``analysis.module``), so each
tag string is a site with its interpolations' trees at their own positions.
A t-string already in the module is read as a tag string named ``t`` on
every Python (its fields lex alike, and its interpolations' names resolve in
place either way): ``is_template`` tells those apart, the migration leaves
them, unless a tag named ``t`` is in scope (MIG012, ``prefix_named``).

Tags are judged by the shared tag resolver (``analysis.definitions``), which
follows them through definitions, decorators, wrappers, aliases, factory
calls, instances and, with the command's ``ModuleFinder``, imports into the
tree's other modules; ``migrate.tag_facts`` turns what it finds into the
migration's facts.  The hazards are the findings the flake8 plugin reports
too (``analysis.findings``, ``analysis.prefixed``).
"""

from __future__ import annotations

import ast
import keyword
import re
import unicodedata
from functools import cached_property

from tagstr_runtime.migrate.tag_facts import UNKNOWN, TagFacts, facts_of
from tagstr_runtime.syntax.model import Field, TagString
from tagstr_runtime.syntax.errors import TagSyntaxError
from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.analysis.definitions import TagDefinition, TagResolver
from tagstr_runtime.analysis.findings import (
    ARGUMENTLESS_SUPER, ASSIGNMENT_EXPRESSION, CLASS_VARIABLE, OWN_SCOPE, Finding, argumentless_super,
    assignment_expressions, class_variables, own_scope_reads,
)
from tagstr_runtime.analysis.reaching import reaching
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.prefixed import PREFIXES_314, prefix_named_tags, prefixed_strings, string_kind
from tagstr_runtime.desugarer.sites import Site
from tagstr_runtime.syntax.words import TEMPLATE_PREFIXES

__all__ = ["HAZARDS", "ModuleScan", "scan"]

#: the findings that keep a tag string, and their MIG codes
HAZARDS = {CLASS_VARIABLE: "MIG004", ASSIGNMENT_EXPRESSION: "MIG005", ARGUMENTLESS_SUPER: "MIG006",
           OWN_SCOPE: "MIG019"}


class ModuleScan:
    """One module read for the migration: its sites by position, its tags, its hazards."""

    def __init__(
        self, text: str, filename: str, resolver: TagResolver | None = None, *, path: str | None = None,
        name: str | None = None,
    ) -> None:
        # t"..." read as a tag string on every Python: is_template tells it apart, and MIG012 needs
        # to know whether it calls a tag named t
        self.module = module = ModuleAnalysis.read(text, filename, path=path, name=name, template_strings=False)
        self.resolver = resolver or TagResolver(every_binding=True)
        self._facts: dict[tuple[str, tuple[int, ...]], tuple[TagFacts, ...]] = {}
        self._by_site: dict[int, tuple[TagFacts, ...]] = {}
        self.sites: dict[int, Site] = {site.tag.span.start: site for site in module.sites}
        #: the outermost tag strings (t-strings read as tags among them, before 3.14)
        self.tags = tuple(site.tag for site in module.sites if site.parent is None)
        findings = [*class_variables(module), *assignment_expressions(module), *argumentless_super(module),
                    *own_scope_reads(module)]
        self.hazards: dict[int, list[Finding]] = {}
        for finding in findings:
            self.hazards.setdefault(finding.site.tag.span.start, []).append(finding)

    def sites_tags(self) -> list[TagString]:
        return [site.tag for site in self.sites.values()]

    def is_template(self, tag: TagString) -> bool:
        """A t-string (read as a tag string)."""
        return tag.tag.lower() in TEMPLATE_PREFIXES

    def facts(self, tag: TagString) -> tuple[TagFacts, ...]:
        """What the resolver finds of the tag string's tag: one ``TagFacts`` per definition a
        run may call there (the same bindings: the same facts, worked out once)."""
        known = self._by_site.get(tag.span.start)
        if known is None:
            known = self._by_site[tag.span.start] = self._facts_of(self.sites[tag.span.start].name)
        return known

    def _facts_of(self, name: ast.Name) -> tuple[TagFacts, ...]:
        key = (name.id, tuple(id(b.node) for b in reaching(self.module, name.lineno, name.col_offset)))
        found = self._facts.get(key)
        if found is None:
            found = self._facts[key] = facts_of(self.resolver.resolve(self.module, name), name, self.module,
                                                self.resolver)
        return found

    def site(self, tag: TagString) -> Site:
        return self.sites[tag.span.start]

    def consumer_facts(self, tag: TagString) -> tuple[TagFacts, ...] | None:
        """For a t-string passed alone to a call ``f(t"...")`` whose ``f`` is a name: the facts of
        ``f`` (who reads the template); None otherwise."""
        site = self.sites[tag.span.start]
        chain = site.chain
        call = chain[-1] if chain else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and len(call.args) == 1
                and call.args[0] is site.call and not call.keywords):
            return None
        return self._facts_of(call.func)

    def trivial(self, field: Field) -> bool:
        """Evaluating the field earlier, later or not at all shows nothing: a name, a constant, or a
        tag string whose tag is proven to read its values quietly and whose fields are trivial too.
        Read from the field's text (the sites' arguments are not built for it)."""
        text = field.expr
        if text.isidentifier():
            return not keyword.iskeyword(text) or text in ("None", "True", "False")
        if len(field.nested) != 1:
            try:
                return isinstance(ast.parse(text, mode="eval").body, ast.Constant)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return False
        inner = field.nested[0]
        if inner.span != field.expr_span:
            return False
        return all(f.kind != UNKNOWN and f.unproven is None and f.takes_template is not False
                   for f in self.facts(inner)) and all(self.trivial(f) for f in inner.fields())

    @cached_property
    def prefix_named(self) -> list[tuple[int, str]]:
        """Why the module must be left as it is (MIG012): its tags named like a string prefix of
        3.14, and where it writes such a prefix while a tag of that name (or, for t, any binding)
        is in scope: (offset, reason)."""
        module, resolver = self.module, self.resolver
        found = []
        for tag in prefix_named_tags(module, resolver, PREFIXES_314):
            template = tag.name.lower() in TEMPLATE_PREFIXES
            reason = (f"{tag.name!r} is a tag named like a template-string prefix: from 3.14 {tag.name}\"...\" "
                      f"is {string_kind(tag.name)}, never a call of it") if template else (
                      f"{tag.name!r} is a tag named like a string prefix: {tag.name}\"...\" is "
                      f"{string_kind(tag.name)}, never a call of it")
            found.append((module.offset(tag.node), reason))
        for string in prefixed_strings(module, resolver, PREFIXES_314):
            definition = string.definition
            where = _where(definition, module) or f"line {string.binding.line}"
            if string.name.lower() in TEMPLATE_PREFIXES:
                found.append((string.offset, f"{string.name}\"...\" calls {string.name!r} ({where}) before 3.14 "
                                             f"and is {string_kind(string.name)} from 3.14"))
            elif definition.is_tag_function or definition.accepts_template:
                found.append((string.offset, f"{string.name}\"...\" is {string_kind(string.name)}, not a call of "
                                             f"the tag {string.name!r} ({where})"))
        return found


def _where(definition: TagDefinition, module: ModuleAnalysis) -> str:
    if not definition.line:
        return ""
    there = definition.module
    return f"line {definition.line}" if there is module or there is None else f"{there.name}, line {definition.line}"


def scan(
    text: str, filename: str, resolver: TagResolver | None = None, *, path: str | None = None,
    name: str | None = None,
) -> ModuleScan | None:
    """The module's scan; None when it holds no tag string (nothing to migrate, and a module
    CPython cannot parse is then none of the migration's business).  A t-string is none, unless
    it calls a tag named t."""
    try:
        module = _scan(text, filename, resolver, path, name)
    except SyntaxError:
        if _has_tag_strings(text, filename):
            raise
        return None
    if all(module.is_template(tag) for tag in module.sites_tags()) and not module.prefix_named:
        return None
    return module


def _scan(text: str, filename: str, resolver: TagResolver | None, path: str | None, name: str | None
          ) -> ModuleScan:
    try:
        return ModuleScan(text, filename, resolver, path=path, name=name)
    except TagSyntaxError:
        # a t-string with a named character (``\N{EM DASH}``: a module migrated before) is a
        # malformed tag string named t; read with the character written ``\u2014`` (the same
        # length, padded), it is not: the rest of the module reads the same
        masked = _named_characters_as_codes(text)
        if masked == text:
            raise
        try:
            return ModuleScan(masked, filename, resolver, path=path, name=name)
        except SyntaxError:
            pass
        raise


_NAMED_CHARACTER = re.compile(r"(?<!\\)((?:\\\\)*)\\N\{([A-Z0-9][A-Z0-9 \-]*[ \-][A-Z0-9 \-]*)\}")


def _named_characters_as_codes(text: str) -> str:
    """Every ``\\N{NAME}`` whose name has a blank or a hyphen (no field expression has: only a
    string or a t-string can hold it) spelled ``\\uXXXX`` and padded to the same length."""

    def code(match: re.Match[str]) -> str:
        try:
            char = unicodedata.lookup(match.group(2))
        except KeyError:
            return match.group(0)
        escape = f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"
        length = len(match.group(0)) - len(match.group(1))
        if len(escape) > length:
            return match.group(0)
        return match.group(1) + escape + "x" * (length - len(escape))

    return _NAMED_CHARACTER.sub(code, text) if "\\N{" in text else text


def _has_tag_strings(text: str, filename: str) -> bool:
    """Only on the error path: whether the lexer finds a tag string (t-strings are none)."""
    try:
        return bool(parse(text, filename, template_strings=True).tag_strings)
    except SyntaxError:
        return True
