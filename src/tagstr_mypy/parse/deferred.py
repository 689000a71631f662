"""Which interpolations the tree mypy checks keeps as closures; every other one is checked in place.

An interpolation is a closure the tag calls (SPEC 3, 4); its f-string twin is
evaluated where it stands.  A tag that reads its values during the call (an
``html`` or ``sql`` tag: nearly all) makes the two the same, so the checker
tree puts each expression where the twin has it, and mypy narrows, checks
definedness and places columns as for the twin
(docs/decisions/0081-tags-read-their-values-while-called.md).  The closure stays where it means something
else, as the analysis layer finds it (the flake8 plugin's TAG005/007/011, the
migration's MIG004-006), and for tags that read their values later:

* a name of the enclosing class body (no closure sees it: ``CLASS_VARIABLE``);
* an assignment expression (it binds inside the closure);
* ``super()`` without arguments (the closure has no arguments to give it);
* every interpolation of a tag whose definition keeps its arguments or
  passes them on, or may otherwise read them after it returns (``frontend.reads_later``:
  a lazy log tag, a generator, a class).
"""

from __future__ import annotations

import ast
import os
from bisect import bisect_right
from typing import TYPE_CHECKING, Iterable

from tagstr_runtime.frontend import Field

if TYPE_CHECKING:
    from tagstr_runtime.frontend import Desugaring, Finding, ModuleAnalysis, Site, TagResolver

__all__ = ["analysed", "deferred_fields"]


def analysed(desugaring: Desugaring, filename: str) -> tuple[dict[int, str], set[int]]:
    """What the analysis layer says of the module's interpolations, by field offset: what each
    asks of its value's type (``typing.hole_demands``), and which stay closures
    (``deferred_fields``).  Both read the tag's definition with one resolver."""
    from tagstr_runtime.frontend import ModuleAnalysis, ModuleFinder, TagResolver, strict

    from tagstr_mypy.typing.hole_demands import hole_demands

    path = filename if os.path.isfile(filename) else None
    module = ModuleAnalysis(desugaring.source, desugaring.tree, desugaring.sites, path=path)
    resolver = TagResolver(ModuleFinder([os.getcwd()]))
    by_field = hole_demands(module, resolver, filename)
    try:
        deferred = deferred_fields(module, resolver)
    except Exception:  # a bug of ours costs the closures' checks (the lambdas), never the build
        if strict():
            raise
        import logging

        logging.getLogger(__name__).exception("tagstr_mypy: the closures of %s", filename)
        deferred = set()
    return by_field, deferred


def deferred_fields(module: ModuleAnalysis, resolver: TagResolver) -> set[int]:
    """The source offsets of the fields whose interpolation stays a closure."""
    from tagstr_runtime.frontend import argumentless_super, assignment_expressions, class_variables, reads_later

    text = module.source.text if module.source is not None else ""
    found: list[Iterable[Finding]] = []
    if "class" in text and _in_a_class(module):
        found.append(class_variables(module))
    if ":=" in text:  # each check reads the text of the fields first: skipped when the module cannot have one
        found.append(assignment_expressions(module))
    if "super" in text:
        found.append(argumentless_super(module))
    deferred: set[int] = set()
    for findings in found:
        for finding in findings:
            field = _field_at(finding.site, finding.span.start)
            if field is not None:
                deferred.add(field.span.start)
    for site in module.sites:
        fields = [part for part in site.tag.parts if isinstance(part, Field)]
        if fields and reads_later(resolver.site_definition(module, site), resolver) is not None:
            deferred.update(field.span.start for field in fields)
    return deferred


def _in_a_class(module: ModuleAnalysis) -> bool:
    """Whether a tag string stands inside a class statement (its body, or a method's)."""
    spans = sorted(
        (node.lineno, node.end_lineno or node.lineno) for node in module.statements if isinstance(node, ast.ClassDef)
    )
    if not spans:
        return False
    starts = [start for start, _ in spans]
    reach: list[int] = []  # the last line of the classes starting up to each one
    for _, end in spans:
        reach.append(max(end, reach[-1]) if reach else end)
    for site in module.sites:
        index = bisect_right(starts, site.at[0]) - 1
        if index >= 0 and reach[index] >= site.at[0]:
            return True
    return False


def _field_at(site: Site, offset: int) -> Field | None:
    """The field of ``site``'s body holding the source offset ``offset``."""
    for part in site.tag.parts:
        if isinstance(part, Field) and part.span.start <= offset < part.span.end:
            return part
    return None
