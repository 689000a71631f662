"""The emitter the analysis layer desugars with (``ModuleAnalysis.read``): what the code does.

``tag(lambda: name, (lambda: x, f'{w}'))`` for ``tag"Hi {name} {x:{w}}"``: each
interpolation the lambda that makes it lazy, nothing else generated.  The
literal runs are left out: they do nothing, no analysis reads them from the
tree (a site has them, ``Site.runs``), and on a large module they were a fifth
of the tree (docs/decisions/0230-the-analysis-tree-leaves-out-the-literal-runs.md).
So the call's arity is not the tag's: a site tells it (``len(site.args)``).
"""

from __future__ import annotations

import ast

from tagstr_runtime.desugarer.emit import Emitter, Position, TagCall, located
from tagstr_runtime.syntax.model import Field

__all__ = ["AnalysisEmitter"]

_LOAD = ast.Load()


class AnalysisEmitter(Emitter):
    """``tag(lambda: name, (lambda: x, f'{w}'))``: each interpolation the lambda that makes it
    lazy (with its format spec when that reads names); no literal run."""

    decoded_texts = False

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        func = self.thunk(value, at)
        if isinstance(spec, ast.Constant):
            return func
        return located(ast.Tuple([func, spec], _LOAD), at)

    def call(self, site: TagCall) -> ast.expr:
        return located(ast.Call(site.func, site.args, []), site.at)
