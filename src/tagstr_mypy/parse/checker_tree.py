"""The standard-``ast`` tree mypy checks for a module with tag strings.

It is the runtime's desugaring (original positions, one call per tag string)
written by ``CheckerEmitter`` for the checker:

* every tag string ``tag"..."`` is ``__tagstr_call__(tag, a, b)``, so that one
  plugin hook (on ``tagstr_runtime._checker.tag_call``) types every tag string
  whatever the tag is, and reports in tag-string terms;
* a literal part is ``__tagstr_d__`` (only its type matters), an interpolation
  ``lambda: expr``, followed by its format spec when that has fields of its
  own (``f"{width}"``, evaluated with the tag string, in its scope): the
  signature hook gives mypy, for each lambda, the tag's parameter with every
  ``Interpolation[X]`` written ``Callable[[], X]`` (``hooks/signature.py``), so
  that mypy infers the expression in the tag's context without inferring a
  generic wrapper's type per interpolation (which costs more than the rest of
  the tag string); the hooks see ``Interpolation[<the value's type>]``;
* what each tag string's call stands for is kept beside the tree, keyed by the
  call's position (``CheckerTree.sites``, a ``SiteRecord`` each): what each
  argument is (a literal part, an interpolation, a format spec), the source
  text of each interpolation, which messages quote, and what an embedded
  language's context asks of its type.  The hooks look the call up there and
  never tell arguments apart by the generated code;
* one import of those typed stand-ins replaces the run-time table.

Nothing here lexes, and nothing takes generated code apart: the runtime's
parser found the tag strings and its generator asks this emitter what to write.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import Callable, NamedTuple, Sequence

from tagstr_runtime.frontend import (
    CHECKER_MODULE,
    Desugaring,
    Emitter,
    Field,
    Position,
    SourceText,
    TagCall,
    located,
    prologue_index,
)

__all__ = ["CHECKER_MODULE", "DECODED", "INTERPOLATION", "SPEC", "CheckerEmitter", "CheckerTree", "SiteRecord",
           "checker_tree"]

CALL_NAME = "__tagstr_call__"
DECODED_NAME = "__tagstr_d__"
_LOAD = ast.Load()

#: what an argument of a tag string's call is, after the tag (``SiteRecord.kinds``)
DECODED, INTERPOLATION, SPEC = 0, 1, 2


class SiteRecord(NamedTuple):
    """One tag string as its generated call's hooks need it (from the emitter, which wrote it)."""

    #: each argument after the tag: ``DECODED``, ``INTERPOLATION`` or ``SPEC`` (a format spec
    #: with fields, after its interpolation: checked, not passed to the tag)
    kinds: tuple[int, ...]
    #: each of the tag's arguments (the specs left out): an interpolation's source text, or
    #: None for a literal part
    texts: tuple[str | None, ...]
    #: each of the tag's arguments: what its context asks of its value's type (an SQL name,
    #: HTML attributes: ``typing.hole_demands.hole_demands``), or None
    demands: tuple[str | None, ...]


# ``arguments`` carries no position: one shared node for every lambda (as the runtime's emitter does)
_NO_ARGUMENTS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)


class CheckerEmitter(Emitter):
    """Generated names and constants get zero-width positions at the start of
    what they stand for, so that tools listing the expressions at a position
    (``dmypy inspect``) show the user's, not these."""

    def __init__(self) -> None:
        self.specs: list[ast.JoinedStr] = []  # generated format specs (f-strings)
        self.hooks: list[ast.Name] = []  # each tag string's __tagstr_call__
        #: each hooked call's record by the call's (line, column): byte columns (``checker_tree``
        #: converts them with the tree's), with its interpolations' field offsets
        self.sites: dict[tuple[int, int], tuple[SiteRecord, tuple[int | None, ...]]] = {}
        self.fields: dict[int, Field] = {}  # id(lambda) -> its interpolation's field
        self.spec_of: dict[int, ast.JoinedStr] = {}  # id(lambda) -> its spec with fields
        self._specs_seen = 0  # len(specs) at the last call: the parts of a call come right before it

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return located(ast.Name(DECODED_NAME, _LOAD), at)

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        lam = located(ast.Lambda(_NO_ARGUMENTS, value), at)  # Emitter.thunk
        self.fields[id(lam)] = field
        if isinstance(spec, ast.JoinedStr):  # a constant spec or none: nothing to check
            self.specs.append(spec)
            self.spec_of[id(lam)] = spec
        return lam

    def arguments(self, parts: Sequence[ast.expr]) -> list[ast.expr]:
        """The call's arguments: each part, and after an interpolation its spec with fields."""
        args: list[ast.expr] = []
        for part in parts:
            args.append(part)
            spec = self.spec_of.get(id(part))
            if spec is not None:
                args.append(spec)
        return args

    def call(self, site: TagCall) -> ast.expr:
        # the parts of this tag string were emitted since the last call (nested
        # tag strings are called before the parts of the one that holds them)
        with_specs = len(self.specs) != self._specs_seen
        self._specs_seen = len(self.specs)
        if site.path and _in_annotation(site):
            return _fstring_twin(site)
        if _is_base(site):
            # what mypy says of a call as a base names the tag, as for ``tag(...)``
            return located(ast.Call(site.func, list(site.args), []), site.at)
        line, col = site.at[0], site.at[1]
        hook = located(ast.Name(CALL_NAME, _LOAD), (line, col, line, col))
        self.hooks.append(hook)
        args = self.arguments(site.args) if with_specs else site.args
        self.sites[line, col] = self.record(site.args, len(args) != len(site.args))
        return located(ast.Call(hook, [site.func, *args], []), site.at)

    def record(
        self, parts: Sequence[ast.expr], with_specs: bool
    ) -> tuple[SiteRecord, tuple[int | None, ...]]:
        """The call's record (with each argument's field offset, for ``demands``)."""
        fields = self.fields
        found = [fields.get(id(part)) for part in parts]
        texts = tuple(None if field is None else field.expr for field in found)
        starts = tuple(None if field is None else field.span.start for field in found)
        if with_specs:
            kinds: list[int] = []
            for part, field in zip(parts, found):
                kinds.append(DECODED if field is None else INTERPOLATION)
                if id(part) in self.spec_of:
                    kinds.append(SPEC)
        else:
            kinds = [DECODED if field is None else INTERPOLATION for field in found]
        return SiteRecord(tuple(kinds), texts, (None,) * len(parts)), starts

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
_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


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


