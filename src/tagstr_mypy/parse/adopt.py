"""Swap the desugared tree into the ``MypyFile`` mypy built from the placeholder.

``swap`` runs where the semantic analyzer enters the module (``parse.swap_point``;
docs/decisions/0076-calls-are-put-in-where-semantic-analysis-enters.md).

mypy's native parser does reachability analysis (``if sys.version_info``,
``TYPE_CHECKING``) and its first-pass renaming while building the tree; a tree
from the stdlib-``ast`` converter needs both done here, as mypy does for its
own stdlib-``ast`` parser in ``State.semantic_analysis_pass1``.
"""

from __future__ import annotations

from typing import Any

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.renaming import LimitedVariableRenameVisitor, VariableRenameVisitor
from mypy.semanal_pass1 import SemanticAnalyzerPreAnalysis

from tagstr_mypy.parse import builds as _builds

from tagstr_mypy.parse import hook as _parse_hook

from tagstr_mypy.parse import swap_point as _swap_point
from tagstr_mypy.parse.builds import ParseState

__all__ = ["adopt", "enter_module", "module_options", "swap"]


def enter_module(args: tuple[Any, ...], kwds: dict[str, Any]) -> None:
    """Before ``SemanticAnalyzer.file_context(file_node, options)``: swap the
    module's tree in, if one waits for it."""
    options = args[2] if len(args) > 2 else kwds.get("options")
    file_node = args[1] if len(args) > 1 else kwds.get("file_node")
    # the module's options share the build's lists (_builds)
    if isinstance(options, Options) and isinstance(file_node, MypyFile):
        build = _builds.build_of(options.always_true, options.always_false)
        if build is not None and build.state.pending:
            swap(build.state, file_node, options)
    if not _builds.any_pending():
        _swap_point.disarm()  # until a parse leaves a tree waiting


def swap(state: ParseState, file: MypyFile, options: Options) -> bool:
    """Put the tree waiting for ``file`` in place (``options``: the module's);
    False when none waits."""
    pending = state.pending.get(file.path)
    if pending is None or "__name__" in file.names:
        # (a tree whose top level was analysed already is an older tree of the
        # file: dmypy keeps one while a blocking error stops an update)
        return False
    del state.pending[file.path]
    if pending.plan is not None and file.raw_data is None:
        from tagstr_mypy.parse.native_graft import graft

        if graft(file, pending.plan):  # the native parser's tree, each tag string's call in place
            moved = pending.plan.moved
            records = state.sites.get(file.path)
            if moved and records is not None:  # the calls' positions in the native parser's unit
                state.sites[file.path] = {moved.get(at, at): record for at, record in records.items()}
            state.retire(pending)
            return True
    state.retire(pending, file.defs)  # the placeholder's statements are replaced
    adopt(file, _parse_hook.convert(pending, file.path, options), options)
    return True


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
