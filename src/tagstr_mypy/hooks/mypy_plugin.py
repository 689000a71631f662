"""``TagstrPlugin``: the hooks mypy calls, each only choosing what runs."""

from __future__ import annotations

import functools
from typing import Any, Callable

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import FunctionLike, Type

# _errorcodes registers the tagstr-* codes: mypy reads --disable-error-code and the
# like once the plugins are loaded, before any hook runs
from tagstr_mypy.reports import codes as _errorcodes  # noqa: F401
from tagstr_mypy.parse import follow as _follow
from tagstr_mypy.parse import hook as _parse_hook
from tagstr_mypy.parse import swap_point as _swap_point
from tagstr_mypy.parse.adopt import enter_module, module_options, swap
from tagstr_mypy.hooks.build_state import BuildState
from tagstr_mypy.hooks.names import CHECKER_MODULE, TAG_CALL, TEMPLATE_TAG_CALL

__all__ = ["TagstrPlugin", "sources_fingerprint"]

# mypy.build.PRI_HIGH: the priority of a top-level "from X import y"
_PRI_HIGH = 5
_SOURCES: str | None = None


def sources_fingerprint(folders: list[str] | None = None) -> str:
    """Eight hex digits of every ``.py`` file of this plugin and of ``tagstr_runtime``.

    The desugarer's own fingerprint covers what generated code is; what mypy
    makes of it also depends on this plugin (how it reports, which hooks) and
    on the typed stand-ins it checks against (``tagstr_runtime._checker``).  An
    upgrade of either must not leave a ``.mypy_cache`` answering for the old one.
    """
    global _SOURCES
    if folders is None and _SOURCES is not None:
        return _SOURCES
    import os
    import zlib

    import tagstr_runtime

    import tagstr_mypy

    crc = 0
    roots = folders or [os.path.dirname(tagstr_mypy.__file__), os.path.dirname(tagstr_runtime.__file__)]
    for root in roots:
        for folder, dirs, files in sorted(os.walk(root)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as file:
                        data = file.read()
                except OSError:
                    continue
                crc = zlib.crc32(os.path.relpath(path, root).encode() + b"\0" + data, crc)
    result = f"{crc:08x}"
    if folders is None:
        _SOURCES = result
    return result


# The hooks' modules import the desugarer and the checks: they are imported when
# mypy first calls a hook, which only a module with tag strings makes it do.


def _tag_string_hook(state: BuildState, ctx: FunctionContext) -> Type:
    from tagstr_mypy.hooks.tag_string import tag_string_hook

    return tag_string_hook(state, ctx)


def _tag_signature_hook(state: BuildState, ctx: FunctionSigContext) -> FunctionLike:
    from tagstr_mypy.hooks.signature import tag_signature_callback

    return tag_signature_callback(state, ctx)


def _template_call_hook(state: BuildState, ctx: MethodContext) -> Type:
    from tagstr_mypy.hooks.template_call import template_call_callback

    return template_call_callback(state, ctx)


class TagstrPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        #: this build's caches; the hooks handed to mypy are bound to them
        self.state = state = BuildState()
        # the command line ends in a fast exit; a daemon lives on (BuildState.retire)
        state.keep_until_exit = options.fast_exit and not options.fine_grained_incremental
        _parse_hook.use_stdlib_parser_in_worker(options)
        _parse_hook.install(self, options, state)
        _swap_point.install(enter_module)
        #: the checker's modules still need their options (an error code unknown at __init__)
        self._follow_pending = not _follow.add_options(options)
        # mypy asks every plugin for a hook at every call, method call and
        # operator it checks: a dictionary's ``get`` answers without running
        # Python code (these attributes shadow the methods below, which say the same)
        hooks: dict[str, dict[str, Callable[..., object]]] = {
            "get_function_hook": {TAG_CALL: functools.partial(_tag_string_hook, state)},
            "get_function_signature_hook": {TAG_CALL: functools.partial(_tag_signature_hook, state)},
            "get_method_hook": {TEMPLATE_TAG_CALL: functools.partial(_template_call_hook, state)},
        }
        for name, table in hooks.items():
            setattr(self, name, table.get)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return functools.partial(_tag_string_hook, self.state) if fullname == TAG_CALL else None

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        return functools.partial(_tag_signature_hook, self.state) if fullname == TAG_CALL else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return functools.partial(_template_call_hook, self.state) if fullname == TEMPLATE_TAG_CALL else None

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        if self._follow_pending:  # the codes are valid now (mypy stopped otherwise)
            self._follow_pending = False
            _follow.add_options(self.options)
        self.state.forget()
        pending = self.state.pending.get(file.path)
        if pending is None:
            return []
        if file.raw_data is not None:
            # A parallel build: the coordinator keeps only imports and ships the
            # native bytes to a worker, which would rebuild the placeholder tree.
            # Without bytes, the worker parses the file itself (see
            # _parse_hook.use_stdlib_parser_in_worker).
            file.raw_data = None
            del self.state.pending[file.path]
        else:
            # Swapped here when mypy computes the module's dependencies: while it
            # loads the graph, with the cyclic collector off (the converted tree is
            # then moved to the oldest generation with mypy's own).  A module that
            # mypy re-parses without computing them (stale due to deps) gets its
            # tree where the semantic analyzer enters it (_swap_point).
            swap(self.state, file, module_options(self.options, file.fullname, pending.text))
        # the module's tree imports the checker's stand-ins
        return [(_PRI_HIGH, CHECKER_MODULE, -1)]

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        # a new desugarer, plugin or checker stand-in must invalidate cached results:
        # mypy reuses a module's cached types while this value is unchanged
        from tagstr_runtime.frontend import fingerprint

        return {"tagstr": fingerprint(), "sources": sources_fingerprint()}
