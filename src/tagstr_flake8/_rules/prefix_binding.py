"""TAG003: a tag bound to a name that is a string prefix (``f``, ``r``, ``b``, ``rb``...).

``f"..."`` is an f-string and ``rb"..."`` a bytes literal whatever ``f`` or
``rb`` is bound to (SPEC 1.2), so such a tag can never be used as one.

What counts as a tag is what ``name"..."`` would call with the tag string's
arguments, as the analysis layer's tag resolver says (``TagResolver``,
``TagDefinition.is_tag_function``): a function or lambda taking ``*args``
written as a tag function; a class whose ``__init__`` (or ``__new__``) is
one (a *class tag*); an instance of a class whose ``__call__`` is one
(``r = Render()``, ``f: Render = ...``); another name for a tag of this
module (``rb = html``); what a factory of this module returns; a name
annotated ``TagFunction``.  Names imported from other modules are not
followed: a rule sees one file.

This rule runs on every file (a module defining tags may have no tag string),
so it visits statements only, never expressions, and looks closer only at a
definition, or an assignment of a prefix name.
"""

from __future__ import annotations

import ast
import sys
from typing import TYPE_CHECKING, Iterator

from tagstr_runtime.frontend import STRING_PREFIXES, TEMPLATE_PREFIXES

from tagstr_flake8._context import FileContext
from tagstr_flake8._messages import PrefixBinding, TagMessage

if TYPE_CHECKING:
    from tagstr_runtime.frontend import TagResolver

# lower case, as the runtime lists them; template prefixes are prefixes from 3.14 on (SPEC 1.4)
PREFIXES = (STRING_PREFIXES - {""}) | (TEMPLATE_PREFIXES if sys.version_info >= (3, 14) else frozenset())


def _is_prefix(name: str) -> bool:
    return name.lower() in PREFIXES


def _resolver() -> TagResolver:
    from tagstr_runtime.frontend import TagResolver

    return TagResolver()


def check_tag003(ctx: FileContext) -> Iterator[TagMessage]:
    # this rule runs on every file: visit statements only (no expressions),
    # and look closer only at a definition or assignment of a prefix name
    if not isinstance(ctx.tree, ast.Module):
        return
    module = ctx.module
    resolver = None  # imported and made at the first prefix name: most files have none
    for node in module.statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not _is_prefix(node.name):
                continue
            resolver = resolver or _resolver()
            if resolver.definition(module, node, node.name).is_tag_function:
                yield PrefixBinding.at(node, name=node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t for t in targets if isinstance(t, ast.Name) and _is_prefix(t.id)]
            if not named:
                continue
            from tagstr_runtime.frontend import annotation_says_tag

            resolver = resolver or _resolver()
            tagged = (node.value is not None and resolver.value(module, node.value, 0).is_tag_function) or (
                isinstance(node, ast.AnnAssign) and annotation_says_tag(resolver, module, node.annotation)
            )
            if tagged:
                for target in named:
                    yield PrefixBinding.at(target, name=target.id)
