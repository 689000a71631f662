"""What the migration knows about the tag of a tag string, and what it may do with it.

``TagFacts`` is the resolver's answer put the way the migration asks, for
each definition a run may call there (``TagDefinition.every``): whether the
tag takes a template, why it is not proven to read each value once, in
order, with nothing observable in between (``analysis.tag_reads``), whether
it reads ``.raw`` or ``expr``, its qualified names (the options name it by
one of them), and where it was defined (a remedy points there).
``verdicts`` then says, with the command line's options, what is still
unknown or wrong: the reasons to keep the tag string (MIG001, MIG009,
MIG011, MIG013, MIG014), each with a remedy that fits the case and never one
the options already gave.
"""

from __future__ import annotations

import ast
from typing import Iterator, NamedTuple

from tagstr_runtime.analysis import definitions as found
from tagstr_runtime.analysis.definitions import TagDefinition, TagResolver
from tagstr_runtime.analysis.imports import module_name
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.tag_reading import reading as read_tag
from tagstr_runtime.desugarer.scopes import Binding
from tagstr_runtime.analysis.tag_reads import LAZY, OBSERVABLE, ORDER, RAISES, Unproven
from tagstr_runtime.analysis.tag_types import called_name

__all__ = [
    "CLASS", "EAGER_CODES", "FACTORY", "FUNCTION", "INSTANCE", "LIBRARY", "UNKNOWN", "Answers", "TagFacts",
    "Verdict", "answers", "facts_of", "verdicts",
]

FUNCTION = "function"  # a def (or lambda) of the tree
FACTORY = "factory"  # what a factory call of the tree returns (``greet = make_greet()``)
CLASS = "class"  # a class: the tag string constructs it
INSTANCE = "instance"  # an instance of a class: its __call__
LIBRARY = "library"  # made by template_tag: takes a template, reads its values at once
UNKNOWN = "unknown"


class TagFacts(NamedTuple):
    """One tag as the resolver found it (``UNKNOWN``: ``unknown`` says why)."""

    name: str  # as the tag string writes it
    qualname: str  # its qualified name: where it is made (``pkg.tags.html``)
    names: frozenset[str]  # every qualified name that designates it (aliases, imports)
    kind: str
    takes_template: bool | None = None  # None: unknown
    #: why it is not proven to read each value exactly once, in order, quietly (None: it is)
    unproven: Unproven | None = None
    reads_raw: bool | None = None  # None: cannot tell
    reads_expr: bool | None = None  # None: cannot tell
    raw_template: bool = False  # template_tag(..., raw=True): the template keeps the source text
    where: str = ""  # "module, line N" of its definition
    made_by: str = ""  # what to decorate or wrap: the factory, the class
    unknown: str = ""  # why nothing is known (UNKNOWN)


class Answers(NamedTuple):
    """What the options say about one tag (each None: they say nothing)."""

    lazy: str | None  # the qualified name the option gave
    eager: str | None
    template: str | None
    raw: str | None

    @property
    def given(self) -> Iterator[str]:
        return (name for name in self if name is not None)


class Verdict(NamedTuple):
    code: str
    args: tuple[object, ...]


def _option(flag: str, facts: TagFacts) -> str:
    return f"{flag} {facts.qualname}"


def facts_of(definition: TagDefinition, name: ast.Name, module: ModuleAnalysis, resolver: TagResolver
             ) -> tuple[TagFacts, ...]:
    """The resolver's ``definition`` of the tag read by ``name`` in ``module``, for the migration:
    one ``TagFacts`` per definition a run may call there."""
    binding = module.scopes.read_binding(name.lineno, name.col_offset)
    here = _qualified(module, name.id, binding)
    return tuple(_facts(each, name, module, resolver, here) for each in definition.every)


def _facts(definition: TagDefinition, name: ast.Name, module: ModuleAnalysis, resolver: TagResolver, here: str
           ) -> TagFacts:
    if not definition.known:
        # accepts_template(x) of an x nothing is known of takes a template: only when it reads
        # its values is unknown
        qualname = definition.dotted or _made_at(definition) or here
        return TagFacts(name.id, qualname, _spellings([qualname, here], module), UNKNOWN, definition.accepts_template,
                        unknown=definition.reason)
    made = _made_at(definition)
    qualname = made or definition.qualname or here
    kind = {found.CLASS: CLASS, found.INSTANCE: INSTANCE, found.LIBRARY: LIBRARY}.get(definition.kind, FUNCTION)
    made_by = ""
    factory = next((step for step in definition.steps if step.kind == "factory"), None)
    if kind == FUNCTION and factory is not None:
        kind, made_by = FACTORY, called_name(factory.node) or "the factory"  # type: ignore[arg-type]
    elif kind == INSTANCE:
        made_by = getattr(definition.node, "name", "the class")
    where = f"line {definition.line}"
    if definition.module is not None and definition.module is not module:
        where = f"{definition.module.name}, {where}"
    reading = read_tag(definition, resolver)
    return TagFacts(
        name.id, qualname, _spellings([qualname, here], module, definition.module), kind,
        definition.accepts_template, reading.unproven,
        reading.reads_raw, reading.reads_expr, reading.raw_template, where, made_by,
    )


