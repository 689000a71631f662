"""Which language a tag declares, read from its definition's tree (no import, no evaluation).

The forms t-linter reads, with its names, so that one annotation serves both:

- ``Annotated[..., "html"]`` on the tag's ``*args`` element type, or on its
  first parameter (a ``Template``: ``@accepts_template`` tags, t-string functions);
- ``Annotated[..., Marker]`` where ``Marker`` has ``tstring_language = "html"``
  (``tagstr_runtime.languages.HTML``...);
- aliases of those: ``type X = ...``, ``X: TypeAlias = ...``, ``X = ...``;
- a ``tstring_language`` attribute on the tag's class, or set on the tag
  (``html.tstring_language = "html"``).

A tag bound to another name (``h = html``), wrapped (``accepts_template(f)``)
or instantiated (``html = Html()``) keeps its definition's language.
"""

from __future__ import annotations

import ast
import sys
from typing import Iterator, Sequence

from tagstr_runtime.analysis.languages import canonical

__all__ = ["ModuleDeclarations", "declared_language"]

#: Our marker classes (tagstr_runtime.languages), by name.
MARKERS = {"HTML": "html", "SQL": "sql", "CSS": "css", "JavaScript": "javascript", "JSON": "json",
           "YAML": "yaml", "TOML": "toml"}
_MARKER_MODULE = "tagstr_runtime.languages"
_WRAPPERS = frozenset(["accepts_template", "template_tag"])
_DEPTH = 8


def declared_language(definition: ast.AST, module: ast.Module | Sequence[ast.stmt]) -> str | None:
    """The language ``definition`` (a def, class or assignment of ``module``) declares, or None."""
    body = module.body if isinstance(module, ast.Module) else list(module)
    return ModuleDeclarations(body).language_of_definition(definition, 0)


