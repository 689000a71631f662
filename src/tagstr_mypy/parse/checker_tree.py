"""The standard-``ast`` tree mypy checks for a module with tag strings.

It is the runtime's desugaring (original positions, one call per tag string)
written by ``CheckerEmitter`` for the checker:

* every tag string ``tag"..."`` is ``__tagstr_call__(tag, a, b)``, so that one
  plugin hook (on ``tagstr_runtime._checker.tag_call``) types every tag string
  whatever the tag is, and reports in tag-string terms;
* a literal part is ``__tagstr_d__`` (only its type matters); an interpolation
  is its expression, in place, where the f-string twin evaluates it (``INTERPOLATION``),
  or ``lambda: expr`` where the closure means something else (``THUNK``: a class
  body's name, an assignment expression, a tag that reads its values later; see
  ``parse/deferred.py``); each field of its format spec follows it (``SPEC``:
  evaluated with the tag string, in its scope).  The signature hook gives mypy the
  tag's parameter with ``Interpolation[X]`` written ``X`` for an expression and
  ``Callable[[], X]`` for a lambda (``hooks/signature.py``), so that mypy infers
  each in the tag's context; the hooks see ``Interpolation[<the value's type>]``;
* what each tag string's call stands for is kept beside the tree, keyed by the
  call's position (``CheckerTree.sites``, a ``SiteRecord`` each): what each
  argument is, the source text of each interpolation, which messages quote, and
  what an embedded language's context asks of its type.  The hooks look the call
  up there and never tell arguments apart by the generated code;
* one import of those typed stand-ins replaces the run-time table.

Nothing here lexes, and nothing takes generated code apart: the runtime's
parser found the tag strings and its generator asks this emitter what to write.
"""

from __future__ import annotations

import ast
import sys
from typing import NamedTuple

from tagstr_runtime.frontend import (
    CHECKER_MODULE,
    Desugaring,
    Emitter,
    Field,
    Position,
    TagCall,
    TagString,
    located,
    prologue_index,
)

from tagstr_mypy.parse.columns import fields_at_their_expressions, to_char_columns

__all__ = ["CALL_NAME", "CHECKER_MODULE", "DECODED", "DECODED_NAME", "INTERPOLATION", "SPEC", "THUNK",
           "CheckerEmitter", "CheckerTree", "SiteRecord", "checker_tree"]

CALL_NAME = "__tagstr_call__"
DECODED_NAME = "__tagstr_d__"
_LOAD = ast.Load()

#: what an argument of a tag string's call is, after the tag (``SiteRecord.kinds``): a literal
#: part, an interpolation's expression in place, a field of a format spec (checked in place,
#: not passed to the tag), an interpolation's ``lambda: expr``
DECODED, INTERPOLATION, SPEC, THUNK = 0, 1, 2, 3
#: the Python that mypy's stdlib-``ast`` parser runs on: before 3.12, every field of an
#: f-string is placed at the f-string's start; since, at its ``{``
_FIELDS_AT_THE_START = sys.version_info < (3, 12)


class SiteRecord(NamedTuple):
    """One tag string as its generated call's hooks need it (from the emitter, which wrote it)."""

    #: each argument after the tag: ``DECODED``, ``INTERPOLATION``, ``THUNK`` or ``SPEC``
    kinds: tuple[int, ...]
    #: each of the tag's arguments (the specs left out): an interpolation's source text, or
    #: None for a literal part
    texts: tuple[str | None, ...]
    #: each of the tag's arguments: what its context asks of its value's type (an SQL name,
    #: HTML attributes: ``typing.hole_demands.hole_demands``), or None
    demands: tuple[str | None, ...]
    #: each of the tag's arguments: where its expression starts, (line, column), when the tree
    #: places it elsewhere as mypy places the f-string twin's (``twin_columns``); else None.
    #: The plugin's own messages about an interpolation point at the expression itself.
    starts: tuple[tuple[int, int] | None, ...] = ()


class _Hooked(NamedTuple):
    """A tag string's hooked call, and the parts the emitter wrote for it (``place`` fills its arguments)."""

    call: ast.Call
    site: TagCall
    #: each argument: a literal part's name, or an interpolation's lambda with its spec's fields
    parts: tuple[tuple[ast.expr, tuple[tuple[ast.expr, Position], ...]], ...]


