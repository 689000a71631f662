"""Which language a tag declares, read from its definition as the tag resolver finds it (no import, no run).

The forms t-linter reads, with its names, so that one annotation serves both:

- ``Annotated[..., "html"]`` on the tag's ``*args`` element type, or on its
  first parameter (a ``Template``: ``@accepts_template`` tags, t-string functions);
- ``Annotated[..., Marker]`` where ``Marker`` has ``tstring_language = "html"``
  (``tagstr_runtime.languages.HTML``...);
- aliases of those: ``type X = ...``, ``X: TypeAlias = ...``, ``X = ...``;
- a ``tstring_language`` attribute on the tag's class, or set on the tag
  (``html.tstring_language = "html"``).

What a tag's name refers to is the one tag resolver's answer
(``definitions.TagResolver``): through aliases, wrappers, instances, factory
calls and imports into the tree's other modules.  The names an annotation reads
(a type alias, a marker) are resolved by it as well.
"""

from __future__ import annotations

import ast
from typing import Iterator, Mapping
from weakref import WeakKeyDictionary

from tagstr_runtime.analysis.definitions import CLASS, INSTANCE, LIBRARY, MODULE, Step, TagDefinition, TagResolver
from tagstr_runtime.analysis.embedded import canonical
from tagstr_runtime.analysis.embedded.registry import REGISTRY
from tagstr_runtime.analysis.embedded.qualified import imported_names, name_of_module
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.desugarer.sites import Site

__all__ = ["LanguageResolver"]

#: Our marker classes (tagstr_runtime.languages), by qualified name.
MARKER_MODULE = "tagstr_runtime.languages"
MARKERS = {language.marker: language.name for language in REGISTRY}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEPTH = 8


