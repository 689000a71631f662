"""TAG003 and TAG014: a tag named like a string prefix (``f``, ``r``, ``b``, ``rb``...; ``t`` from 3.14).

``f"..."`` is an f-string and ``rb"..."`` a bytes literal whatever ``f`` or
``rb`` is bound to (SPEC 1.2), and from 3.14 on ``t"..."`` is a t-string
(SPEC 1.4), so such a tag can never be used as one.  TAG003 reports the tag
where it is bound; TAG014 reports each string written with its name while it
is in scope, the line that was meant as a call of the tag (``R"Hello {name}"``
is a raw string).

What counts as a tag is what ``name"..."`` would call with the tag string's
arguments, as the analysis layer's tag resolver says (``TagResolver``,
``TagDefinition.is_tag_function``): a function or lambda taking ``*args``
written as a tag function; a class whose ``__init__`` (or ``__new__``) is
one (a *class tag*); an instance of a class whose ``__call__`` is one
(``r = Render()``, ``f: Render = ...``); another name for a tag of this
module (``rb = html``); what a factory of this module returns; a name
annotated ``TagFunction``.  Names imported from other modules are not
followed (a rule sees one file), except that from 3.14 an imported ``t``,
``tr`` or ``rt`` in scope makes ``t"..."`` suspect: before 3.14 that line
called it.  Both read the runtime's findings (``prefix_named_tags``,
``prefixed_strings``), which the migration's MIG012 reads too.

Both rules run on every file (a module defining tags may have no tag
string): they look at statements only, and import the findings only when a
statement binds a prefix name (most files bind none).
"""

from __future__ import annotations

import ast
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator
from weakref import WeakKeyDictionary

from tagstr_runtime.frontend import STRING_PREFIXES, TEMPLATE_PREFIXES

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage

if TYPE_CHECKING:
    from tagstr_runtime.frontend import PrefixNamedTag, TagResolver


class PrefixBinding(RuleMessage):
    template = (
        "{name!r} is a tag but is named like a string prefix: {name}\"...\" is a string literal, "
        "never a call of the tag; rename it"
    )


class PrefixedString(RuleMessage):
    template = (
        "{name}\"...\" is {kind}, not a call of the tag {name!r} ({where}); rename the tag"
    )


# lower case, as the runtime lists them; template prefixes are prefixes from 3.14 on (SPEC 1.4)
PREFIXES = (STRING_PREFIXES - {""}) | (TEMPLATE_PREFIXES if sys.version_info >= (3, 14) else frozenset())


# the statements that hold statements: only these are looked into
_COMPOUND = tuple(
    getattr(ast, name) for name in (
        "FunctionDef", "AsyncFunctionDef", "ClassDef", "For", "AsyncFor", "While", "If", "With", "AsyncWith",
        "Try", "TryStar", "Match",
    ) if hasattr(ast, name)
)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORTS = (ast.Import, ast.ImportFrom)
#: the names a statement binds, by its class (only these bind a prefix name here)
_BINDS: dict[type[ast.AST], Callable[[Any], list[str]]] = {
    **dict.fromkeys(_DEFINITIONS, lambda node: [node.name]),
    ast.Assign: lambda node: [t.id for t in node.targets if type(t) is ast.Name],
    ast.AnnAssign: lambda node: [node.target.id] if type(node.target) is ast.Name else [],
    **dict.fromkeys(_IMPORTS, lambda node: [(alias.asname or alias.name).partition(".")[0] for alias in node.names]),
}
_NESTED = ("body", "orelse", "finalbody")
_COMPOUND_TYPES = frozenset(_COMPOUND)


def _binds_prefix(tree: ast.Module) -> bool:
    """Whether a definition, assignment or import binds a prefix name (statements only:
    every statement, nested ones included, without visiting expressions nor importing the
    analysis layer, since most files bind no prefix name).  One loop by the statement's
    class: it runs on every file flake8 checks."""
    binds, compound, prefixes = _BINDS, _COMPOUND_TYPES, PREFIXES
    todo = [tree.body]
    while todo:
        for stmt in todo.pop():
            kind = type(stmt)
            names = binds.get(kind)
            if names is not None:
                for name in names(stmt):
                    if name.lower() in prefixes:
                        return True
            if kind in compound:
                for field in _NESTED:
                    nested = getattr(stmt, field, None)
                    if nested:
                        todo.append(nested)
                for holder in getattr(stmt, "handlers", ()) or getattr(stmt, "cases", ()):
                    todo.append(holder.body)
    return False


#: each file's tags named like a prefix, found once for both rules
_FOUND: WeakKeyDictionary[FileContext, tuple[TagResolver | None, list[PrefixNamedTag]]] = WeakKeyDictionary()


def _tags(ctx: FileContext) -> tuple[TagResolver | None, list[PrefixNamedTag]]:
    """The file's tags named like a prefix, and the resolver that found them (None: the file
    binds no prefix name, nothing was imported)."""
    found = _FOUND.get(ctx)
    if found is None:
        if not isinstance(ctx.tree, ast.Module) or not _binds_prefix(ctx.tree):
            found = (None, [])
        else:
            from tagstr_runtime.frontend import TagResolver, prefix_named_tags

            resolver = TagResolver()
            found = (resolver, list(prefix_named_tags(ctx.module, resolver, PREFIXES)))
        _FOUND[ctx] = found
    return found


def check_tag003(ctx: FileContext) -> Iterator[TagMessage]:
    for found in _tags(ctx)[1]:
        yield PrefixBinding(found.node.lineno, found.node.col_offset, name=found.name)  # type: ignore[attr-defined]


def check_tag014(ctx: FileContext) -> Iterator[TagMessage]:
    resolver, tags = _tags(ctx)
    if resolver is None:
        return
    from tagstr_runtime.frontend import prefixed_strings, string_kind

    names = {found.name.lower() for found in tags}
    if sys.version_info >= (3, 14):  # an imported t: before 3.14 t"..." called it
        names |= {
            (alias.asname or alias.name).lower() for node in ctx.module.statements
            if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names
        } & TEMPLATE_PREFIXES
    if not names:
        return
    for string in prefixed_strings(ctx.module, resolver, frozenset(names), ctx.source):
        definition, node = string.definition, string.binding.node
        if definition.is_tag_function or definition.accepts_template:
            where = f"line {definition.line or string.binding.line}"
        elif string.name.lower() in TEMPLATE_PREFIXES and isinstance(node, (ast.Import, ast.ImportFrom)):
            where = f"imported at line {string.binding.line}"
        else:
            continue
        yield PrefixedString(string.line, string.col, name=string.name, kind=string_kind(string.name), where=where)
