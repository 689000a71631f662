"""The scope an error inside a tag string's interpolation is reported in.

mypy checks each interpolation inside the lambda the checker tree wraps it in,
and its error context follows the innermost function: at module or class level
``--show-error-context`` would say ``In function "<lambda>"`` where the
f-string twin says nothing.  In a ``def`` the lambda is nested and the ``def``
is already the context.  The tag-call hook runs after the interpolations were
checked, in the tag string's own scope: it gives the errors reported inside
the tag string that scope (and its fine-grained target, as the f-string
twin's errors have), except inside a lambda of the user's, which is the
context there as for the f-string twin.
"""

from __future__ import annotations

from typing import Callable

from mypy.checker import TypeChecker
from mypy.errors import ErrorInfo
from mypy.nodes import CallExpr, Context, Expression, LambdaExpr

from tagstr_mypy.parse.checker_tree import THUNK, SiteRecord

__all__ = ["report_in_own_scope", "reported_within"]

Span = tuple[int, int, int, int]


def reported_within(api: TypeChecker, call: Context) -> list[ErrorInfo]:
    """The errors and notes reported so far inside ``call``'s extent, including
    those held back by checks in progress (mypy often checks an expression with
    its errors held, and reports them later)."""
    errors = api.msg.errors
    lists = [errors.error_info_map.get(errors.file, [])]
    for watcher in errors.get_watchers():
        held = getattr(watcher, "_filtered", None)
        if held:
            lists.append(held)
    span = _span(call)
    found = []
    for infos in lists:
        for info in reversed(infos):  # the errors just reported come last
            if not _inside((info.line, info.column, info.line, info.column), span):
                break
            found.append(info)
    return found


#: a tag string's record by its generated call (``BuildState.site``), or None for another call
Records = Callable[[CallExpr], "SiteRecord | None"]


def report_in_own_scope(api: TypeChecker, call: Context, infos: list[ErrorInfo], records: Records) -> None:
    """Give ``infos`` (reported inside the tag string ``call``) the tag string's scope."""
    scope = api.msg.errors.scope
    if scope is None or scope.current_function_name() is not None or not isinstance(call, CallExpr):
        return
    record = records(call)
    if record is None:
        return
    user_lambdas: list[Span] | None = None
    outer = (scope.current_type_name(), None)
    target = scope.current_target()
    for info in infos:
        if info.local_ctx[1] is None:
            continue
        if user_lambdas is None:
            user_lambdas = _user_lambdas(call, record, records)
        here = (info.line, info.column, info.line, info.column)
        ours = not any(_inside(here, user) for user in user_lambdas)
        info.local_ctx = outer if ours else (outer[0], info.local_ctx[1])
        info.target = target


def _span(node: Context) -> Span:
    end_line = node.end_line if node.end_line is not None else node.line
    end_column = node.end_column if node.end_column is not None else node.column
    return (node.line, node.column, end_line, end_column)


def _inside(inner: Span, outer: Span) -> bool:
    return outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


def _user_lambdas(call: CallExpr, record: SiteRecord, records: Records) -> list[Span]:
    found: list[Span] = []
    _generated_call_lambdas(call, record, records, found)
    return found


# where an expression keeps its subexpressions (mypy's traversers cannot be
# subclassed from interpreted code); a lambda missed here only loses its name
# as the context of an error inside it
_CHILDREN = (
    "callee", "args", "expr", "left", "right", "base", "index", "items", "operands",
    "cond", "if_expr", "else_expr", "value", "left_expr", "right_expr", "sequences",
    "condlists", "generator", "key", "begin_index", "end_index", "stride",
)


def _find_lambdas(node: object, records: Records, found: list[Span]) -> None:
    if isinstance(node, (list, tuple)):
        for item in node:
            _find_lambdas(item, records, found)
        return
    if not isinstance(node, Expression):
        return
    if isinstance(node, LambdaExpr):  # mypy gives a lambda no end: its body's is
        found.append(_span(node)[:2] + _span(node.expr())[2:])
        return
    if isinstance(node, CallExpr):
        record = records(node)
        if record is not None:  # a nested tag string
            _generated_call_lambdas(node, record, records, found)
            return
    for name in _CHILDREN:
        _find_lambdas(getattr(node, name, None), records, found)


def _generated_call_lambdas(call: CallExpr, record: SiteRecord, records: Records, found: list[Span]) -> None:
    """The user's lambdas in a tag string's call: its own lambdas are generated
    (``lambda: expr``, its record says which), and only ``expr`` is the user's."""
    for arg, kind in zip(call.args[1:], record.kinds):
        inside = arg.expr() if kind == THUNK and isinstance(arg, LambdaExpr) else arg
        _find_lambdas(inside, records, found)
