"""The front end that tools build on: stable for plugins, the only runtime module they import.

``tagstr_mypy`` and ``tagstr_flake8`` (and any third-party tool that wants to
understand tag strings) use the runtime's one parser and one desugarer
through the names below and nothing else; a test fails if a plugin imports a
private ``tagstr_runtime._*`` module.  Everything here keeps its name and
meaning across minor versions; what is not here may change at any time.

The pipeline, file by file (see ``docs/architecture.md``)::

    source text --parse()--> ParseResult (TagString / Field / Literal, with Spans)
                --placeholder_text()--> text CPython parses (same lines, same byte columns)
                --Desugaring(emitter=...)--> standard ``ast`` tree for one consumer,
                                             and ``.sites`` (Site / Run / Hole): each tag
                                             string as its tag receives it, with source maps

A consumer that needs a different shape of generated code passes its own
``Emitter``; it never takes the runtime's generated code apart.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tagstr_runtime.support.patching import PatchWarning, strict, wrap_once, wrapped_while

if TYPE_CHECKING:
    from tagstr_runtime.desugarer.desugaring import Desugaring
    from tagstr_runtime.desugarer.emit import Emitter, Position, RuntimeEmitter, TagCall, located, prologue_index
    from tagstr_runtime.desugarer.fingerprint import fingerprint
    from tagstr_runtime.desugarer.first_error import stand_in_text
    from tagstr_runtime.syntax.model import Field, Literal, Part, Span, TagString
    from tagstr_runtime.syntax.named_escapes import is_character_name
    from tagstr_runtime.syntax.parser import CompileWarning, ParseResult, parse
    from tagstr_runtime.syntax.errors import ErrorKind, TagSyntaxError
    from tagstr_runtime.desugarer.placeholder import mask_text, placeholder_text
    from tagstr_runtime.run.precompile import python_files
    from tagstr_runtime.syntax.source import Pos, SourceText, decode_source
    from tagstr_runtime.syntax.words import (
        HARD_KEYWORDS,
        KEYWORDS_BEFORE_STRING,
        STRING_PREFIXES,
        TEMPLATE_PREFIXES,
    )
    from tagstr_runtime.analysis.embedded import (
        ATTRIBUTES, IDENTIFIER, LanguageOptions, MissingParser, check_language, hole_requirements, language_name,
    )
    from tagstr_runtime.analysis.embedded.declared import LanguageResolver
    from tagstr_runtime.analysis.embedded.registry import (
        CHECK_FAILED, FAILURE as CHECK_FAILURE, REGISTRY as LANGUAGE_REGISTRY, Language, Report as LanguageReport,
        reports as language_reports,
    )
    from tagstr_runtime.analysis.embedded.templates import template_of_site, template_of_tstring
    from tagstr_runtime.analysis.definitions import TagDefinition, TagResolver, annotation_says_tag
    from tagstr_runtime.analysis.tag_reading import reads_later
    from tagstr_runtime.analysis.findings import (
        Finding, argumentless_super, assignment_expressions, class_variables, expression_nodes,
    )
    from tagstr_runtime.analysis.imports import ModuleFinder
    from tagstr_runtime.analysis.emitter import AnalysisEmitter
    from tagstr_runtime.analysis.module import ModuleAnalysis
    from tagstr_runtime.analysis.prefixed import (
        PREFIXES, PrefixNamedTag, prefix_named_tags, prefixed_strings, string_kind,
    )
    from tagstr_runtime.desugarer.interpolation_call import is_thunk
    from tagstr_runtime.desugarer.scopes import Binding, ScopeIndex
    from tagstr_runtime.desugarer.sites import Hole, Run, Site
    from tagstr_runtime.editing.placeholder_view import PlaceholderView
    from tagstr_runtime.editing.quick_fixes import QuickFix, RenameFix, quick_fixes
    from tagstr_runtime.editing.semantic_tokens import (
        TOKEN_MODIFIERS, TOKEN_TYPES, Token, encode_tokens, semantic_tokens,
    )
    from tagstr_runtime.editing.tag_index import Edit
    from tagstr_runtime.editing.utf16 import Lines

# Everything but the patching helpers is imported on first use: a plugin that
# loads this module for its names and meets no tag string (a mypy or flake8 run
# over a codebase without any) never pays for the parser and the desugarer, and
# flake8's plugin loads with nothing of them (issue 28).
_LAZY = {
    "ErrorKind": "syntax.errors",
    "TagSyntaxError": "syntax.errors",
    "Pos": "syntax.source",
    "SourceText": "syntax.source",
    "decode_source": "syntax.source",
    "Decoded": "_types",
    "Interpolation": "_types",
    "Desugaring": "desugarer.desugaring",
    "Emitter": "desugarer.emit",
    "Position": "desugarer.emit",
    "RuntimeEmitter": "desugarer.emit",
    "TagCall": "desugarer.emit",
    "located": "desugarer.emit",
    "prologue_index": "desugarer.emit",
    "fingerprint": "desugarer.fingerprint",
    "stand_in_text": "desugarer.first_error",
    "Field": "syntax.model",
    "Literal": "syntax.model",
    "Part": "syntax.model",
    "Span": "syntax.model",
    "TagString": "syntax.model",
    "is_character_name": "syntax.named_escapes",
    "HARD_KEYWORDS": "syntax.words",
    "KEYWORDS_BEFORE_STRING": "syntax.words",
    "STRING_PREFIXES": "syntax.words",
    "TEMPLATE_PREFIXES": "syntax.words",
    "CompileWarning": "syntax.parser",
    "ParseResult": "syntax.parser",
    "parse": "syntax.parser",
    "mask_text": "desugarer.placeholder",
    "placeholder_text": "desugarer.placeholder",
    "python_files": "run.precompile",
    "TagDefinition": "analysis.definitions",
    "TagResolver": "analysis.definitions",
    "annotation_says_tag": "analysis.definitions",
    "reads_later": "analysis.tag_reading",
    "ModuleFinder": "analysis.imports",
    "AnalysisEmitter": "analysis.emitter",
    "ModuleAnalysis": "analysis.module",
    "Finding": "analysis.findings",
    "argumentless_super": "analysis.findings",
    "assignment_expressions": "analysis.findings",
    "class_variables": "analysis.findings",
    "expression_nodes": "analysis.findings",
    "PREFIXES": "analysis.prefixed",
    "PrefixNamedTag": "analysis.prefixed",
    "prefix_named_tags": "analysis.prefixed",
    "prefixed_strings": "analysis.prefixed",
    "string_kind": "analysis.prefixed",
    "is_thunk": "desugarer.interpolation_call",
    "Binding": "desugarer.scopes",
    "ScopeIndex": "desugarer.scopes",
    "Hole": "desugarer.sites",
    "Run": "desugarer.sites",
    "Site": "desugarer.sites",
    # the embedded-language checks (docs/languages.md): no parser is imported before a check runs
    "LanguageOptions": "analysis.embedded",
    "MissingParser": "analysis.embedded",
    "check_language": "analysis.embedded",
    "language_name": "analysis.embedded",
    "hole_requirements": "analysis.embedded",
    "ATTRIBUTES": "analysis.embedded",
    "IDENTIFIER": "analysis.embedded",
    "LanguageResolver": "analysis.embedded.declared",
    "LANGUAGE_REGISTRY": "analysis.embedded.registry",
    "Language": "analysis.embedded.registry",
    "LanguageReport": "analysis.embedded.registry",
    "language_reports": "analysis.embedded.registry",
    "CHECK_FAILED": "analysis.embedded.registry",
    "CHECK_FAILURE": "analysis.embedded.registry",
    "template_of_site": "analysis.embedded.templates",
    "template_of_tstring": "analysis.embedded.templates",
    # what editors and language servers read (tagstr_lsp): the placeholder view and its way back
    "PlaceholderView": "editing.placeholder_view",
    "Edit": "editing.tag_index",
    "Lines": "editing.utf16",
    "QuickFix": "editing.quick_fixes",
    "RenameFix": "editing.quick_fixes",
    "quick_fixes": "editing.quick_fixes",
    "Token": "editing.semantic_tokens",
    "TOKEN_MODIFIERS": "editing.semantic_tokens",
    "TOKEN_TYPES": "editing.semantic_tokens",
    "encode_tokens": "editing.semantic_tokens",
    "semantic_tokens": "editing.semantic_tokens",
}


def _full_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _computed(name: str) -> str | None:
    """The names below, each computed from the module it describes, on first use."""
    if name == "CHECKER_MODULE":
        return importlib.import_module("tagstr_runtime._checker").__name__
    if name in ("INTERPOLATION_TYPE", "DECODED_TYPE"):
        types = importlib.import_module("tagstr_runtime._types")
        return _full_name(types.Interpolation if name == "INTERPOLATION_TYPE" else types.Decoded)
    if name == "TEMPLATE_TAG_TYPE":
        return _full_name(importlib.import_module("tagstr_runtime.bridge.template_tags").TemplateTag)
    return None


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f"tagstr_runtime.{module}"), name)
    else:
        value = _computed(name)
        if value is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


if TYPE_CHECKING:
    #: The module a type checker's tree imports its typed stand-ins from (``_checker``:
    #: ``tag_call``, ``Interpolation``, ``decoded``); code never imports it at run time.
    CHECKER_MODULE: str
    #: The full name of the ``Interpolation`` class, as a type checker names its type.
    INTERPOLATION_TYPE: str
    #: The full name of ``Decoded``.
    DECODED_TYPE: str
    #: The full name of the class ``@accepts_template`` returns (the mypy plugin hooks its ``__call__``).
    TEMPLATE_TAG_TYPE: str

__all__ = [
    "AnalysisEmitter",
    "annotation_says_tag",
    "argumentless_super",
    "assignment_expressions",
    "ATTRIBUTES",
    "Binding",
    "CHECK_FAILED",
    "CHECK_FAILURE",
    "check_language",
    "CHECKER_MODULE",
    "class_variables",
    "CompileWarning",
    "decode_source",
    "DECODED_TYPE",
    "Desugaring",
    "Edit",
    "Emitter",
    "encode_tokens",
    "ErrorKind",
    "expression_nodes",
    "Field",
    "Finding",
    "fingerprint",
    "HARD_KEYWORDS",
    "Hole",
    "hole_requirements",
    "IDENTIFIER",
    "INTERPOLATION_TYPE",
    "is_character_name",
    "is_thunk",
    "KEYWORDS_BEFORE_STRING",
    "Language",
    "LANGUAGE_REGISTRY",
    "language_name",
    "language_reports",
    "LanguageReport",
    "LanguageOptions",
    "LanguageResolver",
    "Lines",
    "Literal",
    "located",
    "mask_text",
    "MissingParser",
    "ModuleAnalysis",
    "ModuleFinder",
    "parse",
    "ParseResult",
    "Part",
    "PatchWarning",
    "placeholder_text",
    "PlaceholderView",
    "Pos",
    "Position",
    "prefix_named_tags",
    "prefixed_strings",
    "PREFIXES",
    "PrefixNamedTag",
    "prologue_index",
    "python_files",
    "quick_fixes",
    "reads_later",
    "QuickFix",
    "RenameFix",
    "Run",
    "RuntimeEmitter",
    "ScopeIndex",
    "semantic_tokens",
    "Site",
    "SourceText",
    "Span",
    "stand_in_text",
    "strict",
    "string_kind",
    "STRING_PREFIXES",
    "TagCall",
    "TagDefinition",
    "TagResolver",
    "TagString",
    "TagSyntaxError",
    "template_of_site",
    "template_of_tstring",
    "TEMPLATE_PREFIXES",
    "TEMPLATE_TAG_TYPE",
    "Token",
    "TOKEN_MODIFIERS",
    "TOKEN_TYPES",
    "wrap_once",
    "wrapped_while",
]
