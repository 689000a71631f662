"""What the migration knows about the tag of a tag string, and what it may do with it.

``TagFacts`` is the resolver's answer put the way the migration asks:
whether the tag takes a template, whether it reads its values at once,
whether it reads ``.raw``, its qualified names (the options name it by one of
them), and where it was defined (a remedy points there).  ``verdict`` then
says, with the command line's options, what is still unknown or wrong: the
reasons to keep the tag string (MIG001, MIG009, MIG011), each with a remedy
that fits the case and never one the options already gave.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

__all__ = ["FUNCTION", "CLASS", "FACTORY", "INSTANCE", "LIBRARY", "UNKNOWN", "Answers", "TagFacts", "Verdict"]

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
    lazy: str | None = None  # why it may read its values after it returns
    eager_known: bool = True  # False: nothing says when it reads its values
    reads_raw: bool = False
    where: str = ""  # "path:line" of its definition
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


def verdicts(facts: TagFacts, answers: Answers) -> Iterator[Verdict]:
    """The reasons to keep a tag string of this tag (none: it may be migrated)."""
    if answers.lazy is not None:
        yield Verdict("MIG001", (facts.name, f"--lazy-tag {answers.lazy}", ""))
        return
    if facts.kind == UNKNOWN:
        missing = []
        if answers.template is None:
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
    if answers.eager is None:
        if facts.lazy is not None:
            yield Verdict("MIG001", (facts.name, facts.lazy, f"; if it does not, {_option('--eager-tag', facts)}"))
        elif not facts.eager_known:
            yield Verdict("MIG011", (facts.name, f"{facts.made_by} is not in the tree", "reads its values at once",
                                     _option("--eager-tag", facts)))


def _template_remedy(facts: TagFacts) -> str:
    if facts.kind == FUNCTION:
        return "decorate it with @accepts_template"
    if facts.kind == FACTORY:
        return f"decorate the function {facts.made_by} returns with @accepts_template"
    if facts.kind == INSTANCE:
        return f"wrap the instance: accepts_template({facts.made_by}(...)), or {_option('--template-tag', facts)}"
    # a class: @accepts_template makes no class (decisions.md)
    return (f"a class takes no template unless its __init__ reads one: make the tag a function decorated "
            f"with @accepts_template, or {_option('--template-tag', facts)} if it reads one")


def answers(facts: TagFacts, lazy: frozenset[str], eager: frozenset[str], template: frozenset[str],
            raw: frozenset[str]) -> Answers:
    """What the options (sets of qualified names) say about the tag: the name each matched by."""

    def match(names: frozenset[str]) -> str | None:
        found = facts.names & names
        return min(found) if found else None

    return Answers(match(lazy), match(eager), match(template), match(raw))
