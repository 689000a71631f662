"""TAG005: an interpolation in a class body naming a class-body variable.

An interpolation is a lambda, and no function defined in a class body sees
the class's names (SPEC 3): ``table = "users"; q = sql"FROM {table}"`` in a
class body reads a *global* ``table`` (or raises ``NameError``) when the tag
calls ``getvalue``.  The analysis layer's finding (``class_variables``,
shared with the migration's MIG004), reported at the name.
"""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


class ClassVariable(RuleMessage):
    template = (
        "interpolation reads class variable {name!r}: the lazy closure cannot see the class "
        "body (it reads a global of that name or raises NameError); use a module constant, "
        "or self.{name} in a method"
    )


def check_tag005(ctx: FileContext) -> Iterator[TagMessage]:
    from tagstr_runtime.frontend import class_variables  # the findings load with the first tag-string file

    assert ctx.tagfile is not None
    at = ctx.tagfile.position  # (line, byte column) of a source offset
    for finding in class_variables(ctx.analysis):
        yield ClassVariable.found(at(finding.span.start), finding.args)
