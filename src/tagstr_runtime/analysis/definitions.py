"""What a tag name refers to, and what is known about that tag: one resolver for every consumer.

``TagResolver.resolve`` follows a name from where it is read, with the
module's scope index (``scopes``): to a ``def`` or a class of the module
(decorators noted), through aliases (``rb = html``), wrappers
(``accepts_template(f)``, ``template_tag(f)``), factory calls
(``greet = make_greet()``: what the factory returns) and instances of
classes (``r = Render()``: the class's ``__call__``), and, when the resolver
has a ``ModuleFinder``, through imports into the other modules of the tree
(``from x import``, ``import x as y`` then ``y.name``, relative imports,
re-exports through ``__init__``), reading their source without running it.
Where nothing can be known it says so: ``UNKNOWN``, with the reason.

A ``TagDefinition`` then says what the tag is, each fact computed when
asked: whether its definition reads as a tag function (TAG003), whether it
takes a template; and it gives the definition's node and module (the
embedded-language checks read a declared language from its annotations;
``tag_reading`` reads what the tag does with what it gets, for the
migration).  mypy reasons with types instead.  Over 400 lines and not split: the
resolver's steps (a name, a value, a call, an import, a star import, what a
factory returns) call one another with one depth budget, and build the one
``TagDefinition`` they share.
"""

from __future__ import annotations

import ast
import weakref
from functools import cached_property
from typing import TYPE_CHECKING, Callable, NamedTuple
from weakref import WeakKeyDictionary

from tagstr_runtime.analysis.imports import ModuleFinder
from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.tag_types import called_name, names_in, reads_as_tag_function

if TYPE_CHECKING:
    from tagstr_runtime.analysis.quiet import Quiet
    from tagstr_runtime.desugarer.scopes import Binding

if TYPE_CHECKING:
    from tagstr_runtime.analysis.embedded.written import SiteAnswers
    from tagstr_runtime.desugarer.sites import Site

__all__ = [
    "ABSENT", "CLASS", "FUNCTION", "INSTANCE", "LIBRARY", "MODULE", "TagDefinition", "TagResolver",
    "UNKNOWN", "annotation_says_tag",
]

FUNCTION = "function"  # a def or lambda: the tag function itself
CLASS = "class"  # a class: the tag string constructs it
INSTANCE = "instance"  # an instance of a class: its __call__ is the tag
LIBRARY = "library"  # made by template_tag(): takes a template, reads values at once
MODULE = "module"  # a module (an import), not a tag
UNKNOWN = "unknown"
ABSENT = "absent"  # a star import that does not bind the name: no binding at all

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_MAX_DEPTH = 12


class Step(NamedTuple):
    """One step of a resolution, for the record: ``import``, ``alias``, ``factory``..."""

    kind: str
    node: ast.AST
    module: ModuleAnalysis


