"""TAG011: ``super()`` without arguments in an interpolation.

Zero-argument ``super()`` finds its arguments in the frame of the function
that calls it: the method's ``__class__`` cell and its first argument.  An
interpolation runs in a lambda of its own, which has no argument, so
reading its value always raises ``RuntimeError: super(): no arguments``
(checked on 3.11 to 3.13).  Format specs are evaluated eagerly, in the
method itself, and are not concerned; neither is ``super(Cls, self)``.
The analysis layer's finding (``argumentless_super``, shared with the
migration's MIG006).
"""

from __future__ import annotations

from typing import Iterator

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


class ArgumentlessSuper(RuleMessage):
    template = (
        "interpolation {expr!r} calls super() without arguments: the lazy closure has no "
        "arguments, so reading it raises RuntimeError; write super({owner}, self) or bind it "
        "before the tag string"
    )


def check_tag011(ctx: FileContext) -> Iterator[TagMessage]:
    from tagstr_runtime.frontend import argumentless_super  # the findings load with the first tag-string file

    assert ctx.tagfile is not None
    at = ctx.tagfile.position  # (line, byte column) of a source offset
    for finding in argumentless_super(ctx.analysis):
        yield ArgumentlessSuper.found(at(finding.span.start), finding.args)
