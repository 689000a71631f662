"""Whether code may do something a program can observe: what may run between a tag's reads.

A tag string evaluates each value when the tag reads it; a t-string evaluates
them all before the tag runs.  The two agree only if nothing the tag does
before its last read could be seen by the values' code or by the world
(``tag_reads``).  ``Quiet`` says why a statement, an expression or a call of
a helper may be seen, or None when it is quiet:

- quiet: building local values (names, containers made in the function and
  their methods), reading attributes and items, operators, formatting,
  builtins that compute (``str``, ``len``, ``isinstance``...), a list of pure
  standard functions (``html.escape``, ``shlex.quote``, ``re.escape``...)
  and ``tagstr_runtime``'s ``format_value``/``convert``, a value's own
  conversions (``x.__html__()``, a local bound to ``getattr(x, "__html__")``),
  and the tree's functions and classes whose code is quiet in turn;
- seen: any other call (``print``, a write, a ``contextvars`` ``set``, a
  function outside the tree), assigning a global or an attribute or item of
  something not made here, ``raise``/``assert``, ``with``, ``yield``/``await``.

By convention a value's ``__format__``/``__str__``/``__html__`` and a
property count as quiet: they convert, they do not act.  ``Quiet`` reads
the tag resolver through the protocols ``Resolver`` and ``Resolution``: the
resolver makes the ``Quiet`` it shares.  Over 400 lines and not split: the
judges of functions, classes, statements and calls call one another through
one depth budget and one table of the helpers judged.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from tagstr_runtime.analysis.module import ModuleAnalysis
from tagstr_runtime.analysis.pure_names import (
    DECORATORS, MUTATING_METHODS, PURE_BUILTINS, PURE_METHODS, PURE_MODULES, PURE_QUALIFIED, QUIET_BASES,
    last_name, makes_container, may_change,
)

__all__ = ["Locals", "Quiet", "Resolution", "Resolver", "locals_of"]

_MAX_DEPTH = 6
_MAKERS = ("__init__", "__new__", "__post_init__")  # what making an instance runs


class Resolution(Protocol):
    """What ``Quiet`` reads of what a name refers to (``definitions.TagDefinition``, which
    makes a ``Quiet``: a protocol, so that this module does not import it back)."""

    @property
    def kind(self) -> str: ...
    @property
    def node(self) -> ast.AST | None: ...
    @property
    def module(self) -> ModuleAnalysis | None: ...
    @property
    def dotted(self) -> str: ...
    @property
    def alternatives(self) -> Sequence[Resolution]: ...
    @property
    def every(self) -> Sequence[Resolution]: ...


class Resolver(Protocol):
    """What ``Quiet`` asks of the tag resolver (``definitions.TagResolver``)."""

    def value(self, module: ModuleAnalysis, value: ast.expr, depth: int) -> Resolution: ...


class Locals:
    """What a function's code binds: names only ever bound to containers it makes (``fresh``),
    names declared ``global``/``nonlocal`` (``shared``)."""

    def __init__(self, fresh: Iterable[str] = (), shared: Iterable[str] = ()) -> None:
        self.fresh = set(fresh)
        self.shared = set(shared)


def locals_of(
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, fresh_self: bool = False,
    fresh_call: Callable[[ast.Call], bool] | None = None,
) -> Locals:
    """The ``Locals`` of a function (``fresh_self``: its first parameter is the object being made;
    ``fresh_call``: whether a call makes a new container, a class of the tree say)."""
    assigned: dict[str, bool] = {}  # name -> every value fresh
    shared: set[str] = set()
    body = [function.body] if isinstance(function, ast.Lambda) else function.body
    for node in _own_nodes(body):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            shared.update(node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            fresh = makes_container(node.value) or (
                fresh_call is not None and isinstance(node.value, ast.Call) and fresh_call(node.value)
            )
            for target in targets:
                for name in _names(target):
                    assigned[name] = assigned.get(name, True) and fresh and isinstance(target, ast.Name)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)):
            for name in _names(node.target):
                assigned[name] = False
    fresh_names = {name for name, fresh in assigned.items() if fresh} - shared
    if fresh_self and function.args.args:
        fresh_names.add(function.args.args[0].arg)
    return Locals(fresh_names, shared)


class Quiet:
    """Says why code may be observed (None: it is quiet), following the tree's helpers through
    ``resolver``.  Each helper is judged once."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._judged: dict[tuple[int, bool], tuple[ast.AST, str | None]] = {}
        self._shared: dict[tuple[int, str], tuple[ast.AST, bool]] = {}
        self._depth = 0
        #: a ``raise`` or ``assert`` counts as quiet (``tag_reads`` asks both ways: a tag that
        #: only raises differs only where a later value does something)
        self.lenient = False

    # -- functions and classes of the tree --------------------------------------------------

    def function(self, module: ModuleAnalysis, function: ast.AST, fresh_self: bool = False) -> str | None:
        """Why calling ``function`` (a def or lambda of ``module``) may be observed."""
        key = (id(function), self.lenient)
        judged = self._judged.get(key)
        if judged is not None:
            return judged[1]
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return "calls something the tool cannot read"
        if self._depth >= _MAX_DEPTH:
            return "calls functions too deep to follow"
        self._judged[key] = (function, None)  # a recursive call: judged by the rest of the body
        self._depth += 1
        try:
            why = self._function(module, function, fresh_self)
        finally:
            self._depth -= 1
        self._judged[key] = (function, why)
        return why

    def locals_of(self, module: ModuleAnalysis, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                  fresh_self: bool = False) -> Locals:
        """``locals_of``, a quiet class of the tree that does not redefine a container's
        mutating methods making new containers too."""
        return locals_of(function, fresh_self, lambda call: self.new_container(module, call))

    def new_container(self, module: ModuleAnalysis, call: ast.Call) -> bool:
        if not isinstance(call.func, ast.Name):
            return False
        found = self.resolver.value(module, call.func, 0)
        return not found.alternatives and found.kind == "class" and found.module is not None and isinstance(
            found.node, ast.ClassDef
        ) and not any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in MUTATING_METHODS
            for item in found.node.body
        ) and self.class_made(found.module, found.node) is None

    def _function(self, module: ModuleAnalysis, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                  fresh_self: bool) -> str | None:
        if isinstance(function, ast.AsyncFunctionDef):
            return "is an async def"
        scope = self.locals_of(module, function, fresh_self)
        if isinstance(function, ast.Lambda):
            return self.expression(module, function.body, scope)
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(function.body)):
            return "is a generator"
        return self.statements(module, function.body, scope)

    def class_made(self, module: ModuleAnalysis, node: ast.ClassDef) -> str | None:
        """Why making an instance of the class ``node`` may be observed."""
        for decorator in node.decorator_list:
            name = last_name(decorator)
            if name not in DECORATORS:
                return f"is decorated with {name or 'an expression'}"
        for base in node.bases:
            name = last_name(base)
            if name in QUIET_BASES:
                continue
            found = self.resolver.value(module, base, 0) if isinstance(base, (ast.Name, ast.Attribute)) else None
            if found is None or found.kind != "class" or found.module is None:
                return f"has the base class {name or 'an expression'}"
            assert isinstance(found.node, ast.ClassDef)
            why = self.class_made(found.module, found.node)
            if why:
                return why
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in _MAKERS:
                why = self.function(module, item, fresh_self=True)
                if why:
                    return f"runs {item.name}, which {why}"
        return None

    # -- code -------------------------------------------------------------------------------

    def statements(self, module: ModuleAnalysis, statements: Iterable[ast.stmt], scope: Locals,
                   reads: Callable[[ast.Call], bool] = lambda call: False) -> str | None:
        """Why running ``statements`` may be observed.  ``reads``: calls judged elsewhere (a tag's reads)."""
        for statement in statements:
            why = self.statement(module, statement, scope, reads)
            if why:
                return why
        return None

    def statement(self, module: ModuleAnalysis, node: ast.stmt, scope: Locals,
                  reads: Callable[[ast.Call], bool] = lambda call: False) -> str | None:
        line = f"line {node.lineno}"
        if isinstance(node, (ast.Raise, ast.Assert)):
            if self.lenient:
                return None
            return f"{'raises' if isinstance(node, ast.Raise) else 'asserts'} ({line})"
        if isinstance(node, (ast.With, ast.AsyncWith)):
            return f"enters a with block ({line})"
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                why = self.target(target, scope)
                if why:
                    return f"{why} ({line})"
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                why = self.target(target, scope)
                if why:
                    return f"{why} ({line})"
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            if isinstance(node, ast.AsyncFor):
                return f"iterates asynchronously ({line})"
            why = self.target(node.target, scope)
            if why:
                return f"{why} ({line})"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            parts: list[ast.AST] = list(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                parts += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            else:
                parts += [*node.bases, *(k.value for k in node.keywords)]
            for part in parts:
                if any(isinstance(n, ast.Call) for n in ast.walk(part)):
                    return f"runs a decorator or default ({line})"
            return None
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Pass, ast.Break, ast.Continue, ast.Global,
                               ast.Nonlocal)):
            return None
        # the expressions the statement evaluates, and the statements it holds
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                why = self.expression(module, child, scope, reads)
            elif isinstance(child, ast.stmt):
                why = self.statement(module, child, scope, reads)
            elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                why = self._holder(module, child, scope, reads)
            else:
                why = None
            if why:
                return why
        return None

    def _holder(self, module: ModuleAnalysis, node: ast.ExceptHandler | ast.match_case, scope: Locals,
                reads: Callable[[ast.Call], bool]) -> str | None:
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            why = self.expression(module, node.type, scope, reads)
            if why:
                return why
        if isinstance(node, ast.match_case) and node.guard is not None:
            why = self.expression(module, node.guard, scope, reads)
            if why:
                return why
        return self.statements(module, node.body, scope, reads)

    def target(self, target: ast.expr, scope: Locals) -> str | None:
        """Why assigning (or deleting) ``target`` may be observed."""
        if isinstance(target, ast.Name):
            return f"assigns the global or nonlocal {target.id!r}" if target.id in scope.shared else None
        if isinstance(target, (ast.Tuple, ast.List)):
            return next(filter(None, (self.target(t, scope) for t in target.elts)), None)
        if isinstance(target, ast.Starred):
            return self.target(target.value, scope)
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            owner = target.value
            if isinstance(owner, ast.Name) and owner.id in scope.fresh:
                return None
            kind = "an attribute" if isinstance(target, ast.Attribute) else "an item"
            return f"assigns {kind} of {_text(owner)}"
        return None

    def expression(self, module: ModuleAnalysis, node: ast.expr, scope: Locals,
                   reads: Callable[[ast.Call], bool] = lambda call: False) -> str | None:
        """Why evaluating ``node`` may be observed (a lambda's body is not evaluated)."""
        for sub in _evaluated(node):
            if isinstance(sub, (ast.Await, ast.Yield, ast.YieldFrom)):
                return f"{'awaits' if isinstance(sub, ast.Await) else 'yields'} (line {sub.lineno})"
            if isinstance(sub, ast.Call) and not reads(sub):
                why = self.call(module, sub, scope)
                if why:
                    return why
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                why = self.shared_read(module, sub)
                if why:
                    return why
        return None

    def shared_read(self, module: ModuleAnalysis, name: ast.Name) -> str | None:
        """Why reading ``name`` may be observed: a global or a closure's name bound to a
        container (``LOG = []``) or rebound where the values' code may run (``global``,
        ``+=``): what a value does to it shows, read before or between the values."""
        scope = module.scopes.read_scope(name.lineno, name.col_offset)
        if scope is None or scope.same_scope or scope.kind == "class":
            return None
        key = (id(scope.scope), name.id)
        known = self._shared.get(key)
        if known is None:
            changing = bool(scope.moved) or any(may_change(b.node, name.id) for b in scope.bindings)
            known = self._shared[key] = (scope.scope, changing)
        if known[1]:
            return f"reads {name.id} (line {name.lineno}), which the values' code may change"
        return None

    def call(self, module: ModuleAnalysis, call: ast.Call, scope: Locals) -> str | None:
        """Why the call itself may be observed (its arguments are judged apart)."""
        func = call.func
        line = f"line {call.lineno}"
        if isinstance(func, ast.Attribute):
            method = func.attr
            if method.startswith("__") and method.endswith("__"):
                return None  # a value's own conversion (str.__new__, x.__html__())
            owner = func.value
            if method in MUTATING_METHODS:
                if isinstance(owner, ast.Name) and owner.id in scope.fresh:
                    return None
                if not isinstance(owner, ast.Name) or not self._is_module(module, owner):
                    return f"calls {_text(func)} ({line})"
            elif method in PURE_METHODS and not (isinstance(owner, ast.Name) and self._is_module(module, owner)):
                return None
        elif isinstance(func, ast.Name):
            if func.id in PURE_BUILTINS and not module.scopes.is_bound(func):
                return None
            if self._conversion(module, func):
                return None
        else:
            return f"calls the value of an expression ({line})"
        return self._callee(module, call, line)

    def _callee(self, module: ModuleAnalysis, call: ast.Call, line: str) -> str | None:
        """Why calling what ``call.func`` names (a function or class of the tree, an import) may be observed."""
        name = _text(call.func)
        found = self.resolver.value(module, call.func, 0)
        for each in found.every:
            why = self._definition(each, name, line)
            if why:
                return why
        return None

    def _definition(self, definition: Resolution, name: str, line: str) -> str | None:
        kind = definition.kind
        there = definition.module
        if kind == "function" and there is not None and definition.node is not None:
            why = self.function(there, definition.node)
            return f"calls {name} ({line}), which {why}" if why else None
        if kind == "class" and there is not None and isinstance(definition.node, ast.ClassDef):
            why = self.class_made(there, definition.node)
            return f"calls {name} ({line}), which {why}" if why else None
        dotted = definition.dotted
        if kind == "unknown" and dotted and (dotted in PURE_QUALIFIED or dotted.startswith(PURE_MODULES)):
            return None
        return f"calls {name} ({line})"

    def _is_module(self, module: ModuleAnalysis, name: ast.Name) -> bool:
        """``name`` is an imported module (``re.sub``: a function of it, not a method)."""
        binding = module.scopes.read_binding(name.lineno, name.col_offset)
        return binding is not None and isinstance(binding.node, ast.Import)

    def _conversion(self, module: ModuleAnalysis, func: ast.Name) -> bool:
        """``func`` is a local bound to ``getattr(x, "__dunder__"...)``: a value's conversion."""
        binding = module.scopes.read_binding(func.lineno, func.col_offset)
        if binding is None or not binding.same_scope or not isinstance(binding.node, ast.Assign):
            return False
        value = binding.node.value
        return (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "getattr"
            and len(value.args) >= 2 and isinstance(value.args[1], ast.Constant)
            and isinstance(value.args[1].value, str) and value.args[1].value.startswith("__")
        )


# -- the parts ----------------------------------------------------------------------------------


def _own_nodes(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of a function body, not entering nested defs, lambdas or classes."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                todo.append(child)


def _evaluated(node: ast.expr) -> Iterator[ast.AST]:
    """The nodes evaluating ``node`` runs (not a lambda's body)."""
    todo: list[ast.AST] = [node]
    while todo:
        sub = todo.pop()
        yield sub
        if isinstance(sub, ast.Lambda):
            todo.extend([*sub.args.defaults, *(d for d in sub.args.kw_defaults if d is not None)])
            continue
        todo.extend(ast.iter_child_nodes(sub))


def _names(target: ast.AST) -> Iterator[str]:
    """The names an assignment target binds (``x[k] = ...`` and ``x.a = ...`` bind none)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _names(element)
    elif isinstance(target, ast.Starred):
        yield from _names(target.value)


def _text(node: ast.expr) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - a name for a message only
        return type(node).__name__.lower()