class TagDefinition:
    """What a tag name refers to (``kind``, ``node`` in ``module``) and what is known of the tag.

    ``wrappers``: the names of the decorators and wrapping calls met on the
    way (``accepts_template``...); ``steps``: how the name led here (imports,
    aliases, factory calls; for ``UNKNOWN``, up to where it stopped: the import
    of a module outside the tree, the statement binding it, such as a type
    alias); ``reason``: why nothing can be known (``UNKNOWN``);
    ``dotted``: for a name imported from outside the tree, its dotted name there
    (``extlib.upper``, relative imports made absolute).
    """

    def __init__(
        self,
        kind: str,
        node: ast.AST | None = None,
        module: ModuleAnalysis | None = None,
        *,
        wrappers: tuple[str, ...] = (),
        steps: tuple[Step, ...] = (),
        reason: str = "",
        dotted: str = "",
        alternatives: tuple[TagDefinition, ...] = (),
    ) -> None:
        self.kind = kind
        self.node = node
        self.module = module
        self.wrappers = wrappers
        self.steps = steps
        self.reason = reason
        self.dotted = dotted
        self.alternatives = alternatives

    def __repr__(self) -> str:
        where = f" {getattr(self.node, 'name', type(self.node).__name__)}" if self.node is not None else ""
        return f"<TagDefinition {self.kind}{where}{' (' + self.reason + ')' if self.reason else ''}>"

    def _with(self, *, wrapper: str | None = None, step: Step | None = None, steps: tuple[Step, ...] = ()
              ) -> TagDefinition:
        """The same definition reached through ``step`` (or ``steps``) first, or wrapped in ``wrapper``
        (its alternatives too)."""
        return TagDefinition(
            self.kind, self.node, self.module,
            wrappers=self.wrappers + ((wrapper,) if wrapper else ()),
            steps=((step,) if step else steps) + self.steps,
            reason=self.reason,
            dotted=self.dotted,
            alternatives=tuple(a._with(wrapper=wrapper, step=step, steps=steps) for a in self.alternatives),
        )

    @property
    def every(self) -> tuple[TagDefinition, ...]:
        """This definition and its alternatives: each one a run may call (``TagResolver(every_binding=True)``)."""
        return (self, *self.alternatives)

    @property
    def known(self) -> bool:
        return self.kind not in (UNKNOWN, MODULE, ABSENT)

    @property
    def line(self) -> int:
        """The line of the definition (0 if there is none)."""
        return getattr(self.node, "lineno", 0)

    @property
    def qualname(self) -> str | None:
        """``module.name`` of a def or class at a module's top level, when the module's name is known."""
        name = getattr(self.node, "name", None)
        if self.module is None or self.module.name is None or name is None:
            return None
        if not any(statement is self.node for statement in getattr(self.module.tree, "body", ())):
            return None  # not at the module's top level
        return f"{self.module.name}.{name}"

    @property
    def function(self) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
        """The function the tag string calls: the def or lambda, a class's ``__init__``
        (or ``__new__``), an instance's ``__call__``."""
        node = self.node
        if self.kind == FUNCTION and isinstance(node, (*_FUNCTIONS, ast.Lambda)):
            return node
        if isinstance(node, ast.ClassDef):
            names = ("__call__",) if self.kind == INSTANCE else ("__init__", "__new__")
            for item in node.body:
                if isinstance(item, _FUNCTIONS) and item.name in names:
                    return item
        return None

    # what is known about the tag ------------------------------------------------------

    @cached_property
    def is_tag_function(self) -> bool:
        """The definition reads as a tag function: its ``*args`` annotation mentions a tag's
        argument types, or (unannotated, or the PEP draft's widened ``str | tuple``) its body
        does or calls ``getvalue``.  A library tag is one, and so is ``accepts_template(x)``
        whatever ``x`` is."""
        if self.kind == LIBRARY or (self.kind == UNKNOWN and "accepts_template" in self.wrappers):
            return True
        if self.kind == CLASS or self.kind == INSTANCE:
            assert isinstance(self.node, ast.ClassDef) and self.module is not None
            names = ("__call__",) if self.kind == INSTANCE else ("__init__", "__new__")
            words = self.module.tag_types
            return any(
                isinstance(item, _FUNCTIONS) and item.name in names and reads_as_tag_function(item, words)
                for item in self.node.body
            )
        function = self.function
        return function is not None and self.module is not None and reads_as_tag_function(
            function, self.module.tag_types
        )

    @cached_property
    def accepts_template(self) -> bool | None:
        """Takes a 3.14 ``Template`` (``@accepts_template``, ``template_tag``); None: unknown."""
        if self.kind == LIBRARY or "accepts_template" in self.wrappers:
            return True
        return False if self.known else None


