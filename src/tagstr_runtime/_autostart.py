"""Start-up activation of the import hook, run once per interpreter start.

Two files reach ``activate`` and site processes exactly one of them:
``tagstr_autoload.start`` (PEP 829, read by Python 3.15+, whose ``site``
then skips the import line of the ``.pth`` of the same name) names it as
its entry point; ``tagstr_autoload.pth`` (read by 3.11–3.14, which ignore
``.start`` files) imports ``_autohook``, which calls it.  Importing this
module does nothing: the entry point is called, so nothing runs twice.

Runs in every interpreter start of the environment, so it must cost next to
nothing: ``_importhook`` imports only modules ``site`` has already loaded,
and the desugarer is imported only when some module fails to compile as
standard Python.  ``TAGSTR_AUTOLOAD=0`` (or ``false``/``no``/``off``) leaves
the interpreter untouched, e.g. to compare against stock behaviour.
``TAGSTR_COMPILE=1`` (set by ``python -m tagstr_runtime`` for its child
processes) also replaces ``builtins.compile`` (``_compile_hook``).
"""

import os


def activate() -> None:
    """The entry point of ``tagstr_autoload.start``; ``_autohook`` calls it for the ``.pth``."""
    if os.environ.get("TAGSTR_AUTOLOAD", "1").strip().lower() in {"0", "false", "no", "off"}:
        return
    from tagstr_runtime._importhook import install

    install()
    if os.environ.get("TAGSTR_COMPILE") == "1":  # set by the runner for its child processes
        from tagstr_runtime import _compile_hook

        _compile_hook.install()
