"""Which interpolations ask for a type by where they stand: an SQL name, the attributes of an HTML tag.

A tag's language is what its definition declares, found as the flake8 checks
find it (the analysis layer's ``LanguageResolver``, following imports from
the module's folder), and each hole's context is the runtime's language
checks' (``hole_requirements``): nothing here reads a tag string's text.
mypy itself cannot say: it drops ``Annotated``'s metadata from types, and its
cache keeps no annotation as written
(docs/decisions/0194-mypy-reads-a-tags-language-from-its-source.md).  The type each
context asks for is checked by ``typing.hole_types`` when the tag string is typed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from tagstr_runtime.frontend import LANGUAGE_REGISTRY, strict

if TYPE_CHECKING:
    from tagstr_runtime.frontend import ModuleAnalysis, TagResolver

__all__ = ["hole_demands"]

LOG = logging.getLogger(__name__)
#: the languages whose holes may ask for a type (``hole_requirements``), with their parsers
_TYPED = {language.name: language.parsers for language in LANGUAGE_REGISTRY if language.typed}
_installed: frozenset[str] | None = None


def hole_demands(module: ModuleAnalysis, resolver: TagResolver, filename: str) -> dict[int, str]:
    """What each interpolation of a declared SQL or HTML tag string of ``module`` asks of its
    value's type, by the source offset of its field (``IDENTIFIER``, ``ATTRIBUTES``)."""
    if not _parsers():
        return {}
    try:
        return _demands(module, resolver)
    except Exception:  # a bug of ours costs these checks, never the build
        if strict():
            raise
        LOG.exception("tagstr_mypy: the interpolations' contexts of %s", filename)
        return {}


def _demands(module: ModuleAnalysis, tags: TagResolver) -> dict[int, str]:
    from tagstr_runtime.frontend import LanguageResolver, MissingParser, hole_requirements, template_of_site

    resolver = LanguageResolver(tags)
    found: dict[int, str] = {}
    for site in module.sites:  # the language first: shared by the sites reading one binding
        language = resolver.site_language(module, site)
        if language not in _parsers() or not site.holes:
            continue
        template = template_of_site(site)
        try:
            demands = hole_requirements(language, template.strings, template.slots)
        except MissingParser:  # the flake8 plugin names the extra; here the checks are left out
            continue
        for index, demand in demands.items():
            found[site.holes[index].field.span.start] = demand
    return found


def _parsers() -> frozenset[str]:
    """The languages of ``_TYPED`` whose parser is installed (none: nothing to resolve)."""
    global _installed
    if _installed is None:
        from importlib.util import find_spec

        _installed = frozenset(language for language, modules in _TYPED.items()
                               if all(find_spec(module) is not None for module in modules))
    return _installed
