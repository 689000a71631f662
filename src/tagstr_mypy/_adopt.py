"""Swap the desugared tree into the ``MypyFile`` mypy built from the placeholder.

mypy's native parser does reachability analysis (``if sys.version_info``,
``TYPE_CHECKING``) and its first-pass renaming while building the tree; a tree
from the stdlib-``ast`` converter needs both done here, as mypy does for its
own stdlib-``ast`` parser in ``State.semantic_analysis_pass1``.
"""

from __future__ import annotations

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.renaming import LimitedVariableRenameVisitor, VariableRenameVisitor
from mypy.semanal_pass1 import SemanticAnalyzerPreAnalysis

__all__ = ["adopt"]


def adopt(file: MypyFile, tree: MypyFile, options: Options) -> None:
    options = options.clone_for_module(file.fullname)
    SemanticAnalyzerPreAnalysis().visit_file(tree, file.path, file.fullname, options)
    if not options.allow_redefinition:
        tree.accept(LimitedVariableRenameVisitor())
    if getattr(options, "allow_redefinition_old", False):
        tree.accept(VariableRenameVisitor())
    file.defs = tree.defs
    file.imports = tree.imports
    if file.raw_data is not None:
        # A parallel build: the coordinator keeps only imports and ships the
        # native bytes to a worker, which would rebuild the placeholder tree.
        # Without bytes, the worker parses the file itself (see
        # _parse_hook.use_stdlib_parser_in_worker).
        file.raw_data = None