def annotation_says_tag(resolver: TagResolver, module: ModuleAnalysis, annotation: ast.expr) -> bool:
    """``x: TagFunction`` (any spelling) or ``x: Render`` where ``Render``'s instances are tags."""
    if "TagFunction" in names_in(annotation):
        return True
    if not isinstance(annotation, ast.Name):
        return False
    found = resolver.value(module, annotation, 0)
    return found.kind == CLASS and TagDefinition(INSTANCE, found.node, found.module).is_tag_function


class TagResolver:
    """Resolves tag names; ``finder``: follow imports into the tree's other modules
    (None: a name imported from elsewhere is ``UNKNOWN``).  ``every_binding``: a name
    bound more than once resolves to each binding that may reach the read at run time
    (``reaching``), the last one first and the others as ``alternatives`` (the migration's
    question); else to the one binding ``ScopeIndex.read_binding`` chooses (the linters')."""

    def __init__(self, finder: ModuleFinder | None = None, *, every_binding: bool = False) -> None:
        self.finder = finder
        self.every_binding = every_binding
        #: what ``tag_reading.reading`` found of each definition node met (the node kept alive with it)
        self.readings: dict[tuple[str, int, tuple[str, ...]], tuple[ast.AST | None, object]] = {}
        # ``site_definition``'s, by module: where names are written, a tag's name -> its one
        # module-level binding's definition (None: not bound once there), each site's answer
        self._modules: WeakKeyDictionary[ModuleAnalysis, SiteAnswers[TagDefinition]] = WeakKeyDictionary()
        # the last module asked about (a weak mapping's lookup makes a weak reference each time)
        self._current: tuple[weakref.ref[ModuleAnalysis], SiteAnswers[TagDefinition]] | None = None

    @cached_property
    def quiet(self) -> Quiet:
        """The judge of helpers, shared by every tag this resolver reads (each helper judged once)."""
        from tagstr_runtime.analysis.quiet import Quiet  # the migration's: not loaded for the linters

        return Quiet(self)

    def site_definition(self, module: ModuleAnalysis, site: Site) -> TagDefinition:
        """What the tag of a tag string (``site``, of ``module``) refers to: ``resolve`` of its
        name, shared by the tag strings that read the same binding (``SiteAnswers``: a
        module has hundreds of ``html"..."``, issue 27)."""
        current = self._current
        if current is None or current[0]() is not module:
            answers = self._modules.get(module)
            if answers is None:
                from tagstr_runtime.analysis.embedded.written import SiteAnswers

                answers = self._modules[module] = SiteAnswers[TagDefinition](module)
            current = self._current = (weakref.ref(module), answers)
        known = current[1].sites.get(id(site))
        if known is not None and known[0] is site:
            return known[1]
        found = self._site_definition(module, site, current[1])
        current[1].sites[id(site)] = (site, found)
        return found

    def _site_definition(self, module: ModuleAnalysis, site: Site, known: SiteAnswers[TagDefinition]) -> TagDefinition:
        from tagstr_runtime.analysis.embedded.written import function_statement

        name = site.name
        top = function_statement(site.chain, module.generated)
        if top is None or module.source is None:
            return self.resolve(module, name)
        written, answers = known.written(), known.shared
        if written.binds(top, name.id):
            return self.resolve(module, name)
        if name.id not in answers:
            bindings = module.scopes.module_bindings(name.id)
            answers[name.id] = self.definition(module, bindings[0].node, name.id, 1) if len(bindings) == 1 else None
        shared = answers[name.id]
        return self.resolve(module, name) if shared is None else shared

    def resolve(self, module: ModuleAnalysis, name: ast.Name, depth: int = 0) -> TagDefinition:
        """What the name read by ``name`` (a node of ``module.tree``) refers to there."""
        if depth > _MAX_DEPTH:
            return TagDefinition(UNKNOWN, reason="too many steps")
        if self.every_binding:
            from tagstr_runtime.analysis.reaching import reaching

            found = reaching(module, name.lineno, name.col_offset)
            if not found:
                return TagDefinition(UNKNOWN, reason=f"{name.id!r} is not bound in this module (a builtin, or "
                                                     f"undefined)")
            return self._each(module, found, name.id, depth + 1)
        binding = module.scopes.read_binding(name.lineno, name.col_offset)
        if binding is None:
            return TagDefinition(UNKNOWN, reason=f"{name.id!r} is not bound in this module (a builtin, or undefined)")
        return self.definition(module, binding.node, name.id, depth + 1)

    def resolve_top_level(self, module: ModuleAnalysis, name: str, depth: int = 0) -> TagDefinition:
        """What ``name`` is once ``module`` has run (``from module import name``)."""
        if self.every_binding:
            from tagstr_runtime.analysis.reaching import at_module_end

            found = at_module_end(module, name)
            if found:
                return self._each(module, found, name, depth + 1)
            return TagDefinition(UNKNOWN, reason=f"{name!r} is not bound in {module.name or 'the module'}")
        bindings = module.scopes.module_bindings(name)
        if not bindings:
            return TagDefinition(UNKNOWN, reason=f"{name!r} is not bound in {module.name or 'the module'}")
        return self.definition(module, bindings[-1].node, name, depth + 1)

    def _each(self, module: ModuleAnalysis, bindings: tuple[Binding, ...], name: str, depth: int) -> TagDefinition:
        """The definitions of several bindings: the last one, the others its alternatives (a star
        import that does not bind the name left out)."""
        found: list[TagDefinition] = []
        seen: set[tuple[str, int]] = set()
        for binding in bindings:
            for definition in self.definition(module, binding.node, name, depth).every:
                key = (definition.kind, id(definition.node) if definition.node is not None else id(definition))
                if definition.kind != ABSENT and key not in seen:
                    seen.add(key)
                    found.append(definition)
        if not found:
            return TagDefinition(UNKNOWN, reason=f"{name!r} is not bound in {module.name or 'the module'}")
        last = found[-1]
        return TagDefinition(last.kind, last.node, last.module, wrappers=last.wrappers, steps=last.steps,
                             reason=last.reason, dotted=last.dotted, alternatives=tuple(found[:-1]))

    def definition(self, module: ModuleAnalysis, node: ast.AST, name: str, depth: int = 0) -> TagDefinition:
        """What ``name`` is, as bound by ``node`` (``scope_tables.Bound.node``) in ``module``."""
        if depth > _MAX_DEPTH:
            return TagDefinition(UNKNOWN, reason="too many steps")
        if isinstance(node, _FUNCTIONS):
            decorators = tuple(filter(None, (called_name(d) for d in node.decorator_list)))
            if "template_tag" in decorators:
                return TagDefinition(LIBRARY, node, module, wrappers=decorators)
            return TagDefinition(FUNCTION, node, module, wrappers=decorators)
        if isinstance(node, ast.ClassDef):
            return TagDefinition(CLASS, node, module)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            kind = "alias" if isinstance(node.value, ast.Name) else "assignment"
            return self.value(module, node.value, depth)._with(step=Step(kind, node, module))
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
            return self.star_imported(module, node, name, depth)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return self.imported(module, node, name, depth)
        if isinstance(node, ast.arg):
            return TagDefinition(UNKNOWN, reason=f"{name!r} is a parameter")
        return TagDefinition(UNKNOWN, reason=f"{name!r} is bound by a {type(node).__name__.lower()} statement",
                             steps=(Step("statement", node, module),))

    def value(self, module: ModuleAnalysis, value: ast.expr, depth: int) -> TagDefinition:
        """What the expression ``value`` (a node of ``module.tree``) evaluates to, as a tag."""
        if depth > _MAX_DEPTH:
            return TagDefinition(UNKNOWN, reason="too many steps")
        if isinstance(value, ast.Name):
            return self.resolve(module, value, depth)
        if isinstance(value, ast.Lambda):
            return TagDefinition(FUNCTION, value, module)
        if isinstance(value, ast.Attribute):
            attribute = value
            return _each_of(self.value(module, value.value, depth + 1),
                            lambda base: self._attribute(module, base, attribute, depth))
        if isinstance(value, ast.Call):
            return self.called(module, value, depth)
        return TagDefinition(UNKNOWN, reason=f"bound to {type(value).__name__.lower()} expression")

    def _attribute(self, module: ModuleAnalysis, base: TagDefinition, value: ast.Attribute, depth: int
                   ) -> TagDefinition:
        """``base.attr``, ``base`` being what the object before the dot is."""
        if base.kind == MODULE and base.module is not None:
            steps = (*base.steps, Step("attribute", value, module))
            if not base.module.scopes.module_bindings(value.attr):
                submodule = self._submodule(base.module, value.attr)
                if submodule is not None:  # ``import x.y`` then ``x.y``
                    return TagDefinition(MODULE, None, submodule, steps=steps)
            return self.resolve_top_level(base.module, value.attr, depth + 1)._with(steps=steps)
        if base.dotted:  # ``import x as y`` then ``y.name``, x from outside the tree
            return TagDefinition(UNKNOWN, reason=base.reason, dotted=f"{base.dotted}.{value.attr}",
                                 steps=(*base.steps, Step("attribute", value, module)))
        return TagDefinition(UNKNOWN, reason=f"an attribute {value.attr!r}")

    def called(self, module: ModuleAnalysis, call: ast.Call, depth: int) -> TagDefinition:
        """What the call ``call`` returns, as a tag."""
        wrapper = called_name(call.func)
        if wrapper == "template_tag" and len(call.args) == 1:
            return TagDefinition(LIBRARY, call, module, wrappers=("template_tag",))
        if wrapper == "accepts_template" and len(call.args) == 1:
            # takes a template whatever it wraps; when it reads its values is the wrapped tag's affair
            return self.value(module, call.args[0], depth + 1)._with(wrapper="accepts_template")
        return _each_of(self.value(module, call.func, depth + 1),
                        lambda called: self._call_of(module, called, call, wrapper, depth))

    def _call_of(self, module: ModuleAnalysis, called: TagDefinition, call: ast.Call, wrapper: str | None,
                 depth: int) -> TagDefinition:
        """What ``call`` returns when what it calls is ``called``."""
        if called.kind == CLASS:
            steps = (*called.steps, Step("call", call, module))
            return TagDefinition(INSTANCE, called.node, called.module, steps=steps)
        if called.kind == FUNCTION and isinstance(called.node, _FUNCTIONS) and called.module is not None:
            made = self.returned(called.module, called.node, depth)
            return made._with(steps=(*called.steps, Step("factory", call, module)))
        return TagDefinition(UNKNOWN, reason=f"the value of a call of {wrapper!r}" if wrapper else "a call")

    def returned(
        self, module: ModuleAnalysis, factory: ast.FunctionDef | ast.AsyncFunctionDef, depth: int
    ) -> TagDefinition:
        """What a factory returns, as a tag: every ``return`` of its own must agree."""
        found: list[TagDefinition] = []
        todo: list[ast.AST] = list(factory.body)
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Return):
                if node.value is None:
                    return TagDefinition(UNKNOWN, reason=f"{factory.name!r} returns None")
                found.append(self.value(module, node.value, depth + 1))
            elif not isinstance(node, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)):
                todo.extend(ast.iter_child_nodes(node))
        kinds = {(d.kind, id(d.node)) for d in found}
        if len(kinds) != 1:
            return TagDefinition(UNKNOWN, reason=f"{factory.name!r} returns different things" if found
                                 else f"{factory.name!r} returns nothing")
        return found[0]

    def imported(self, module: ModuleAnalysis, node: ast.Import | ast.ImportFrom, name: str, depth: int
                 ) -> TagDefinition:
        """``name`` bound by an import statement: the module, or the name in it."""
        step = Step("import", node, module)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name).partition(".")[0] != name:
                    continue
                dotted = alias.name if alias.asname else alias.name.partition(".")[0]
                target = self._module(module, dotted, 0)
                if target is None:
                    return TagDefinition(UNKNOWN, reason=f"module {dotted!r} is not in the tree", steps=(step,),
                                         dotted=dotted)
                return TagDefinition(MODULE, None, target, steps=(step,))
            return TagDefinition(UNKNOWN, reason=f"{name!r} not found in the import")
        source = "." * node.level + (node.module or "")
        for alias in node.names:
            if (alias.asname or alias.name) != name:
                continue
            target = self._module(module, node.module, node.level)
            if target is None:
                return TagDefinition(UNKNOWN, reason=f"imported from {source!r}, which is not in the tree",
                                     steps=(step,), dotted=_absolute(module, node, alias.name))
            found = self.resolve_top_level(target, alias.name, depth + 1)
            if found.kind == UNKNOWN and not target.scopes.module_bindings(alias.name):
                submodule = self._module(module, ".".join(filter(None, (node.module, alias.name))), node.level)
                if submodule is not None:
                    return TagDefinition(MODULE, None, submodule, steps=(step,))
            return found._with(step=step)
        return TagDefinition(UNKNOWN, reason=f"{name!r} not found in the import")

    def star_imported(self, module: ModuleAnalysis, node: ast.ImportFrom, name: str, depth: int) -> TagDefinition:
        """``name`` as ``from x import *`` may bind it: what ``x`` binds, ``ABSENT`` when ``x``
        does not export it, ``UNKNOWN`` when that cannot be known."""
        from tagstr_runtime.analysis.reaching import exported

        step = Step("import", node, module)
        source = "." * node.level + (node.module or "")
        target = self._module(module, node.module, node.level)
        if target is None:
            return TagDefinition(UNKNOWN, reason=f"a star import of {source!r} (line {node.lineno}), which is not "
                                 f"in the tree, may bind it", steps=(step,))
        said = exported(target, name)
        if said is False:
            return TagDefinition(ABSENT)
        if said is None and not target.scopes.module_bindings(name):
            return TagDefinition(UNKNOWN, reason=f"a star import of {source!r} (line {node.lineno}) may bind it",
                                 steps=(step,))
        return self.resolve_top_level(target, name, depth + 1)._with(step=step)

    def _submodule(self, package: ModuleAnalysis, name: str) -> ModuleAnalysis | None:
        if self.finder is None or package.path is None or not package.path.endswith("__init__.py"):
            return None
        return self._module(package, name, 1)

    def _module(self, importer: ModuleAnalysis, dotted: str | None, level: int) -> ModuleAnalysis | None:
        if self.finder is None:
            return None
        path = self.finder.find(importer, dotted, level)
        return None if path is None else self.finder.read(path)


def _each_of(definition: TagDefinition, then: Callable[[TagDefinition], TagDefinition]) -> TagDefinition:
    """``then`` of the definition and of each of its alternatives, as one definition."""
    if not definition.alternatives:
        return then(definition)
    found = [result for each in definition.every for result in then(each).every]
    last = found[-1]
    return TagDefinition(last.kind, last.node, last.module, wrappers=last.wrappers, steps=last.steps,
                         reason=last.reason, dotted=last.dotted, alternatives=tuple(found[:-1]))


def _absolute(module: ModuleAnalysis, node: ast.ImportFrom, name: str) -> str:
    """The dotted name ``from ... import name`` binds, a relative import made absolute
    from the importing module's name (as far as it is known)."""
    base = node.module or ""
    if node.level:
        package = (module.name or "").split(".")
        is_package = (module.path or "").endswith("__init__.py")
        package = package[: max(len(package) - node.level + is_package, 0)]
        base = ".".join(filter(None, [*package, node.module]))
    return f"{base}.{name}" if base else name
