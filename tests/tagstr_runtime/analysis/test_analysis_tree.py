"""The tree ``ModuleAnalysis.read`` gives the analysis layer: the holes' lambdas, no literal run.

The literal runs do nothing and no analysis reads them from the tree (a site
has them); a generated lambda is told from the user's by ``is_thunk``, not by
a table of the module's holes.
"""

from __future__ import annotations

import ast

from tagstr_runtime.frontend import Hole, ModuleAnalysis, Run, is_thunk

SOURCE = 'x = tag"<p>{a}</p>{(lambda: b)()}{c!r:>{w}}"\n'


def test_the_call_holds_the_holes_and_no_literal_run() -> None:
    module = ModuleAnalysis.read(SOURCE, "<test>")
    (site,) = module.sites
    call = site.call
    assert isinstance(call, ast.Call)
    assert not any(isinstance(arg, ast.Constant) for arg in call.args)
    first, second, third = call.args
    # the third hole's spec reads a name: formatted in place, beside its lambda
    assert isinstance(third, ast.Tuple) and isinstance(third.elts[1], ast.JoinedStr)
    assert [module.generated(node) for node in (first, second, third.elts[0])] == [True, True, True]
    # what the tag receives is the site's: the runs are there
    assert [type(arg) for arg in site.args] == [Run, Hole, Run, Hole, Hole]
    assert [arg.cooked for arg in site.args if isinstance(arg, Run)] == ["<p>", "</p>"]


def test_a_lambda_of_the_source_is_no_thunk() -> None:
    module = ModuleAnalysis.read(SOURCE, "<test>")
    lambdas = [node for node in ast.walk(module.tree) if isinstance(node, ast.Lambda)]
    assert len(lambdas) == 4  # three holes, and the lambda written in the second
    user = [node for node in lambdas if not is_thunk(node)]
    assert len(user) == 1 and isinstance(user[0].body, ast.Name) and user[0].body.id == "b"
    assert not module.generated(user[0])
    # b is read in the user's lambda (a scope of its own); a in place, at the module
    b = user[0].body
    assert module.scopes.enclosing(b.lineno, b.col_offset) == ("<lambda>",)
    assert module.scopes.enclosing(1, SOURCE.index("{a}") + 1) == ()