class CheckerEmitter(Emitter):
    """Generated names and constants get zero-width positions at the start of
    what they stand for, so that tools listing the expressions at a position
    (``dmypy inspect``) show the user's, not these.

    Each interpolation is first written as its lambda; ``place`` then puts each
    expression where it is checked, once the analysis has said which stay closures."""

    def __init__(self) -> None:
        self.hooks: list[ast.Name] = []  # each tag string's __tagstr_call__
        self.hooked: list[_Hooked] = []
        self.annotations: list[TagCall] = []  # the tag strings in annotations (their f-string twins)
        self.fields: dict[int, Field] = {}  # id(lambda) -> its interpolation's field
        #: id(lambda) -> the fields of its format spec (pre-order), each with its ``{``'s position
        self.spec_of: dict[int, tuple[tuple[ast.expr, Position], ...]] = {}

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return located(ast.Name(DECODED_NAME, _LOAD), at)

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        lam = self.thunk(value, at)
        self.fields[id(lam)] = field
        if isinstance(spec, ast.JoinedStr):  # a constant spec or none: nothing to check
            self.spec_of[id(lam)] = tuple(_spec_fields(spec))
        return lam

    def call(self, site: TagCall) -> ast.expr:
        if site.path and _in_annotation(site):
            self.annotations.append(site)
            return _fstring_twin(site)
        if _is_base(site):
            # what mypy says of a call as a base names the tag, as for ``tag(...)``
            return located(ast.Call(site.func, list(site.args), []), site.at)
        line, col = site.at[0], site.at[1]
        hook = located(ast.Name(CALL_NAME, _LOAD), (line, col, line, col))
        self.hooks.append(hook)
        spec_of = self.spec_of
        parts = tuple([(part, spec_of.get(id(part), ())) for part in site.args])
        call = located(ast.Call(hook, [site.func, *site.args], []), site.at)
        self.hooked.append(_Hooked(call, site, parts))
        return call

    def place(
        self, deferred: set[int], twin_columns: bool
    ) -> dict[tuple[int, int], tuple[SiteRecord, tuple[int | None, ...]]]:
        """Put each interpolation where mypy checks it: its expression in place, or its lambda
        when its field's offset is in ``deferred``; each spec field after it.  ``twin_columns``:
        place each expression as mypy's stdlib-``ast`` parser places the f-string twin's field
        (mypy moves a field's expression to the field's position).  Returns each call's record
        by its (line, byte column), with its interpolations' field offsets (for ``demands``)."""
        records = {}
        fields = self.fields
        for hooked in self.hooked:
            site = hooked.site
            args: list[ast.expr] = [site.func]
            kinds: list[int] = []
            texts: list[str | None] = []
            offsets: list[int | None] = []
            starts: list[tuple[int, int] | None] = []
            moved = False
            for part, specs in hooked.parts:
                field = fields.get(id(part))
                if field is None:
                    args.append(part)
                    kinds.append(DECODED)
                    texts.append(None)
                    offsets.append(None)
                    starts.append(None)
                    continue
                texts.append(field.expr)
                offsets.append(field.span.start)
                start: tuple[int, int] | None = None
                if field.span.start in deferred:
                    args.append(part)
                    kinds.append(THUNK)
                else:
                    assert isinstance(part, ast.Lambda)
                    value = part.body
                    if twin_columns and not _is_hooked(value):
                        start = (value.lineno, value.col_offset)
                        _at_the_field(value, site.at if _FIELDS_AT_THE_START else part_position(part))
                        moved = True
                    args.append(value)
                    kinds.append(INTERPOLATION)
                starts.append(start)
                for spec_value, where in specs:
                    if twin_columns and not _is_hooked(spec_value):
                        _at_the_field(spec_value, site.at if _FIELDS_AT_THE_START else where)
                    args.append(spec_value)
                    kinds.append(SPEC)
            hooked.call.args = args
            record = SiteRecord(tuple(kinds), tuple(texts), (None,) * len(texts), tuple(starts) if moved else ())
            records[site.at[0], site.at[1]] = (record, tuple(offsets))
        return records

    def finish(self, tree: ast.AST) -> ast.AST:
        assert isinstance(tree, ast.Module)
        names = [
            ast.alias("tag_call", CALL_NAME),
            ast.alias("decoded", DECODED_NAME),
        ]
        imp = ast.ImportFrom(CHECKER_MODULE, names, 0)
        at = prologue_index(tree.body)
        # On the line of the statement it precedes, not line 1: a "# type: ignore"
        # above the first statement ignores the whole file only if no statement
        # comes before it (mypy's rule), and comments there keep their meaning.
        line = tree.body[at].lineno if at < len(tree.body) else 1
        for node in (imp, *names):
            located(node, (line, 0, line, 0))
        tree.body.insert(at, imp)
        return tree