def checker_tree(
    text: str,
    filename: str,
    python_version: tuple[int, int],
    *,
    char_columns: bool,
) -> CheckerTree | None:
    """The tree for ``text``, or None when it has no tag string (SPEC 1.8).

    Raises ``SyntaxError`` (``TagSyntaxError`` for malformed tag strings) at the
    original position.  ``char_columns``: mypy's native parser counts columns in
    characters, its stdlib-``ast`` parser in UTF-8 bytes; the tree follows the
    parser mypy would have used, so positions match stock mypy either way.
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
    from tagstr_mypy.typing.hole_demands import hole_demands

    by_field = hole_demands(desugaring, filename)  # by the source offset of each field
    _fields_at_their_expressions([tree] if desugaring.result.fstrings else emitter.specs)
    if by_field:
        records = {
            at: record._replace(demands=tuple(None if start is None else by_field.get(start) for start in starts))
            for at, (record, starts) in emitter.sites.items()
        }
    else:
        records = {at: record for at, (record, _) in emitter.sites.items()}
    if char_columns and not text.isascii():
        convert = _to_char_columns(tree, desugaring.source)
        records = {(line, convert(line, col)): record for (line, col), record in records.items()}
    _out_of_reach(emitter.hooks)
    return CheckerTree(tree, desugaring, records)


def _out_of_reach(names: list[ast.Name]) -> None:
    """End each hook's name on the line before it starts: a zero-width name
    still encloses its position, and ``dmypy inspect`` at a tag string would
    list ``tag_call`` (its definition, its type) beside the user's tag.  An
    extent that ends before it starts encloses no position."""
    for name in names:
        name.end_lineno = name.lineno - 1


def _fields_at_their_expressions(roots: Sequence[ast.AST]) -> None:
    """Give each f-string field the position of its expression.

    mypy's stdlib-``ast`` converter moves a field's expression to the field's
    position; its native parser keeps the expression's own, which is right.
    Format specs of interpolations are f-strings we generate; the whole tree
    is walked only when the runtime's parser saw a standard f-string.
    """
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, ast.FormattedValue):
                ast.copy_location(node, node.value)


def _to_char_columns(tree: ast.Module, source: SourceText) -> Callable[[int, int], int]:
    """Byte columns (``ast``) to character columns, on lines with non-ASCII text;
    returns the conversion (line, byte column) -> character column.

    Only statements that reach such a line are walked (a statement's lines hold
    all of it, a decorated one's from its first decorator on): one accented
    letter in a docstring must not cost a walk of the whole tree."""
    cache: dict[tuple[int, int], int] = {}
    non_ascii = source.non_ascii_lines()
    lines = sorted(non_ascii)

    def convert(line: int, col_byte: int) -> int:
        if line not in non_ascii:
            return col_byte
        key = (line, col_byte)
        found = cache.get(key)
        if found is None:
            if line < 1 or line > source.line_count:
                found = col_byte
            else:
                found = source.offset(line, col_byte) - source.line_start(line)
            cache[key] = found
        return found

    def reaches(stmt: ast.stmt) -> bool:
        first = stmt.lineno
        if isinstance(stmt, _DECORATED) and stmt.decorator_list:
            first = min(first, stmt.decorator_list[0].lineno)
        index = bisect_left(lines, first)
        return index < len(lines) and lines[index] <= (stmt.end_lineno or stmt.lineno)

    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if "col_offset" in node._attributes:
            lineno = node.lineno  # type: ignore[attr-defined]
            if lineno in non_ascii:
                node.col_offset = convert(lineno, node.col_offset)  # type: ignore[attr-defined]
            end = getattr(node, "end_lineno", None)
            if end is not None and end in non_ascii and node.end_col_offset is not None:  # type: ignore[attr-defined]
                node.end_col_offset = convert(end, node.end_col_offset)  # type: ignore[attr-defined]
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST) and (not isinstance(item, ast.stmt) or reaches(item)):
                        todo.append(item)
            elif isinstance(value, ast.AST):
                todo.append(value)
    return convert
