"""TAG007: an assignment expression in an interpolation.

``{(n := len(items))}`` runs inside the interpolation's lambda: ``n`` is
bound in the closure (when, and each time, the tag calls ``getvalue``), never
in the enclosing scope, unlike the same f-string.  The analysis layer's
finding (``assignment_expressions``, shared with the migration's MIG005).
"""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


class AssignmentExpression(RuleMessage):
    template = (
        "assignment expression in an interpolation binds {name!r} inside the lazy closure, "
        "not in the enclosing scope; assign it before the tag string"
    )


def check_tag007(ctx: FileContext) -> Iterator[TagMessage]:
    from tagstr_runtime.frontend import assignment_expressions  # the findings load with the first tag-string file

    assert ctx.tagfile is not None
    at = ctx.tagfile.position  # (line, byte column) of a source offset
    for finding in assignment_expressions(ctx.analysis):
        yield AssignmentExpression.found(at(finding.span.start), finding.args)
