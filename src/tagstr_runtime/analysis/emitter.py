"""The emitter the analysis layer desugars with (``ModuleAnalysis.read``): what the code does.

``tag('Hi ', lambda: name, (lambda: x, f'{w}'))``: each literal run a constant,
each interpolation the lambda that makes it lazy, nothing else generated.
"""

from __future__ import annotations

import ast

from tagstr_runtime.desugarer.emit import Emitter, Position, TagCall, located
from tagstr_runtime.syntax.model import Field

__all__ = ["AnalysisEmitter"]

_LOAD = ast.Load()


class AnalysisEmitter(Emitter):
    """``tag('Hi ', lambda: name, (lambda: x, f'{w}'))``: each literal run a constant, each
    interpolation the lambda that makes it lazy (with its format spec when that reads names)."""

    def decoded(self, cooked: str, raw: str, at: Position) -> ast.expr:
        return located(ast.Constant(cooked), at)

    def interpolation(self, field: Field, value: ast.expr, spec: ast.expr, at: Position) -> ast.expr:
        func = self.thunk(value, at)
        if isinstance(spec, ast.Constant):
            return func
        return located(ast.Tuple([func, spec], _LOAD), at)

    def call(self, site: TagCall) -> ast.expr:
        return located(ast.Call(site.func, site.args, []), site.at)
