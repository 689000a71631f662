"""Emitters: what the generated code of a tag string looks like, one class per consumer.

The generator (``desugarer.generator``) finds each tag string in the parsed
placeholder tree and knows *what* the tag receives: literal parts, and for
each field its expression's tree, its text, its conversion and its format
spec.  It asks an emitter *how* to write each of them, so no consumer ever
takes generated code apart again:

* ``RuntimeEmitter`` (here): code that runs, through a per-module table of
  prebuilt ``Decoded`` objects (see ``_rt``; why it looks as it does:
  docs/decisions/0020-the-module-table-prologue.md,
  docs/decisions/0021-table-names-live-in-the-globals.md, docs/decisions/0024-hoisted-interpolations.md,
  docs/decisions/0025-eval-mode-global-table.md, docs/decisions/0027-compiled-interpolation-constructor.md);
* ``tagstr_mypy``'s checker emitter: code that type-checks with one hook;
* ``tagstr_flake8``'s lint emitter: the code a linter should see, plus the
  facts the TAG rules need (generated lambdas, each tag string's ancestors);
* ``desugarer.render.ReadableEmitter``: the text form ``desugar()`` prints.

The shape of the ``Interpolation`` call the runtime's code makes is
``desugarer.interpolation_call``'s, which writes it and reads it back.
Every node an emitter returns must carry a position (``located``): the
generator hands it the ``Position`` of the part it stands for.  Why over 400
lines and not split: ``RuntimeEmitter``'s slots, hoisting and prologue work on
one table, and the emitters share ``Emitter``'s helpers.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence, TypeVar, Union, cast

from tagstr_runtime.desugarer.interpolation_call import fields_tuple, interpolation_call, place_call, thunk
from tagstr_runtime.syntax.escapes import spec_texts
from tagstr_runtime.syntax.model import Field, Literal, TagString

if TYPE_CHECKING:
    from tagstr_runtime.desugarer.scopes import ScopeIndex

__all__ = [
    "Emitter", "Position", "RUNTIME_MODULE", "RuntimeEmitter", "TABLE_NAME", "TagCall", "hoisted_name",
    "located", "prologue_index", "slot_name",
]

_N = TypeVar("_N", bound=ast.AST)
_LOAD = ast.Load()
#: ``(lineno, col_offset, end_lineno, end_col_offset)``: columns in UTF-8 bytes, as ``ast`` has them.
Position = tuple[int, int, int, int]
#: A slot of the module's table (``_rt.table``): ``(cooked, raw)`` of a ``Decoded``, or
#: ``(raws, cooked)`` of a format spec with a backslash: its literal texts around its nested
#: fields, and what ``t"..."`` makes of each (``str`` instead: the reason ``t"..."`` rejects them).
Entry = Union[tuple[str, str], tuple[tuple[str, ...], Union[tuple[str, ...], str]]]

#: The module generated code imports at run time, and the name it binds it to.
RUNTIME_MODULE = "tagstr_runtime._rt"
TABLE_NAME = "__tagstr__"


def slot_name(index: int, salt: str = "") -> str:
    """The module global holding slot ``index`` of the table (0: ``Interpolation``)."""
    return f"__tagstr_{salt}_{index}__" if salt else f"__tagstr_{index}__"


def hoisted_name(index: int, salt: str = "") -> str:
    """The module global holding hoisted ``Interpolation`` ``index`` (from 1)."""
    return f"__tagstr_{salt}_h{index}__" if salt else f"__tagstr_h{index}__"


#: Scopes whose names a hoisted lambda could not see, or whose names differ from
#: the module's: class bodies mangle ``__x`` and hold ``__class__``, lambdas and
#: comprehensions have scopes of their own the check below does not read
#: (iteration variables are cells).  A tag string inside one is never hoisted.
#: ``type X[T] = ...`` (3.12+) evaluates lazily in its own scope, where ``T`` is bound.
_NO_HOIST: tuple[type[ast.AST], ...] = (
    ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
    *[getattr(ast, name) for name in ("TypeAlias",) if hasattr(ast, name)],
)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: Statements whose first line can be a branch for coverage (see ``RuntimeEmitter.unhoist``).
_BRANCHING: tuple[type[ast.AST], ...] = (
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.Match,
)


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    a = function.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]


def _names_read(node: ast.AST) -> set[str]:
    """Every name ``node`` reads (nested scopes included: conservative).

    A walk of its own rather than ``ast.walk``: it runs once per interpolation
    of a function, and most of them are a name or an attribute chain.
    """
    names: set[str] = set()
    todo = [node]
    pop, push = todo.pop, todo.append
    while todo:
        current = pop()
        kind = type(current)
        if kind is ast.Name:
            names.add(current.id)  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            push(current.value)  # type: ignore[attr-defined]
        elif kind is not ast.Constant:
            for field in current._fields:
                value = getattr(current, field, None)
                if isinstance(value, ast.AST):
                    push(value)
                elif isinstance(value, list):
                    todo.extend(item for item in value if isinstance(item, ast.AST))
    return names


def located(node: _N, at: Position) -> _N:
    """``node`` placed at ``at`` (attribute assignment: the cheapest way; no ``cast``
    call either, the emitters place tens of thousands of nodes)."""
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at  # type: ignore[attr-defined]
    return node


def position_of(node: ast.expr) -> Position:
    return (node.lineno, node.col_offset, node.end_lineno or 0, node.end_col_offset or 0)


def prologue_index(body: list[ast.stmt]) -> int:
    """Where generated statements go: after the docstring and ``from __future__`` imports."""
    index = 0
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        index = 1
    while (
        index < len(body)
        and isinstance(body[index], ast.ImportFrom)
        and body[index].module == "__future__"  # type: ignore[attr-defined]
    ):
        index += 1
    return index


class TagCall(NamedTuple):
    """What an emitter gets for one tag string."""

    tag: TagString
    func: ast.Name  # the tag's name, at its position
    args: list[ast.expr]  # what the emitter returned for each part, in order
    at: Position  # the whole tag string
    #: the nodes the generator walked through from its root down to the call's
    #: parent: the module first, or for a nested tag string the enclosing field's expression
    path: tuple[ast.AST, ...]
    enclosing: Field | None  # the field of the tag string this one is nested in


class Emitter:
    """How each piece of a tag string is written.  Subclasses override all four (``decoded``
    only when ``decoded_texts``)."""

    #: Under ``from __future__ import annotations`` (PEP 563) CPython never
    #: evaluates an annotation: it stores its text.  An emitter for running code
    #: sets this, and a tag string in an annotation is then left as its own source
    #: text, which the compiler stores verbatim (see ``Generator.as_text``); one
    #: for checking keeps the call, whose parts it wants to see.
    annotations_as_text: bool = False
    #: Whether the call carries the literal runs (``decoded``).  An emitter of a tree that
    #: nothing runs may leave them out: the sites keep them, and a large module's tree
    #: is a fifth smaller without them.
    decoded_texts: bool = True

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        """A literal part: ``cooked`` is its ``str`` value, ``raw`` its ``.raw``."""
        raise NotImplementedError

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        """A field: ``value`` is its expression's tree, ``spec`` the format spec's (an f-string,
        a constant, or ``None`` as a constant)."""
        raise NotImplementedError

    def call(self, site: TagCall) -> ast.expr:
        """The tag string itself (nested tag strings are emitted before the one that holds them)."""
        raise NotImplementedError

    def finish(self, tree: ast.AST) -> ast.AST:
        """The whole tree, once every tag string is emitted."""
        return tree

    # shared by the emitters --------------------------------------------------------

    #: ``lambda: value``: how an interpolation's expression is deferred
    thunk = staticmethod(thunk)
    #: ``(lambda: value, 'expr', conv, spec)``: the 4-tuple an ``Interpolation`` is made of
    #: (``desugarer.interpolation_call``, the one writer of that shape)
    fields_tuple = staticmethod(fields_tuple)


class RuntimeEmitter(Emitter):
    """Code for ``exec``/``single`` (``by_name``) and ``eval`` modes.

    Literal parts become references to a table built once per module
    execution: ``__tagstr_k__`` module globals bound by a prologue, or in eval
    mode (no statements) ``__tagstr__[k]`` on a tuple bound by the expression
    itself.  Slot 0 is the ``Interpolation`` class.

    With ``by_name``, an ``Interpolation`` that is the same object at every
    evaluation is built once, by the prologue, into a global
    ``__tagstr_hK__``: one whose lambda reads only globals and builtins and
    whose format spec is a constant (see ``hoistable``).  Its lambda keeps its
    position, so a traceback from ``getvalue()`` still shows the tag string's
    line; it still reads each global when called (late binding).
    """

    annotations_as_text = True

    def __init__(self, by_name: bool = True, hoist: bool = True, salt: str = "", compiled: bool | None = None) -> None:
        """``salt``: part of every generated global's name, so that two sources run in
        one namespace (a console, IPython, doctest, ``exec`` into one dict) never
        rebind each other's slots: a function defined by one input reads its
        slots when it is called, after later inputs ran.

        ``compiled``: write ``Interpolation(getvalue, expr, conv, spec)`` for the
        compiled constructor (``_rt.fields_table``) rather than
        ``Interpolation((getvalue, expr, conv, spec))`` (``_rt.table``); by default
        where ``_speedups`` is importable (``_rt.SPEEDUPS``), in ``exec`` mode."""
        if compiled is None:
            from tagstr_runtime.desugarer.fingerprint import speedups_abi

            compiled = bool(speedups_abi())
        self.by_name = by_name
        #: the four fields as four arguments (the compiled constructor's form)
        self.fields_form = compiled and by_name
        self.salt = salt
        self.table_name = f"__tagstr_{salt}__" if salt else TABLE_NAME
        self.hoist = hoist and by_name
        self.entries: list[Entry] = []  # (cooked, raw) of each Decoded slot, or a spec's
        self._index: dict[Entry, int] = {}
        self.hoisted: list[ast.Call] = []  # the Interpolation(...) calls the prologue builds
        self._placed: list[tuple[list[ast.expr], int, ast.Call]] = []  # where each was taken from
        #: this tag string's Interpolation(...) calls with a constant spec, each with its value
        self._pending: list[tuple[ast.Call, ast.expr]] = []
        self._bound: dict[int, frozenset[str]] = {}  # id(function node) -> its names (the scope index's)
        self._params: dict[tuple[int, ...], set[str]] = {}  # the parameters of the functions around a site
        self._slot_names: dict[int, str] = {}  # slot_name of each index written
        self._scopes: tuple[ast.AST, ScopeIndex] | None = None  # the tree's scope index, made when first needed

    def ref(self, index: int, at: Position) -> ast.expr:
        if self.by_name:
            identifier = self._slot_names.get(index)
            if identifier is None:
                identifier = self._slot_names[index] = slot_name(index, self.salt)
            node = ast.Name(identifier, _LOAD)
            node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = at  # (located, inlined)
            return node
        table = located(ast.Name(self.table_name, _LOAD), at)
        return located(ast.Subscript(table, located(ast.Constant(index), at), _LOAD), at)

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return self.slot((cooked, raw), at)

    def slot(self, entry: Entry, at: Position) -> ast.expr:
        index = self._index.get(entry)
        if index is None:
            self.entries.append(entry)
            index = self._index[entry] = len(self.entries)
        return self.ref(index, at)

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        constant = isinstance(spec, ast.Constant)
        if field.spec and any(isinstance(part, Literal) and "\\" in part.raw for part in field.spec):
            spec = self.raw_spec(field, spec)
        node = interpolation_call(self.ref(0, at), field, value, spec, at, self.fields_form)
        if self.hoist and constant:
            self._pending.append((node, value))
        return node

    def raw_spec(self, field: Field, spec: ast.expr) -> ast.expr:
        """A spec with a backslash: a ``RawSpec`` slot, or with nested fields a call of the
        slot that builds it from their formatted texts (``_rt.table``), for the bridge."""
        at = position_of(spec)
        slot = self.slot(spec_texts(field.spec or ()), at)
        if isinstance(spec, ast.Constant):
            return slot
        fields = [piece for piece in cast(ast.JoinedStr, spec).values if isinstance(piece, ast.FormattedValue)]
        formatted = [located(ast.JoinedStr([piece]), position_of(piece)) for piece in fields]
        return located(ast.Call(slot, cast(Any, formatted), []), at)

    def call(self, site: TagCall) -> ast.expr:
        args = site.args
        pending, self._pending = self._pending, []
        if pending:
            hoisted = {id(node) for node in self.hoistable(pending, site.path, site.enclosing)}
            for index, arg in enumerate(args):
                if id(arg) in hoisted:
                    assert isinstance(arg, ast.Call)
                    self.hoisted.append(arg)
                    self._placed.append((args, index, arg))
                    name = ast.Name(hoisted_name(len(self.hoisted), self.salt), _LOAD)
                    args[index] = located(name, position_of(arg))
        return located(ast.Call(site.func, args, []), site.at)

    def hoistable(
        self, calls: list[tuple[ast.Call, ast.expr]], path: Sequence[ast.AST], enclosing: Field | None
    ) -> list[ast.Call]:
        """Those of ``calls`` (``Interpolation`` calls with a constant spec, each with the
        value its lambda returns) whose lambda reads no local of any scope around it, so it
        can be made once.

        Conservative: never inside a nested tag string (its enclosing lambda may
        bind names, e.g. by ``:=``), a class body, a lambda or a comprehension;
        inside functions only if no name the lambda reads is a local, a cell or a type
        parameter of an enclosing function (the desugarer's scope index,
        ``ScopeIndex.enclosing_names``; once per function).
        """
        if enclosing is not None:
            return []
        functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        for node in path:
            if isinstance(node, _NO_HOIST):
                return []
            if isinstance(node, _FUNCTIONS):
                functions.append(node)
        if not functions:
            return [call for call, _ in calls]
        reads = [(call, _names_read(value)) for call, value in calls]
        # Most fields read a parameter: rejected without walking the function.
        key = tuple(map(id, functions))
        params = self._params.get(key)
        if params is None:
            params = self._params[key] = {arg.arg for function in functions for arg in _parameters(function)}
        reads = [(call, names) for call, names in reads if params.isdisjoint(names)]
        if not reads:
            return []
        if self._scopes is None or self._scopes[0] is not path[0]:
            from tagstr_runtime.desugarer.scopes import ScopeIndex

            self._scopes = (path[0], ScopeIndex(path[0]))
        bound: set[str] = set()
        for function in functions:
            names = self._bound.get(id(function))
            if names is None:
                names = self._bound[id(function)] = self._scopes[1].enclosing_names(function)
            bound |= names
        return [call for call, names in reads if bound.isdisjoint(names)]

    def finish(self, tree: ast.AST) -> ast.AST:
        if isinstance(tree, ast.Module) and tree.body and tree.body[0].lineno == 1 and isinstance(
            tree.body[0], _BRANCHING
        ):
            self.unhoist()
        if isinstance(tree, (ast.Module, ast.Interactive)):
            at = prologue_index(tree.body) if isinstance(tree, ast.Module) else 0
            tree.body[at:at] = self.prologue()
        elif isinstance(tree, ast.Expression):
            tree.body = self.eval_table(tree.body)
        return tree

    def unhoist(self) -> None:
        """Put every hoisted ``Interpolation`` call back in its tag string.

        A hoisted lambda is made on line 1 and, before Python 3.13, returns on
        line 1: coverage records its run as the arcs ``N -> 1`` and ``1 -> exit``
        of the module.  Harmless where line 1 is a docstring, a comment or an
        import; where it opens a loop or an ``if`` those are real branches,
        which would then show as taken.  Such modules (a script that starts
        with ``while True:``) are rare: they go without the optimisation."""
        for args, index, call in self._placed:
            args[index] = call
        self.hoisted.clear()
        self._placed.clear()

    def prologue(self) -> list[ast.stmt]:
        """``global`` for every generated name (with separate locals, ``exec(code, g, l)``,
        nested scopes read them from ``g``), ``from tagstr_runtime._rt import table as
        __tagstr__``, then ``__tagstr_0__, __tagstr_1__, ... = __tagstr__(TEXTS, RAWS)``, on line 1."""
        slot_names = [slot_name(index, self.salt) for index in range(len(self.entries) + 1)]
        hoisted = [hoisted_name(k, self.salt) for k in range(1, len(self.hoisted) + 1)]
        declare = ast.Global([TABLE_NAME, *slot_names, *hoisted])
        table = "fields_table" if self.fields_form else "table"
        load = ast.ImportFrom(RUNTIME_MODULE, [ast.alias(table, TABLE_NAME)], 0)
        slots = [ast.Name(name, ast.Store()) for name in slot_names]
        build = ast.Assign(
            [ast.Tuple(cast(Any, slots), ast.Store())],
            ast.Call(ast.Name(TABLE_NAME, _LOAD), self.table_arguments(), []),
        )
        stmts: list[ast.stmt] = [declare, load, build]
        for stmt in stmts:
            for node in ast.walk(stmt):
                if "lineno" in node._attributes:
                    located(node, (1, 0, 1, 0))
        if self.hoisted:
            stmts.append(self.hoisted_build())
        return stmts

    def table_arguments(self) -> list[ast.expr]:
        """``TEXTS`` (each slot's cooked text), then ``RAWS`` ((index, raw) of each
        whose raw text differs) and ``SPECS`` (the format specs with a backslash) when
        there are any: see ``_rt.table``."""
        texts = tuple(first if isinstance(first, str) else "" for first, _ in self.entries)
        raws = tuple((index, second) for index, (first, second) in enumerate(self.entries)
                     if isinstance(first, str) and second != first)
        specs = tuple((index, first, second) for index, (first, second) in enumerate(self.entries)
                      if not isinstance(first, str))
        arguments = [texts, raws, specs]
        while len(arguments) > 1 and not arguments[-1]:
            arguments.pop()
        return [ast.Constant(cast(Any, argument)) for argument in arguments]

    def hoisted_build(self) -> ast.stmt:
        """``__tagstr_h1__, ... = (Interpolation((lambda: ..., ...)), ...)``, on line 1
        but for the lambdas' bodies, which keep their places: a traceback from
        ``getvalue()`` shows the tag string's line.  The ``Lambda`` nodes go to
        line 1 too: their position is where the function is *made*, and a made
        function at the tag string's line would make a line tracer (coverage)
        count that line as run at import."""
        start = (1, 0, 1, 0)
        for call in self.hoisted:
            place_call(call, start)
        targets = [located(ast.Name(hoisted_name(k, self.salt), ast.Store()), start)
                   for k in range(1, len(self.hoisted) + 1)]
        values = located(ast.Tuple(cast(Any, self.hoisted), _LOAD), start)
        return located(ast.Assign([located(ast.Tuple(cast(Any, targets), ast.Store()), start)],
                                  values), start)

    def eval_table(self, body: ast.expr) -> ast.expr:
        """``(__import__(...).global_table('__tagstr_<salt>__', TEXTS, RAWS), body)[1]``: the
        table goes to the frame's globals, where lambdas read it (no ``global`` in an expression)."""
        importer = ast.Call(
            ast.Name("__import__", _LOAD),
            [ast.Constant(RUNTIME_MODULE), ast.Constant(None), ast.Constant(None),
             ast.Constant(cast(Any, ("global_table",)))],
            [],
        )
        bind = ast.Call(
            ast.Attribute(importer, "global_table", _LOAD), [ast.Constant(self.table_name), *self.table_arguments()], []
        )
        result = ast.Subscript(ast.Tuple([bind, body], _LOAD), ast.Constant(1), _LOAD)
        ast.copy_location(result, body)
        for node in ast.walk(result):
            if node is not body and "lineno" in node._attributes and not hasattr(node, "lineno"):
                ast.copy_location(node, body)
        return ast.fix_missing_locations(result)