class ModuleDeclarations:
    """The module-level names of one module, to resolve tags, aliases and markers."""

    def __init__(self, body: Sequence[ast.stmt]) -> None:
        self.body = body
        self.bindings: dict[str, list[ast.AST]] = {}
        self.imports: dict[str, str] = {}  # local name -> qualified name
        self.attributes: dict[str, str] = {}  # name -> language of "name.tstring_language = ..."
        for statement in body:
            self._index(statement)

    def _index(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.bindings.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind_target(target, node)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self._bind_target(node.target, node)
        elif sys.version_info >= (3, 12) and isinstance(node, ast.TypeAlias):  # pragma: >=3.12 cover
            self.bindings.setdefault(node.name.id, []).append(node)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                self.imports[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0])
        elif isinstance(node, (ast.If, ast.Try)):  # definitions under "if TYPE_CHECKING", try/except
            for inner in [*node.body, *getattr(node, "orelse", ()), *getattr(node, "finalbody", ()),
                          *(s for h in getattr(node, "handlers", ()) for s in h.body)]:
                self._index(inner)

    def _bind_target(self, target: ast.expr, node: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.bindings.setdefault(target.id, []).append(node)
        elif (isinstance(target, ast.Attribute) and target.attr == "tstring_language"
              and isinstance(target.value, ast.Name)):
            value = getattr(node, "value", None)
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                language = canonical(value.value)
                if language:
                    self.attributes[target.value.id] = language

    # tags -----------------------------------------------------------------------------

    def language_of_name(self, name: str, depth: int = 0) -> str | None:
        """The language of the tag bound to ``name`` at module level (last binding wins)."""
        if depth > _DEPTH:
            return None
        if name in self.attributes:
            return self.attributes[name]
        for definition in reversed(self.bindings.get(name, ())):
            return self.language_of_definition(definition, depth + 1)
        return None

    def language_of_definition(self, node: ast.AST, depth: int) -> str | None:
        if depth > _DEPTH:
            return None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in self.attributes:
                return self.attributes[node.name]
            return self._function_language(node, depth)
        if isinstance(node, ast.ClassDef):
            return self._class_language(node, depth, instance=False)
        value = getattr(node, "value", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and value is not None:
            return self._value_language(value, depth)
        return None

    def _value_language(self, value: ast.expr, depth: int) -> str | None:
        if isinstance(value, ast.Name):  # h = html
            return self.language_of_name(value.id, depth + 1)
        if isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)):
            func = value.func.id if isinstance(value.func, ast.Name) else value.func.attr
            if func in _WRAPPERS and value.args:  # accepts_template(f)
                return self._value_language(value.args[0], depth + 1)
            if isinstance(value.func, ast.Name):  # html = Html()
                for definition in reversed(self.bindings.get(value.func.id, ())):
                    if isinstance(definition, ast.ClassDef):
                        return self._class_language(definition, depth + 1, instance=True)
                    break
        return None

    def _function_language(self, node: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> str | None:
        arguments = node.args
        if arguments.vararg is not None and arguments.vararg.annotation is not None:
            return self.language_of_annotation(arguments.vararg.annotation, depth + 1)
        positional = [*arguments.posonlyargs, *arguments.args]
        if positional and positional[0].arg in ("self", "cls"):
            positional = positional[1:]
        if positional and positional[0].annotation is not None:
            return self.language_of_annotation(positional[0].annotation, depth + 1)
        return None

    def _class_language(self, node: ast.ClassDef, depth: int, *, instance: bool) -> str | None:
        own = _class_attribute(node)
        if own:
            return own
        wanted = ("__call__",) if instance else ("__new__", "__init__")
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in wanted:
                language = self._function_language(item, depth + 1)
                if language:
                    return language
        return None

    # annotations ------------------------------------------------------------------------

    def language_of_annotation(self, annotation: ast.expr, depth: int = 0) -> str | None:
        if depth > _DEPTH:
            return None
        for node in _annotated(annotation):
            for metadata in node:
                language = self._metadata_language(metadata, depth)
                if language:
                    return language
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                parsed = ast.parse(annotation.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, RecursionError):  # not an annotation
                return None
            return self.language_of_annotation(parsed, depth + 1)
        if isinstance(annotation, ast.Name):  # an alias
            for definition in reversed(self.bindings.get(annotation.id, ())):
                value = getattr(definition, "value", None)
                if isinstance(value, ast.expr) and not isinstance(definition, ast.ClassDef):
                    return self.language_of_annotation(value, depth + 1)
                break
        if isinstance(annotation, ast.BinOp):  # X | None
            return (self.language_of_annotation(annotation.left, depth + 1)
                    or self.language_of_annotation(annotation.right, depth + 1))
        if isinstance(annotation, ast.Subscript) and _name(annotation.value) in ("Optional", "Union"):
            for element in _elements(annotation.slice):
                language = self.language_of_annotation(element, depth + 1)
                if language:
                    return language
        return None

    def _metadata_language(self, metadata: ast.expr, depth: int) -> str | None:
        if isinstance(metadata, ast.Constant) and isinstance(metadata.value, str):
            return canonical(metadata.value)
        if isinstance(metadata, ast.Call):  # Marker()
            metadata = metadata.func
        if isinstance(metadata, ast.Name):
            qualified = self.imports.get(metadata.id, "")
            if qualified.rpartition(".")[0] == _MARKER_MODULE:
                return MARKERS.get(qualified.rpartition(".")[2])
            for definition in reversed(self.bindings.get(metadata.id, ())):
                if isinstance(definition, ast.ClassDef):
                    return _class_attribute(definition)
                break
        if isinstance(metadata, ast.Attribute) and metadata.attr in MARKERS:
            base = metadata.value
            if isinstance(base, ast.Name) and self.imports.get(base.id, "").endswith("languages"):
                return MARKERS[metadata.attr]
            if isinstance(base, ast.Attribute) and base.attr == "languages":
                return MARKERS[metadata.attr]
        return None


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _elements(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def _annotated(annotation: ast.expr) -> Iterator[list[ast.expr]]:
    """The metadata of ``Annotated[...]`` (at the top of ``annotation``)."""
    if isinstance(annotation, ast.Subscript) and _name(annotation.value) == "Annotated":
        elements = _elements(annotation.slice)
        yield elements[1:]


def _class_attribute(node: ast.ClassDef) -> str | None:
    for item in node.body:
        value: ast.expr | None = None
        if isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "tstring_language" for t in item.targets
        ):
            value = item.value
        elif (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
              and item.target.id == "tstring_language"):
            value = item.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return canonical(value.value)
    return None