class LanguageResolver:
    """A tag's name -> the language its definition declares, for the modules of one tree.

    ``configured`` maps a tag's qualified name (as some module of the way
    imports it, or its definition's) or the name written at the tag string to a
    language: it comes first, for tags whose definition cannot be seen.
    """

    def __init__(self, resolver: TagResolver, configured: Mapping[str, str] | None = None) -> None:
        self.resolver = resolver
        self.configured = dict(configured or {})
        # by module: (id of a shared definition, the name written) -> (the definition, its language)
        self._by_definition: WeakKeyDictionary[
            ModuleAnalysis, dict[tuple[int, str], tuple[TagDefinition, str | None]]
        ] = WeakKeyDictionary()
        # a module -> its ``name.tstring_language = "..."`` statements (bases and languages)
        self._set: WeakKeyDictionary[ModuleAnalysis, list[tuple[ast.Name, str]]] = WeakKeyDictionary()

    def language(self, module: ModuleAnalysis, name: ast.expr) -> str | None:
        """The language of the tag read by ``name`` (a ``Name`` in ``module.tree``; for
        ``tag(t"...")`` also a dotted name), or None."""
        return self._language(module, _dotted_text(name), self.resolver.value(module, name, 0))

    def site_language(self, module: ModuleAnalysis, site: Site) -> str | None:
        """The language of a tag string's tag (``language`` of its name), its definition
        shared by the tag strings that read the same binding (``TagResolver.site_definition``),
        and so is the answer."""
        definition = self.resolver.site_definition(module, site)
        by_definition = self._by_definition.get(module)
        if by_definition is None:
            by_definition = self._by_definition[module] = {}
        key = (id(definition), site.name.id)
        found = by_definition.get(key)
        if found is None or found[0] is not definition:
            found = by_definition[key] = (definition, self._language(module, site.name.id, definition))
        return found[1]

    def _language(self, module: ModuleAnalysis, written: str, definition: TagDefinition) -> str | None:
        if self.configured:
            for qualified in (written, *self.qualified_names(module, written, definition)):
                if qualified in self.configured:
                    return self.configured[qualified]
        return self.declared(definition)

    def qualified_names(self, module: ModuleAnalysis, written: str, definition: TagDefinition) -> list[str]:
        """The qualified names of the tag along its resolution: as each import names it, and its
        definition's (``module.name``)."""
        names = list(imported_names(written, definition.steps))
        if definition.node is not None and definition.module is not None and definition.kind != INSTANCE:
            name = getattr(definition.node, "name", None)
            owner = name_of_module(definition.module)
            if name and owner and any(s is definition.node for s in getattr(definition.module.tree, "body", ())):
                names.append(f"{owner}.{name}")
        return list(dict.fromkeys(names))

    # the definition -----------------------------------------------------------------------

    def declared(self, definition: TagDefinition, depth: int = 0) -> str | None:
        """The language ``definition`` declares, or None."""
        node, module = definition.node, definition.module
        if node is None or module is None or definition.kind == MODULE or depth > _DEPTH:
            return None
        language = self._set_on(definition)
        if language:
            return language
        if isinstance(node, ast.ClassDef):
            language = _class_attribute(node)
            if language:
                return language
        function = definition.function
        if function is None and definition.kind == LIBRARY:
            if isinstance(node, _FUNCTIONS):  # @template_tag
                function = node
            elif isinstance(node, ast.Call) and node.args:  # template_tag(f), accepts_template(f)
                return self.declared(self.resolver.value(module, node.args[0], 0), depth + 1)
        if isinstance(function, _FUNCTIONS):
            method = definition.kind in (CLASS, INSTANCE)
            annotation = _tag_annotation(function, method)
            if annotation is not None:
                return self.annotation(module, annotation, depth + 1)
        return None

    def _set_on(self, definition: TagDefinition) -> str | None:
        """``tag.tstring_language = "..."`` in a module of the way, ``tag`` being this definition."""
        seen: set[int] = set()
        for module in (definition.module, *(step.module for step in definition.steps)):
            if module is None or id(module) in seen:
                continue
            seen.add(id(module))
            for base, language in self._settings(module):
                if self.resolver.resolve(module, base).node is definition.node:
                    return language
        return None

    def _settings(self, module: ModuleAnalysis) -> list[tuple[ast.Name, str]]:
        found = self._set.get(module)
        if found is None and module.source is not None and "tstring_language" not in module.source.text:
            found = self._set[module] = []
        if found is None:
            found = self._set[module] = [
                (target.value, language)
                for statement in _outside_functions(module.tree)
                if isinstance(statement, (ast.Assign, ast.AnnAssign))
                for target in (statement.targets if isinstance(statement, ast.Assign) else [statement.target])
                if isinstance(target, ast.Attribute) and target.attr == "tstring_language"
                and isinstance(target.value, ast.Name)
                for language in [_string_language(statement.value)] if language
            ]
        return found

    # annotations ------------------------------------------------------------------------

    def annotation(self, module: ModuleAnalysis, annotation: ast.expr, depth: int, placed: bool = True) -> str | None:
        """The language an annotation of ``module`` declares; ``placed``: its nodes are in
        ``module.tree`` (not parsed from a string: those names are looked up at module level)."""
        if depth > _DEPTH:
            return None
        if isinstance(annotation, ast.Subscript) and _name(annotation.value) == "Annotated":
            for metadata in _elements(annotation.slice)[1:]:
                language = self._metadata(module, metadata, depth, placed)
                if language:
                    return language
            return None
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                parsed = ast.parse(annotation.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, RecursionError):  # not an annotation
                return None
            return self.annotation(module, parsed, depth + 1, placed=False)
        if isinstance(annotation, ast.Name):  # an alias of a type
            found = self._lookup(module, annotation, placed)
            aliased = found.steps[-1] if found.kind not in (CLASS, MODULE) and found.steps else None
            value = getattr(aliased.node, "value", None) if aliased is not None else None
            if aliased is not None and aliased.kind in ("assignment", "statement") and isinstance(value, ast.expr):
                return self.annotation(aliased.module, value, depth + 1)
            return None
        if isinstance(annotation, ast.BinOp):  # X | None
            return (self.annotation(module, annotation.left, depth + 1, placed)
                    or self.annotation(module, annotation.right, depth + 1, placed))
        if isinstance(annotation, ast.Subscript) and _name(annotation.value) in ("Optional", "Union"):
            for element in _elements(annotation.slice):
                language = self.annotation(module, element, depth + 1, placed)
                if language:
                    return language
        return None

    def _metadata(self, module: ModuleAnalysis, metadata: ast.expr, depth: int, placed: bool) -> str | None:
        if isinstance(metadata, ast.Constant) and isinstance(metadata.value, str):
            return canonical(metadata.value)
        if isinstance(metadata, ast.Call):  # Marker()
            metadata = metadata.func
        if not isinstance(metadata, (ast.Name, ast.Attribute)):
            return None
        found = self._lookup(module, metadata, placed)
        if found.kind == CLASS and isinstance(found.node, ast.ClassDef):  # a marker class of the tree
            return _class_attribute(found.node)
        qualified = self._outside_name(module, metadata, placed)
        owner, _, marker = (qualified or "").rpartition(".")
        return MARKERS.get(marker) if owner == MARKER_MODULE else None

    def _lookup(self, module: ModuleAnalysis, expr: ast.expr, placed: bool) -> TagDefinition:
        if placed:
            return self.resolver.value(module, expr, 0)
        if isinstance(expr, ast.Name):
            return self.resolver.resolve_top_level(module, expr.id)
        if isinstance(expr, ast.Attribute):
            base = self._lookup(module, expr.value, placed)
            if base.kind == MODULE and base.module is not None:
                return self.resolver.resolve_top_level(base.module, expr.attr)._with(
                    steps=(*base.steps, Step("attribute", expr, module)))
        return TagDefinition("unknown", reason="not a name")

    def _outside_name(self, module: ModuleAnalysis, expr: ast.expr, placed: bool) -> str | None:
        """The qualified name of ``expr`` imported from outside the tree (``tagstr_runtime.languages.HTML``)."""
        if isinstance(expr, ast.Attribute):
            base = self._outside_name(module, expr.value, placed)
            return f"{base}.{expr.attr}" if base else None
        if isinstance(expr, ast.Name):
            found = self._lookup(module, expr, placed)
            if found.kind == MODULE and found.module is not None:
                return name_of_module(found.module)
            names = list(imported_names(expr.id, found.steps))
            return names[-1] if names else None
        return None


