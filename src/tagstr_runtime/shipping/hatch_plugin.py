"""The hatchling build hook ``tagstr``: wheels ship each module with tag strings as plain Python.

Enabled by the project (``tagstr-toolkit`` in ``[build-system] requires``)::

    [tool.hatch.build.hooks.tagstr]

Registered through hatchling's documented plugin interface (the ``hatch``
entry point, ``hatch_register_build_hook``).  For the ``wheel`` target only:
the sdist keeps the tag-string source, and an editable install serves it
through the import hook.  Each module is written shipped into a temporary
folder and forced into the wheel at its own path, which makes hatchling
leave the original out (``force_include`` of a file outside the project).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.plugin import hookimpl

__all__ = ["TagstrBuildHook", "hatch_register_build_hook"]


class TagstrBuildHook(BuildHookInterface):  # type: ignore[misc]  # hatchling is not type-checked here
    PLUGIN_NAME = "tagstr"

    _folder: str | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from tagstr_runtime.shipping.modules import ShipError, missing_runtime, shipped_module

        folder = self._folder = tempfile.mkdtemp(prefix="tagstr-ship-")
        shipped: list[str] = []
        errors: list[str] = []
        for included in self.build_config.builder.recurse_included_files():
            target_path = included.distribution_path
            if not target_path.endswith(".py"):
                continue
            with open(included.path, "rb") as file:
                data = file.read()
            try:
                out = shipped_module(data, included.path)
            except ShipError as exc:
                errors.append(str(exc))
                continue
            if out is None:
                continue
            target = os.path.join(folder, target_path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as file:
                file.write(out)
            build_data["force_include"][target] = target_path
            shipped.append(target_path)
        if errors:
            raise ShipError("tagstr: cannot ship these modules:\n" + "\n".join(errors))
        if not shipped:
            return
        missing = missing_runtime(self.metadata.core.dependencies)
        if missing:
            raise ShipError(f"tagstr: {missing}")
        self.app.display_info(f"tagstr: {len(shipped)} module(s) with tag strings shipped as plain Python")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


@hookimpl  # type: ignore[untyped-decorator,misc,unused-ignore]  # hatchling is not type-checked here
def hatch_register_build_hook() -> type[TagstrBuildHook]:
    return TagstrBuildHook
