"""Tags named like a string prefix, and the strings written with their names: findings.

``R"..."`` is a raw string and ``f"..."`` an f-string whatever ``R`` or ``f`` is
bound to (SPEC 1.2); from 3.14 on ``t"..."``, ``tr"..."`` and ``rt"..."`` are
t-strings (SPEC 1.4), where before they called a tag named ``t``.  Two findings,
read with the desugarer's scope index and the analysis layer's tag resolver:

- ``prefix_named_tags``: a def, class or assignment binding a tag to such a
  name (flake8's TAG003; the migration refuses the module, MIG012);
- ``prefixed_strings``: a string, or a tag string named like a prefix, whose
  prefix is the name of a binding in scope there (flake8's TAG014 when that
  binding is a tag; MIG012).

Both ask the scope index which binding the name would refer to where the
string is written (``ScopeIndex.bindings_of``), and the tag resolver what that
binding is.  A file without tag strings imports neither the parser nor the
desugarer here (flake8 runs TAG003 and TAG014 on every file).
"""

from __future__ import annotations

import ast
import re
import sys
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple

from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.analysis.definitions import TagDefinition, TagResolver, annotation_says_tag
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.desugarer.scopes import Binding
from tagstr_runtime.syntax.words import STRING_PREFIXES, TEMPLATE_PREFIXES

if TYPE_CHECKING:
    from tagstr_runtime.syntax.model import TagString

__all__ = [
    "PREFIXES", "PREFIXES_314", "PrefixNamedTag", "PrefixedString", "prefix_named_tags", "prefixed_strings",
    "string_kind",
]

#: the string prefixes of the running Python, lower case (template prefixes from 3.14 on)
PREFIXES = (STRING_PREFIXES - {""}) | (TEMPLATE_PREFIXES if sys.version_info >= (3, 14) else frozenset())
#: the string prefixes of Python 3.14, where migrated code runs
PREFIXES_314 = (STRING_PREFIXES - {""}) | TEMPLATE_PREFIXES

_STRINGS = tuple(
    kind for kind in (ast.Constant, ast.JoinedStr, getattr(ast, "TemplateStr", None)) if kind is not None
)

#: whose parts are the text of a string, not strings of the code
_STRING_BODIES = tuple(kind for kind in (ast.JoinedStr, getattr(ast, "TemplateStr", None)) if kind is not None)


def string_kind(prefix: str) -> str:
    """What a string written with ``prefix`` is (from 3.14 on, for t)."""
    letters = prefix.lower()
    raw = "raw " if "r" in letters else ""
    if "t" in letters:
        return f"a {raw}t-string"
    if "f" in letters:
        return f"a {raw}f-string" if raw else "an f-string"
    if "b" in letters:
        return f"a {raw}bytes literal"
    return "a raw string" if raw else "a string"


class PrefixNamedTag(NamedTuple):
    """A tag bound to a name that is a string prefix: ``node`` (a def, a class, an assignment's
    target ``Name``) binds ``name``."""

    node: ast.AST
    name: str
    definition: TagDefinition


def prefix_named_tags(
    module: ModuleAnalysis, resolver: TagResolver, prefixes: frozenset[str]
) -> Iterator[PrefixNamedTag]:
    """The tags of ``module`` named like one of ``prefixes`` (lower case): what the resolver
    reads as a tag function, or a name annotated as a tag.  Statements only, never expressions."""
    for node in module.statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name.lower() in prefixes:
                definition = resolver.definition(module, node, node.name)
                if definition.is_tag_function:
                    yield PrefixNamedTag(node, node.name, definition)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t for t in targets if isinstance(t, ast.Name) and t.id.lower() in prefixes]
            if not named:
                continue
            definition = resolver.definition(module, node, named[0].id)
            if definition.is_tag_function or (
                isinstance(node, ast.AnnAssign) and annotation_says_tag(resolver, module, node.annotation)
            ):
                yield from (PrefixNamedTag(target, target.id, definition) for target in named)