def _outside_functions(tree: ast.AST) -> Iterator[ast.stmt]:
    """The statements of a module not in a function or class body."""
    todo = list(getattr(tree, "body", ()))
    while todo:
        statement = todo.pop()
        yield statement
        if not isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                todo.extend(getattr(statement, field, ()))
            for holder in getattr(statement, "handlers", ()) or getattr(statement, "cases", ()):
                todo.extend(holder.body)


def _tag_annotation(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> ast.expr | None:
    """The annotation that declares a tag's language: its ``*args``', else its first parameter's."""
    arguments = function.args
    if arguments.vararg is not None:
        return arguments.vararg.annotation
    positional = [*arguments.posonlyargs, *arguments.args]
    if positional and (method or positional[0].arg in ("self", "cls")):
        positional = positional[1:]
    return positional[0].annotation if positional else None


def _dotted_text(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted_text(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _elements(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def _string_language(value: ast.expr | None) -> str | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return canonical(value.value)
    return None


def _class_attribute(node: ast.ClassDef) -> str | None:
    """``tstring_language = "html"`` in the class body."""
    for item in node.body:
        if isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "tstring_language" for t in item.targets
        ):
            return _string_language(item.value)
        if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                and item.target.id == "tstring_language"):
            return _string_language(item.value)
    return None
