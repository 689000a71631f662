"""Start-up activation of the import hook, imported by ``tagstr_autoload.pth``.

Runs in every interpreter start of the environment, so it must cost next to
nothing: ``_importhook`` imports only modules ``site`` has already loaded,
and the desugarer is imported only when some module fails to compile as
standard Python.  ``TAGSTR_AUTOLOAD=0`` (or ``false``/``no``/``off``) leaves
the interpreter untouched, e.g. to compare against stock behaviour.
``TAGSTR_COMPILE=1`` (set by ``python -m tagstr_runtime`` for its child
processes) also replaces ``builtins.compile`` (``_compile_hook``).
"""

import os

if os.environ.get("TAGSTR_AUTOLOAD", "1").strip().lower() not in {"0", "false", "no", "off"}:
    from tagstr_runtime._importhook import install

    install()
    if os.environ.get("TAGSTR_COMPILE") == "1":  # set by the runner for its child processes
        from tagstr_runtime import _compile_hook

        _compile_hook.install()
