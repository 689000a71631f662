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

__all__ = ["adopt", "module_options"]


def module_options(options: Options, module: str, text: str) -> Options:
    """The options mypy gives ``module``: its ``[mypy-...]`` sections, then its ``# mypy:`` lines
    (as ``State.parse_inline_configuration`` applies them; their errors mypy reports itself)."""
    from mypy.config_parser import parse_mypy_comments
    from mypy.util import get_mypy_comments

    options = options.clone_for_module(module)
    comments = get_mypy_comments(text)
    if comments:
        changes, _ = parse_mypy_comments(comments, options)
        options = options.apply_changes(changes)
    return options


def adopt(file: MypyFile, tree: MypyFile, options: Options) -> None:
    """``options``: the module's (``module_options``)."""
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
