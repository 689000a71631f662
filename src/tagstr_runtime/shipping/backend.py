"""A PEP 517 build backend that wraps another one and ships its wheels as plain Python.

For build backends without a plugin interface (flit), or to keep one's own::

    [build-system]
    requires = ["flit_core>=3.9", "tagstr-toolkit"]
    build-backend = "tagstr_runtime.shipping.backend"

    [tool.tagstr]
    build-backend = "flit_core.buildapi"

Every hook is the wrapped backend's, run while ``ast.parse`` also reads tag
strings (flit reads ``__version__`` and the docstring of a package's
``__init__.py`` with it; setuptools' ``attr:`` too), so metadata comes from a
tag-string module as from any other.  ``build_wheel`` then rewrites the
wheel: each module with tag strings shipped (``shipping.modules``), its
``RECORD`` line updated; every other file is kept byte for byte.  sdists and
editable wheels are the wrapped backend's, unchanged.
"""

from __future__ import annotations

import ast
import base64
import csv
import hashlib
import importlib
import io
import os
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "build_editable", "build_sdist", "build_wheel", "get_requires_for_build_editable", "get_requires_for_build_sdist",
    "get_requires_for_build_wheel", "prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel",
    "ship_wheel",
]


def _pyproject() -> dict[str, Any]:
    import tomllib

    with open("pyproject.toml", "rb") as file:  # PEP 517: hooks run in the project folder
        return tomllib.load(file)


def _wrapped() -> Any:
    from tagstr_runtime.shipping.modules import ShipError

    name = _pyproject().get("tool", {}).get("tagstr", {}).get("build-backend")
    if not isinstance(name, str) or not name:
        raise ShipError('tagstr: name the backend to wrap in pyproject.toml: [tool.tagstr] build-backend = '
                        '"flit_core.buildapi" (the one [build-system] named before)')
    module, _, attribute = name.partition(":")
    backend = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        backend = getattr(backend, part)
    return backend


@contextmanager
def _tag_strings_in_ast() -> Iterator[None]:
    """``ast.parse`` that falls back to the desugared tree where stock Python rejects the source."""
    original = ast.parse

    def parse(source: Any, filename: Any = "<unknown>", mode: str = "exec", **options: Any) -> Any:
        try:
            return original(source, filename, mode, **options)
        except SyntaxError as exc:
            error = exc
        if not isinstance(source, (str, bytes)) or mode != "exec":
            raise error
        from tagstr_runtime.run.compile import desugar_ast

        try:
            return desugar_ast(source, str(filename), mode, standard_error=error, emit_warnings=False)
        except SyntaxError:
            raise error from None

    ast.parse = parse
    try:
        yield
    finally:
        ast.parse = original


def _delegate(hook: str, *args: Any, default: Callable[..., Any] | None = None) -> Any:
    function = getattr(_wrapped(), hook, None)
    if function is None:
        if default is None:
            raise AttributeError(hook)
        return default(*args)
    with _tag_strings_in_ast():
        return function(*args)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(_delegate("get_requires_for_build_wheel", config_settings, default=lambda _: []))


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(_delegate("get_requires_for_build_sdist", config_settings, default=lambda _: []))


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(_delegate("get_requires_for_build_editable", config_settings, default=lambda _: []))


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    return str(_delegate("prepare_metadata_for_build_wheel", metadata_directory, config_settings,
                         default=lambda folder, settings: _metadata_of(build_wheel, folder, settings)))


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    return str(_delegate("prepare_metadata_for_build_editable", metadata_directory, config_settings,
                         default=lambda folder, settings: _metadata_of(build_editable, folder, settings)))


def _metadata_of(build: Callable[..., str], folder: str, settings: dict[str, Any] | None) -> str:
    """The ``.dist-info`` folder of the wheel ``build`` makes, for a backend without the metadata hook."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tagstr-metadata-") as work:
        with zipfile.ZipFile(os.path.join(work, build(work, settings))) as wheel:
            names = [name for name in wheel.namelist() if name.split("/")[0].endswith(".dist-info")]
            wheel.extractall(folder, names)
    return names[0].split("/")[0]


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    return str(_delegate("build_sdist", sdist_directory, config_settings))


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    return str(_delegate("build_editable", wheel_directory, config_settings, metadata_directory))


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    name = str(_delegate("build_wheel", wheel_directory, config_settings, metadata_directory))
    ship_wheel(os.path.join(wheel_directory, name))
    return name


def ship_wheel(path: str) -> int:
    """Rewrite the wheel at ``path`` with each module with tag strings shipped; how many were."""
    from tagstr_runtime.shipping.modules import ShipError, missing_runtime, shipped_module

    with zipfile.ZipFile(path) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    replaced: dict[str, bytes] = {}
    errors: list[str] = []
    for info, data in entries:
        if info.filename.endswith(".py") and ".dist-info/" not in info.filename:
            try:
                out = shipped_module(data, info.filename)
            except ShipError as exc:
                errors.append(str(exc))
                continue
            if out is not None:
                replaced[info.filename] = out
    if errors:
        raise ShipError("tagstr: cannot ship these modules:\n" + "\n".join(errors))
    if not replaced:
        return 0
    metadata = next(data for info, data in entries if info.filename.endswith(".dist-info/METADATA"))
    requires = [line.partition(":")[2].strip() for line in metadata.decode("utf-8").splitlines()
                if line.startswith("Requires-Dist:")]
    missing = missing_runtime(requires)
    if missing:
        raise ShipError(f"tagstr: {missing}")
    record_name = next(info.filename for info, _ in entries if info.filename.endswith(".dist-info/RECORD"))
    temporary = f"{path}.tagstr"
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as out_wheel:
        for info, data in entries:
            if info.filename == record_name:
                data = _record(data, replaced)
            out_wheel.writestr(info, replaced.get(info.filename, data))
    os.replace(temporary, path)
    return len(replaced)


def _record(data: bytes, replaced: dict[str, bytes]) -> bytes:
    """``RECORD`` with the hash and size of each replaced file (``sha256=<urlsafe b64>``, PEP 376/427)."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    for row in rows:
        if row and row[0] in replaced:
            content = replaced[row[0]]
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode("ascii")
            row[1:] = [f"sha256={digest}", str(len(content))]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue().encode("utf-8")