def _spellings(names: list[str], *modules: ModuleAnalysis | None) -> frozenset[str]:
    """The qualified names, and each also spelled from its module's top package (``views.html``
    for ``app.views.html`` when ``app`` is a folder without ``__init__.py``: a namespace
    package to the command, maybe a script's folder to its user)."""
    out = set(names)
    for module in modules:
        if module is None or module.name is None or module.path is None:
            continue
        short = module_name(module.path)
        if short != module.name:
            prefix = module.name + "."
            out.update(short + name[len(module.name):] for name in names if name.startswith(prefix))
    return frozenset(out)


def _qualified(module: ModuleAnalysis, name: str, binding: Binding | None) -> str:
    """``module.name`` for a name the module's top level binds, ``module.function.name`` for
    one bound inside a def or class, ``builtins.name`` for a name bound nowhere."""
    if binding is None:
        return f"builtins.{name}"
    return _qualified_at(module, name, binding.line, binding.col, binding.module_level)


def _qualified_at(module: ModuleAnalysis, name: str, line: int, col: int, module_level: bool = False) -> str:
    """The qualified name of ``name`` bound by the node at (line, byte column)."""
    inside = () if module_level else module.scopes.enclosing(line, col)
    return ".".join([module.name or "__main__", *inside, name])


def _made_at(definition: TagDefinition) -> str | None:
    """The qualified name the tag is made under: the first assignment of a call on the way
    (``quoted = make_quoting_tag(escape)``, ``R = template_tag(f)``), else None."""
    for step in definition.steps:
        node = step.node
        if step.kind == "assignment" and isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
            node.value, ast.Call
        ):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t for t in targets if isinstance(t, ast.Name)]
            if names:
                return _qualified_at(step.module, names[0].id, names[0].lineno, names[0].col_offset)
    return None


def verdicts(facts: TagFacts, answers: Answers, quiet_values: bool = False) -> Iterator[Verdict]:
    """The reasons to keep a tag string of this tag (none: it may be migrated).  ``quiet_values``:
    every value of the tag string is a name or a constant (a tag that may raise between its
    reads then cannot tell a t-string, which evaluated them all, from a tag string)."""
    if answers.lazy is not None:
        yield Verdict("MIG001", (facts.name, f"--lazy-tag {answers.lazy}", ""))
        return
    if facts.kind == UNKNOWN:
        missing = []
        if answers.template is None and not facts.takes_template:
            missing.append(("takes a template", _option("--template-tag", facts)))
        if answers.eager is None:
            missing.append(("reads its values at once", _option("--eager-tag", facts)))
        if missing:
            what = " and ".join(what for what, _ in missing)
            options = " ".join(option for _, option in missing)
            yield Verdict("MIG011", (facts.name, facts.unknown, what, options))
        return
    if facts.takes_template is False and answers.template is None:
        yield Verdict("MIG009", (facts.name, facts.where, _template_remedy(facts)))
    unproven = facts.unproven
    if unproven is not None and unproven.kind == RAISES and quiet_values:
        unproven = None
    if answers.eager is None and unproven is not None:
        vouch = _option("--eager-tag", facts)
        if unproven.kind == LAZY:
            yield Verdict("MIG001", (facts.name, unproven.why, f"; if it does not, {vouch}"))
        else:
            yield Verdict(EAGER_CODES[unproven.kind], (facts.name, facts.where, unproven.why, vouch))


#: the codes of the shapes that are not proven eager (``analysis.tag_reads``), LAZY aside
EAGER_CODES = {ORDER: "MIG013", OBSERVABLE: "MIG014", RAISES: "MIG014"}


def _template_remedy(facts: TagFacts) -> str:
    if facts.kind == FUNCTION:
        return "decorate it with @accepts_template"
    if facts.kind == FACTORY:
        return f"decorate the function {facts.made_by} returns with @accepts_template"
    if facts.kind == INSTANCE:
        return f"wrap the instance: accepts_template({facts.made_by}(...)), or {_option('--template-tag', facts)}"
    # a class: @accepts_template makes no class (docs/decisions/0115-accepts-template-is-a-wrapper-object.md)
    return (f"a class takes no template unless its __init__ reads one: make the tag a function decorated "
            f"with @accepts_template, or {_option('--template-tag', facts)} if it reads one")


def answers(facts: TagFacts, lazy: frozenset[str], eager: frozenset[str], template: frozenset[str],
            raw: frozenset[str]) -> Answers:
    """What the options (sets of qualified names) say about the tag: the name each matched by."""

    def match(names: frozenset[str]) -> str | None:
        found = facts.names & names
        return min(found) if found else None

    return Answers(match(lazy), match(eager), match(template), match(raw))
