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

from tagstr_runtime import _checker
from tagstr_runtime._bridge import TemplateTag
from tagstr_runtime._errors import ErrorKind, TagSyntaxError
from tagstr_runtime._patching import PatchWarning, strict, wrap_once, wrapped_while
from tagstr_runtime._source import Pos, SourceText, decode_source
from tagstr_runtime._types import Decoded, Interpolation

if TYPE_CHECKING:
    from tagstr_runtime._desugaring import Desugaring
    from tagstr_runtime._emit import Emitter, Position, RuntimeEmitter, TagCall, located, prologue_index
    from tagstr_runtime._fingerprint import fingerprint
    from tagstr_runtime._first_error import stand_in_text
    from tagstr_runtime._model import Field, Literal, Part, Span, TagString
    from tagstr_runtime._named_escapes import is_character_name
    from tagstr_runtime._parser import (
        HARD_KEYWORDS,
        KEYWORDS_BEFORE_STRING,
        STRING_PREFIXES,
        TEMPLATE_PREFIXES,
        CompileWarning,
        ParseResult,
        parse,
    )
    from tagstr_runtime._placeholder import mask_text, placeholder_text
    from tagstr_runtime._precompile import python_files
    from tagstr_runtime.analysis.sites import Hole, Run, Site

# The parser and the desugarer are imported on first use: a plugin that loads
# this module for its names and meets no tag string (a mypy run over a codebase
# without any) never pays for them.
_LAZY = {
    "Desugaring": "_desugaring",
    "Emitter": "_emit",
    "Position": "_emit",
    "RuntimeEmitter": "_emit",
    "TagCall": "_emit",
    "located": "_emit",
    "prologue_index": "_emit",
    "fingerprint": "_fingerprint",
    "stand_in_text": "_first_error",
    "Field": "_model",
    "Literal": "_model",
    "Part": "_model",
    "Span": "_model",
    "TagString": "_model",
    "is_character_name": "_named_escapes",
    "HARD_KEYWORDS": "_parser",
    "KEYWORDS_BEFORE_STRING": "_parser",
    "STRING_PREFIXES": "_parser",
    "TEMPLATE_PREFIXES": "_parser",
    "CompileWarning": "_parser",
    "ParseResult": "_parser",
    "parse": "_parser",
    "mask_text": "_placeholder",
    "placeholder_text": "_placeholder",
    "python_files": "_precompile",
    "Hole": "analysis.sites",
    "Run": "analysis.sites",
    "Site": "analysis.sites",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"tagstr_runtime.{module}"), name)
    globals()[name] = value
    return value


#: The module a type checker's tree imports its typed stand-ins from (``_checker``:
#: ``tag_call``, ``Interpolation``, ``decoded``); code never imports it at run time.
CHECKER_MODULE: str = _checker.__name__
#: The full name of the ``Interpolation`` class, as a type checker names its type.
INTERPOLATION_TYPE: str = f"{Interpolation.__module__}.{Interpolation.__qualname__}"
#: The full name of ``Decoded``.
DECODED_TYPE: str = f"{Decoded.__module__}.{Decoded.__qualname__}"
#: The full name of the class ``@accepts_template`` returns (the mypy plugin hooks its ``__call__``).
TEMPLATE_TAG_TYPE: str = f"{TemplateTag.__module__}.{TemplateTag.__qualname__}"

__all__ = [
    "CHECKER_MODULE",
    "CompileWarning",
    "DECODED_TYPE",
    "Desugaring",
    "Emitter",
    "ErrorKind",
    "Field",
    "HARD_KEYWORDS",
    "Hole",
    "INTERPOLATION_TYPE",
    "KEYWORDS_BEFORE_STRING",
    "Literal",
    "ParseResult",
    "Part",
    "PatchWarning",
    "Pos",
    "Position",
    "Run",
    "RuntimeEmitter",
    "STRING_PREFIXES",
    "Site",
    "SourceText",
    "Span",
    "TEMPLATE_PREFIXES",
    "TEMPLATE_TAG_TYPE",
    "TagCall",
    "TagString",
    "TagSyntaxError",
    "decode_source",
    "fingerprint",
    "is_character_name",
    "located",
    "mask_text",
    "parse",
    "placeholder_text",
    "prologue_index",
    "python_files",
    "stand_in_text",
    "strict",
    "wrap_once",
    "wrapped_while",
]
