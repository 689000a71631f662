"""What the migration reads of a module: the analysis layer's sites, tag definitions and findings.

The module is desugared once for analysis (``analysis.module``), so each
tag string is a site with its interpolations' trees at their own positions.
Before 3.14 a t-string already in the module is read as a tag string named
``t`` (its fields lex alike, and its interpolations' names resolve in place
either way): ``is_template`` tells those apart, the migration leaves them.

Tags are judged by the shared tag resolver (``analysis.definitions``): as
before it follows them within the module only, through definitions,
decorators, ``accepts_template``/``template_tag`` wrappers and aliases; a
tag it reaches through an import, a factory call or an instance is treated
as unknown, as the command line did before the resolver could follow those
(docs/python314.md: the notes; issue 26 decides what the migration does with
them).  The hazards are the findings the flake8 plugin reports too
(``analysis.findings``).
"""

from __future__ import annotations

import ast
import sys
from typing import NamedTuple

from tagstr_runtime._model import Field, TagString
from tagstr_runtime._parser import parse
from tagstr_runtime.syntax._words import TEMPLATE_PREFIXES
from tagstr_runtime.analysis.definitions import TagDefinition, TagResolver
from tagstr_runtime.analysis.findings import (
    ARGUMENTLESS_SUPER, ASSIGNMENT_EXPRESSION, CLASS_VARIABLE, Finding, argumentless_super, assignment_expressions,
    class_variables,
)
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.sites import Hole, Site

__all__ = ["HAZARDS", "ModuleScan", "TagInfo", "scan"]

#: the findings that keep a tag string, and their MIG codes
HAZARDS = {CLASS_VARIABLE: "MIG004", ASSIGNMENT_EXPRESSION: "MIG005", ARGUMENTLESS_SUPER: "MIG006"}
#: the resolver's steps the migration followed before it shared the resolver
_FOLLOWED = frozenset(["assignment", "alias"])


class TagInfo(NamedTuple):
    """What the module says about a tag; ``accepts_template`` None: not defined here."""

    accepts_template: bool | None
    lazy: str | None = None  # why its values may be read after it returns
    reads_raw: bool = False
    line: int = 0  # of its definition

    @property
    def known(self) -> bool:
        return self.accepts_template is not None


UNKNOWN = TagInfo(None)


def tag_info(definition: TagDefinition) -> TagInfo:
    if not definition.known or any(step.kind not in _FOLLOWED for step in definition.steps):
        return UNKNOWN
    return TagInfo(definition.accepts_template, definition.lazy, definition.reads_raw, definition.line)


class ModuleScan:
    """One module read for the migration: its sites by position, its tags, its hazards."""

    def __init__(self, text: str, filename: str, resolver: TagResolver | None = None) -> None:
        self.module = module = ModuleAnalysis.read(text, filename)
        self.resolver = resolver or TagResolver()
        self.sites: dict[int, Site] = {site.tag.span.start: site for site in module.sites}
        #: the outermost tag strings (t-strings read as tags among them, before 3.14)
        self.tags = tuple(site.tag for site in module.sites if site.parent is None)
        #: every site's holes (format spec fields too), by the field's offset
        self.holes: dict[int, Hole] = {}
        for site in module.sites:
            _index_holes(site.args, self.holes)
        self.calls = frozenset(id(site.call) for site in module.sites)  # the tag strings' own calls
        findings = [*class_variables(module), *assignment_expressions(module), *argumentless_super(module)]
        self.hazards: dict[int, list[Finding]] = {}
        for finding in findings:
            self.hazards.setdefault(finding.site.tag.span.start, []).append(finding)

    def sites_tags(self) -> list[TagString]:
        return [site.tag for site in self.sites.values()]

    def is_template(self, tag: TagString) -> bool:
        """A t-string, read as a tag string before 3.14."""
        return sys.version_info < (3, 14) and tag.tag.lower() in TEMPLATE_PREFIXES

    def tag_info(self, tag: TagString) -> TagInfo:
        return tag_info(self.resolver.resolve(self.module, self.sites[tag.span.start].name))

    def calls_in(self, field: Field) -> bool:
        """Whether the field's expression calls something (its tag strings' own calls aside)."""
        hole = self.holes[field.span.start]
        return any(
            isinstance(node, ast.Call) and id(node) not in self.calls for node in ast.walk(hole.node)
        )


def _index_holes(args: tuple[object, ...], into: dict[int, Hole]) -> None:
    for arg in args:
        if isinstance(arg, Hole):
            into[arg.field.span.start] = arg
            if arg.spec:
                _index_holes(arg.spec, into)


def scan(text: str, filename: str) -> ModuleScan | None:
    """The module's scan; None when it holds no tag string (nothing to migrate, and a module
    CPython cannot parse is then none of the migration's business)."""
    try:
        module = ModuleScan(text, filename)
    except SyntaxError:
        if _has_tag_strings(text, filename):
            raise
        return None
    return module if any(not module.is_template(tag) for tag in module.sites_tags()) else None


def _has_tag_strings(text: str, filename: str) -> bool:
    """Only on the error path: whether the lexer finds a tag string (t-strings are none)."""
    try:
        return bool(parse(text, filename, template_strings=True).tag_strings)
    except SyntaxError:
        return True
