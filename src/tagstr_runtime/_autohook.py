"""Imported by the import line of ``tagstr_autoload.pth`` (Python 3.11–3.14).

Activates on import because that line is all a ``.pth`` can do, and because
``.pth`` files installed by earlier versions of the package name this module
too.  Python 3.15+ skips the line and calls ``_autostart.activate`` from
``tagstr_autoload.start`` instead (PEP 829).
"""

from tagstr_runtime._autostart import activate

activate()
