"""Tag strings (PEP 750 draft, as ruled by docs/spec.md) on stock CPython.

The public names are loaded lazily (PEP 562) so that the start-up hook
installed by ``tagstr_autoload.pth`` costs next to nothing: importing this
package runs no parser, no ``ast`` and no ``typing`` (``typing`` alone would
add ~20 ms to every interpreter start).

PYTEST_DONT_REWRITE: the ``.pth`` imports this package before pytest can
rewrite it, and it has no asserts worth rewriting.
"""

# No ``from __future__ import annotations`` either: ~0.3 ms at every start-up.
TYPE_CHECKING = False  # mypy treats this name as typing.TYPE_CHECKING

__version__ = "0.1.0"

__all__ = [
    "CacheWarning",
    "Decoded",
    "DecodedConcrete",
    "Interpolation",
    "InterpolationConcrete",
    "TagFunction",
    "TagSyntaxError",
    "TemplateLibraryTag",
    "TemplateTag",
    "accepts_template",
    "as_tag_args",
    "compile",
    "convert",
    "desugar",
    "desugar_ast",
    "format_value",
    "install",
    "is_interpolation",
    "template_tag",
    "to_template",
    "uninstall",
]

_LAZY = {
    "CacheWarning": "run.cache_record",
    "Decoded": "_types",
    "DecodedConcrete": "_types",
    "Interpolation": "_types",
    "InterpolationConcrete": "_types",
    "TagFunction": "_types",
    "is_interpolation": "_types",
    "TagSyntaxError": "syntax.errors",
    "TemplateLibraryTag": "bridge.template_tags",
    "TemplateTag": "bridge.template_tags",
    "accepts_template": "bridge.template_tags",
    "as_tag_args": "bridge.template_tags",
    "template_tag": "bridge.template_tags",
    "to_template": "bridge.template_tags",
    "compile": "run.compile",
    "convert": "run.formatting",
    "format_value": "run.formatting",
    "desugar": "desugarer.render",
    "desugar_ast": "run.compile",
    "install": "_importhook",
    "uninstall": "_importhook",
    # the IPython extension protocol: ``%load_ext tagstr_runtime`` looks them up here
    "load_ipython_extension": "integrations.ipython",
    "unload_ipython_extension": "integrations.ipython",
}

if TYPE_CHECKING:
    from tagstr_runtime.bridge.template_tags import (
        TemplateLibraryTag,
        TemplateTag,
        accepts_template,
        as_tag_args,
        template_tag,
        to_template,
    )
    from tagstr_runtime.run.compile import compile
    from tagstr_runtime.run.compile import desugar_ast
    from tagstr_runtime.desugarer.render import desugar
    from tagstr_runtime.syntax.errors import TagSyntaxError
    from tagstr_runtime.run.formatting import convert, format_value
    from tagstr_runtime._importhook import install, uninstall
    from tagstr_runtime.run.cache_record import CacheWarning
    from tagstr_runtime.integrations.ipython import (  # noqa: F401 - for IPython, not for "import *"
        load_ipython_extension,
        unload_ipython_extension,
    )
    from tagstr_runtime._types import (
        Decoded,
        DecodedConcrete,
        Interpolation,
        InterpolationConcrete,
        TagFunction,
        is_interpolation,
    )


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tagstr_runtime' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"tagstr_runtime.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
