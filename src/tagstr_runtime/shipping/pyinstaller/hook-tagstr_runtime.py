"""PyInstaller hook for ``tagstr_runtime`` (see ``tagstr_runtime.shipping.pyinstaller``)."""

from tagstr_runtime.shipping.pyinstaller import unreadable_modules

# tagstr_runtime's public names and what shipped code imports, loaded on first use
# (PEP 562): PyInstaller's analysis cannot see those imports. The parser, the
# desugarer and the import hook stay out: shipped code never desugars.
hiddenimports = [
    "tagstr_runtime._rt",
    "tagstr_runtime._types",
    "tagstr_runtime.run.formatting",
    "tagstr_runtime.syntax.errors",
    "tagstr_runtime.bridge.template_tags",
    "tagstr_runtime.templatelib",
]


def hook(hook_api):  # type: ignore[no-untyped-def]  # PyInstaller's hook protocol
    unreadable = unreadable_modules(hook_api.module_graph)
    if unreadable:
        raise SystemExit(
            "tagstr: PyInstaller cannot read these modules with tag strings (the binary would fail "
            "with ModuleNotFoundError):\n  " + "\n  ".join(unreadable) + "\nFreeze their shipped form: "
            "python -m tagstr_runtime --ship --out build/shipped <your sources>, then run PyInstaller "
            "on build/shipped (docs/shipping.md, \"Freezing\")."
        )