def _is_hooked(node: ast.expr) -> bool:
    """A tag string's call (a nested one): its record is keyed by its own position."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == CALL_NAME


def part_position(node: ast.expr) -> Position:
    return (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)


def _at_the_field(value: ast.expr, at: Position) -> None:
    """Where mypy's stdlib-``ast`` converter puts an f-string field's expression
    (``set_line`` of the field's line and column: the end stays)."""
    value.lineno, value.col_offset = at[0], at[1]


def _spec_fields(spec: ast.JoinedStr) -> list[tuple[ast.expr, Position]]:
    """The fields of a format spec, pre-order (a field's own spec after it), each with
    the position of its ``{`` (the generator's ``FormattedValue``)."""
    found: list[tuple[ast.expr, Position]] = []
    for value in spec.values:
        if isinstance(value, ast.FormattedValue):
            found.append((value.value, part_position(value)))
            if isinstance(value.format_spec, ast.JoinedStr):
                found.extend(_spec_fields(value.format_spec))
    return found


def _in_annotation(site: TagCall) -> bool:
    """Whether the tag string is (in) an annotation, where mypy judges it as a
    type: the f-string twin's error, not one about the hook's name, is right."""
    start = site.at[:2]
    for node in site.path:
        if type(node) in _ANNOTATED_TYPES:  # one lookup per node (no subclasses of ast's)
            assert isinstance(node, _ANNOTATED)
            part = node.returns if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else node.annotation
            if part is not None and _within(start, part):
                return True
    return False


#: the nodes with an annotation (``arg``, ``AnnAssign``) or a return annotation
_ANNOTATED = (ast.arg, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef)
_ANNOTATED_TYPES = frozenset(_ANNOTATED)


def _is_base(site: TagCall) -> bool:
    parent = site.path[-1] if site.path else None
    return isinstance(parent, ast.ClassDef) and any(
        (base.lineno, base.col_offset) == site.at[:2] for base in parent.bases
    )


def _within(start: tuple[int, int], node: ast.expr) -> bool:
    if node.end_lineno is None or node.end_col_offset is None:
        return (node.lineno, node.col_offset) <= start
    return (node.lineno, node.col_offset) <= start < (node.end_lineno, node.end_col_offset)


def _fstring_twin(site: TagCall) -> ast.expr:
    """``f"{a}{b}"`` of the emitted parts: what a type checker makes of an
    f-string where a type belongs, at the tag string's position."""
    values: list[ast.expr] = [
        ast.copy_location(ast.FormattedValue(arg, -1, None), arg) for arg in site.args
    ]
    return located(ast.JoinedStr(values), site.at)


def _zero_width(at: Position) -> Position:
    return (at[0], at[1], at[0], at[1])


class CheckerTree(NamedTuple):
    tree: ast.Module
    desugaring: Desugaring
    #: (line, column) of each tag string's hooked call, as mypy will see it -> its record
    sites: dict[tuple[int, int], SiteRecord]
    #: each hooked call of ``tree`` with its tag string (nested ones before the one holding them)
    calls: list[tuple[ast.Call, TagString]]
    #: each tag string in an annotation (written as its f-string twin): its (line, column) ->
    #: ((end line, end column), the tag's name)
    annotations: dict[tuple[int, int], tuple[tuple[int, int], str]]


def checker_tree(
    text: str,
    filename: str,
    python_version: tuple[int, int],
    *,
    char_columns: bool,
    twin_columns: bool = False,
) -> CheckerTree | None:
    """The tree for ``text``, or None when it has no tag string (SPEC 1.8).

    Raises ``SyntaxError`` (``TagSyntaxError`` for malformed tag strings) at the
    original position.  ``char_columns``: mypy's native parser counts columns in
    characters, its stdlib-``ast`` parser in UTF-8 bytes; the tree follows the
    parser mypy would have used, so positions match stock mypy either way.
    ``twin_columns``: mypy's stdlib-``ast`` parser checks the tree, and each
    expression of a tag string stands where it puts the f-string twin's (at the
    f-string's start before Python 3.12, at the field's ``{`` since).
    """
    emitter = CheckerEmitter()
    desugaring = Desugaring(
        text,
        filename,
        "exec",
        emitter=emitter,
        flags=ast.PyCF_TYPE_COMMENTS,
        template_strings=python_version >= (3, 14),
        feature_version=python_version,
        emit_warnings=False,
    )
    if not desugaring.tag_strings:
        return None
    tree = desugaring.tree
    assert isinstance(tree, ast.Module)
    from tagstr_mypy.parse.deferred import analysed

    by_field, deferred = analysed(desugaring, filename)
    placed = emitter.place(deferred, twin_columns)
    if char_columns and desugaring.result.fstrings:
        fields_at_their_expressions([tree])  # as the native parser places them
    if by_field:
        records = {
            at: record._replace(demands=tuple(None if start is None else by_field.get(start) for start in starts))
            for at, (record, starts) in placed.items()
        }
    else:
        records = {at: record for at, (record, _) in placed.items()}
    annotations = {site.at[:2]: (site.at[2:], site.tag.name) for site in emitter.annotations}
    if char_columns and not text.isascii():
        convert = to_char_columns(tree, desugaring.source)
        records = {(line, convert(line, col)): record for (line, col), record in records.items()}
        annotations = {
            (line, convert(line, col)): ((end[0], convert(*end)), name)
            for (line, col), (end, name) in annotations.items()
        }
    _out_of_reach(emitter.hooks)
    calls = [(hooked.call, hooked.site.tag) for hooked in emitter.hooked]
    return CheckerTree(tree, desugaring, records, calls, annotations)


def _out_of_reach(names: list[ast.Name]) -> None:
    """End each hook's name on the line before it starts: a zero-width name
    still encloses its position, and ``dmypy inspect`` at a tag string would
    list ``tag_call`` (its definition, its type) beside the user's tag.  An
    extent that ends before it starts encloses no position."""
    for name in names:
        name.end_lineno = name.lineno - 1
