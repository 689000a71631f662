"""Code with tag strings leaving its author's machine: wheels, frozen apps, bundles.

A wheel, a PyInstaller binary, a ``pip install --target`` bundle or a zipapp
must not need the import hook: consumers' ``mypy``, ``compileall``,
PyInstaller, typeguard and beartype read its modules as stock Python does.
So each module with tag strings is shipped in its plain-Python form
(``desugarer.shipped``: same lines, the runtime's objects, typed), and the
consumer needs only ``tagstr_runtime._rt`` at run time:

- ``hatch_plugin``: the hatchling build hook ``tagstr``;
- ``setuptools_command``: a ``build_py`` for ``[tool.setuptools.cmdclass]``;
- ``backend``: a PEP 517 backend wrapping any other (flit...), its wheel rewritten;
- ``tree``: ``python -m tagstr_runtime --ship``, a tree written out shipped;
- ``pyinstaller``: PyInstaller's hook directory (``pyinstaller40`` entry point).

``modules`` decides, for one file, what is shipped; docs/shipping.md says how to use each.
"""
