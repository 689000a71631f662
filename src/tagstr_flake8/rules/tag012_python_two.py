"""TAG012: Python 2 code read as a tag string (``print"x"``, ``exec"code"``, ``ur"x"``).

In Python 2 these were the print and exec statements and the raw unicode
prefix; here each is a tag string calling ``print``/``exec`` with
``Decoded`` arguments, or a tag named ``ur`` (pyflakes' F821 "undefined name
'ur'" is true, and stays, but says nothing of why).  The report names the
Python 2 form and what to write today.  As for TAG004, a name bound in scope
is the user's own tag and is not reported.
"""

from __future__ import annotations

import ast
from typing import Final, Iterator, Mapping

from tagstr_flake8.lint.context import FileContext
from tagstr_flake8.lint.messages import TagMessage
from tagstr_flake8.rules import RuleMessage


#: The Python 2 forms TAG012 knows: tag name (lower case) -> what it was, what to write.
PYTHON_TWO: Final[Mapping[str, tuple[str, str]]] = {
    "print": ("is the print statement of Python 2, here a tag string calling print()",
              "write print(\"...\")"),
    "exec": ("is the exec statement of Python 2, here a tag string calling exec()",
             "write exec(\"...\")"),
    "ur": ("is the raw unicode prefix of Python 2, here a tag named 'ur' (a NameError)",
           "write r\"...\": every string is unicode"),
}


class PythonTwo(RuleMessage):
    template = "Python 2 syntax: {tag!r} before a string {what}; {fix}"


def python_two_key(tag: str) -> str | None:
    """The ``PYTHON_TWO`` entry of a tag name: ``print``/``exec`` as Python 2 spelled them,
    ``ur`` in any case."""
    key = tag.lower() if tag.lower() == "ur" else tag
    return key if key in PYTHON_TWO else None


def check_tag012(ctx: FileContext) -> Iterator[TagMessage]:
    tagfile = ctx.tagfile
    assert tagfile is not None
    suspects = [site for site in tagfile.sites() if python_two_key(site.tag.tag) is not None]
    if not suspects:
        return
    scopes = ctx.scopes
    assert scopes is not None
    for site in suspects:
        name = site.tag.tag
        if not isinstance(site.call.func, ast.Name) or not scopes.is_bound(site.call.func):
            what, fix = PYTHON_TWO[python_two_key(name) or name]
            line, col = tagfile.position(site.tag.span.start)
            yield PythonTwo(line, col, tag=name, what=what, fix=fix)
