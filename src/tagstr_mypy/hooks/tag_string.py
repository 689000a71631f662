"""The tag-call hook, and what makes its outcome the user's view of the tag string.

``tag_call_callback`` types the tag string; around it, the call it stands for
keeps the dependencies dmypy needs (``typing/deps.py``), and the errors reported
inside the tag string get the tag string's scope (``reports/error_scope.py``) and
name a deprecated overload as other messages name types (``reports/deprecated.py``).
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.plugin import FunctionContext
from mypy.types import Type, get_proper_type

from tagstr_mypy.hooks.build_state import BuildState
from tagstr_mypy.reports.deprecated import deprecation_in_user_terms
from tagstr_mypy.typing.deps import depend_as_call
from tagstr_mypy.reports.error_scope import report_in_own_scope, reported_within
from tagstr_mypy.typing.call_type import tag_call_callback

__all__ = ["tag_string_hook"]


def tag_string_hook(state: BuildState, ctx: FunctionContext) -> Type:
    api = ctx.api
    assert isinstance(api, TypeChecker)
    tag_type = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    if tag_type is not None:
        depend_as_call(api, ctx.context, tag_type)
    result = tag_call_callback(state, ctx)
    infos = reported_within(api, ctx.context)
    if infos:
        report_in_own_scope(api, ctx.context, infos, lambda call: state.site(api.path, call))
        if tag_type is not None:
            deprecation_in_user_terms(api, tag_type, infos)
    return result
