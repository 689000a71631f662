"""``TagstrPlugin``: the hooks mypy calls, each only choosing what runs."""

from __future__ import annotations

from typing import Any, Callable

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.plugin import FunctionContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import Type

from tagstr_mypy import _parse_hook
from tagstr_mypy._adopt import adopt, module_options
from tagstr_mypy._tag_call import TAG_CALL, tag_call_callback
from tagstr_mypy._template_call import TEMPLATE_TAG_CALL, template_call_callback
from tagstr_mypy._tree import CHECKER_MODULE

__all__ = ["TagstrPlugin"]

# mypy.build.PRI_HIGH: the priority of a top-level "from X import y"
_PRI_HIGH = 5


class TagstrPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        _parse_hook.use_stdlib_parser_in_worker(options)
        _parse_hook.install(options)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return tag_call_callback if fullname == TAG_CALL else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return template_call_callback if fullname == TEMPLATE_TAG_CALL else None

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        pending = _parse_hook.PENDING.pop(file.path, None)
        if pending is None:
            return []
        options = module_options(self.options, file.fullname, pending.text)
        adopt(file, _parse_hook.convert(pending, file.path, options), options)
        return [(_PRI_HIGH, CHECKER_MODULE, -1)]

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        # a new desugarer (or plugin) must invalidate cached results
        from tagstr_runtime.frontend import fingerprint

        return {"tagstr": fingerprint()}
