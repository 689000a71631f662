"""A setuptools ``build_py`` that ships each module with tag strings as plain Python.

Named by the project (``tagstr-toolkit`` in ``[build-system] requires``)::

    [tool.setuptools.cmdclass]
    build_py = "tagstr_runtime.shipping.setuptools_command.build_py"

setuptools' documented way to replace a command.  Each module is rewritten
in the build folder right after setuptools copies it there, so the wheel
holds the shipped form and the project folder is never touched; the sdist
(which does not build) keeps the tag-string source, and an editable install
(``editable_mode``) serves it through the import hook.
"""

from __future__ import annotations

from setuptools.command.build_py import build_py as _build_py

__all__ = ["build_py"]


class build_py(_build_py):  # type: ignore[misc]  # noqa: N801 - setuptools' name for the command
    """``build_py``, then each copied module shipped (``shipping.modules``)."""

    def run(self) -> None:
        self._tagstr_shipped: list[str] = []
        self._tagstr_errors: list[str] = []
        super().run()
        from setuptools.errors import SetupError

        from tagstr_runtime.shipping.modules import missing_runtime

        if self._tagstr_errors:
            raise SetupError("tagstr: cannot ship these modules:\n" + "\n".join(self._tagstr_errors))
        if self._tagstr_shipped:
            missing = missing_runtime(self.distribution.install_requires or [])
            if missing:
                raise SetupError(f"tagstr: {missing}")
            self.announce(f"tagstr: {len(self._tagstr_shipped)} module(s) with tag strings shipped as plain Python", 2)

    def build_module(self, module: str, module_file: str, package: str) -> tuple[str, bool]:
        outfile, copied = super().build_module(module, module_file, package)
        if not getattr(self, "editable_mode", False) and str(outfile).endswith(".py"):
            self._ship(str(outfile), module_file)
        return outfile, copied

    def _ship(self, outfile: str, module_file: str) -> None:
        from tagstr_runtime.shipping.modules import ShipError, shipped_module

        with open(outfile, "rb") as file:
            data = file.read()
        try:
            out = shipped_module(data, module_file)
        except ShipError as exc:
            self._tagstr_errors.append(str(exc))
            return
        if out is not None:
            with open(outfile, "wb") as file:
                file.write(out)
            self._tagstr_shipped.append(outfile)