class PrefixedString(NamedTuple):
    """A string (or a tag string) written with ``name`` as its prefix, where ``name`` is bound."""

    name: str  # the prefix as written
    line: int
    col: int  # UTF-8 bytes, as ast's col_offset
    offset: int  # in the source text
    binding: Binding  # what ``name`` refers to there
    definition: TagDefinition  # what the resolver makes of it


def _bound_names(module: ModuleAnalysis, prefixes: frozenset[str]) -> frozenset[str]:
    """The names like ``prefixes`` that some statement of the module binds (parameters aside)."""
    found: set[str] = set()
    for node in module.statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.With,
                               ast.AsyncWith)):
            for target in ast.walk(node):
                if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store):
                    found.add(target.id)
    return frozenset(name for name in found if name.lower() in prefixes)


def prefixed_strings(
    module: ModuleAnalysis, resolver: TagResolver, prefixes: frozenset[str], source: SourceText | None = None
) -> list[PrefixedString]:
    """The strings of ``module`` whose prefix is one of ``prefixes`` (lower case) and the name of
    a binding in scope there, and the tag strings named so (a module read with ``t`` a tag).
    Only the first string of an implicit concatenation is looked at.  ``source``: the
    module's text, when the module was built without it."""
    names = _bound_names(module, prefixes)
    if not names:
        return []
    source = source or module.source
    assert source is not None
    text = source.text
    written = re.compile(r"(?<![\w.])(%s)['\"]" % "|".join(sorted(map(re.escape, names))))
    found: list[tuple[str, ast.AST, Binding]] = []
    for site in module.sites:
        if site.tag.tag in names:
            binding = module.scopes.read_binding(site.name.lineno, site.name.col_offset)
            if binding is not None:
                found.append((site.tag.tag, site.name, binding))
    if written.search(text):
        found.extend(_strings_in_scope(module, source, written))
    found.sort(key=lambda item: (item[1].lineno, item[1].col_offset))  # type: ignore[attr-defined]
    return [
        PrefixedString(name, node.lineno, node.col_offset,  # type: ignore[attr-defined]
                       source.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                       binding, resolver.definition(module, binding.node, name))
        for name, node, binding in found
    ]


def _literal_spans(tags: Iterable[TagString]) -> list[tuple[int, int]]:
    """The literal text of tag strings (their specs' too): no string of the code starts there."""
    from tagstr_runtime.syntax.model import Field, Literal  # a module with tag strings: already imported

    spans: list[tuple[int, int]] = []
    for tag in tags:
        parts = list(tag.parts)
        while parts:
            part = parts.pop()
            if isinstance(part, Literal):
                spans.append((part.span.start, part.span.end))
            elif isinstance(part, Field) and part.spec:
                parts.extend(part.spec)
    return spans


def _strings_in_scope(
    module: ModuleAnalysis, source: SourceText, written: re.Pattern[str]
) -> Iterator[tuple[str, ast.AST, Binding]]:
    """The strings written with one of the names, where a binding of that name is in scope."""
    text = source.text
    tags = [site.tag for site in module.sites]
    literal = _literal_spans(tags) if tags else []
    todo: list[ast.AST] = [module.tree]
    while todo:
        parent = todo.pop()
        # an f-string's or t-string's parts are its text, a field's spec too (their fields are walked)
        text_parts = isinstance(parent, _STRING_BODIES)
        for field, value in ast.iter_fields(parent):
            for child in value if isinstance(value, list) else [value]:
                if not isinstance(child, ast.AST):
                    continue
                todo.append(child)
                if text_parts or field == "format_spec" or not isinstance(child, _STRINGS) or (
                    isinstance(child, ast.Constant) and not isinstance(child.value, (str, bytes))
                ):
                    continue
                offset = source.offset(child.lineno, child.col_offset)
                match = written.match(text, offset)
                if match is None or any(start <= offset < end for start, end in literal):
                    continue
                binding = module.scopes.read_binding(child.lineno, child.col_offset, match.group(1))
                if binding is not None:
                    yield match.group(1), child, binding
