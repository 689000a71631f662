"""What a tag does with what it gets: the facts the migration needs of a ``TagDefinition``.

Whether it is proven to read each value exactly once, in order, with nothing
observable in between (``tag_reads``), whether it may read a ``Decoded``'s
``.raw`` or an interpolation's ``expr`` (``tag_mentions``), whether a
``template_tag`` keeps the source text.  Each definition node is read once
per resolver (``TagResolver.readings``); the tree's helpers it calls are
followed through the resolver (``quiet``).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from tagstr_runtime.analysis.definitions import CLASS, FUNCTION, INSTANCE, LIBRARY, TagDefinition, TagResolver
from tagstr_runtime.analysis.tag_mentions import lets_decoded_out, reads_part
from tagstr_runtime.analysis.tag_reads import LAZY, ORDER, Unproven, unproven_reading
from tagstr_runtime.analysis.tag_types import called_name

__all__ = ["Reading", "reading", "reads_later"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Reading(NamedTuple):
    """What a tag does with what it gets (``reading``)."""

    #: why it is not proven to read each value exactly once, in order, with nothing
    #: observable in between (None: proven; unknown tags: None too, ``known`` says it)
    unproven: Unproven | None
    reads_raw: bool | None  # reads a Decoded's .raw, or lets one out (None: cannot tell)
    reads_expr: bool | None  # reads an interpolation's expr (None: cannot tell)
    raw_template: bool = False  # template_tag(..., raw=True): its template keeps the source text


def reading(definition: TagDefinition, resolver: TagResolver) -> Reading:
    """What the tag does with what it gets, as far as its code says (``tag_reads``,
    ``tag_mentions``); ``resolver`` follows the helpers it calls.  Judged once per
    definition node (the resolver keeps it)."""
    key = (definition.kind, id(definition.node), definition.wrappers)
    kept = resolver.readings.get(key)
    if kept is None:
        kept = resolver.readings[key] = (definition.node, _reading(definition, resolver))
    found = kept[1]
    assert isinstance(found, Reading)
    return found


def reads_later(definition: TagDefinition, resolver: TagResolver) -> str | None:
    """Why the tag may read its values after it returns (a class, a generator, a tag that
    keeps or passes on its arguments, an unknown decorator), or None: during the call, or
    unknown.  The mypy plugin keeps such a tag's interpolations as closures."""
    unproven = reading(definition, resolver).unproven
    return unproven.why if unproven is not None and unproven.kind == LAZY else None


def _reading(definition: TagDefinition, resolver: TagResolver) -> Reading:
    module, node = definition.module, definition.node
    if not definition.known or module is None or node is None:
        return Reading(None, None, None)
    if definition.kind == LIBRARY:
        wrapped: ast.AST | None = node
        raw = False
        if isinstance(node, ast.Call):
            raw = any(k.arg == "raw" and isinstance(k.value, ast.Constant) and k.value.value is True
                      for k in node.keywords)
            found = resolver.value(module, node.args[0], 0)
            wrapped, module = (found.node, found.module) if found.kind == FUNCTION else (None, None)
        expr = None if wrapped is None or module is None else reads_part(wrapped, module, resolver, "expression", 1)
        return Reading(None, False, expr, raw)
    raw_read = reads_part(node, module, resolver, "raw", None)
    function = definition.function
    if raw_read is not True and isinstance(function, (*_FUNCTIONS, ast.Lambda)) and lets_decoded_out(function):
        raw_read = True  # whoever gets one of its Decoded parts may read .raw
    expr_read = reads_part(node, module, resolver, "expr", 1)
    if definition.kind == CLASS:
        return Reading(Unproven(LAZY, "it is a class: it keeps its arguments in the instance"), raw_read, expr_read)
    if function is None:
        return Reading(Unproven(ORDER, "it has no function the tool can read"), raw_read, expr_read)
    for decorator in getattr(function, "decorator_list", ()):
        name = called_name(decorator)
        if name != "accepts_template":
            return Reading(Unproven(LAZY, f"it is decorated with {name or 'an expression'} (line "
                                          f"{decorator.lineno}): what that does with the call is not known"),
                           raw_read, expr_read)
    unproven = unproven_reading(function, module, resolver.quiet, method=definition.kind == INSTANCE)
    return Reading(unproven, raw_read, expr_read)
