"""``python -m tagstr_runtime``: run scripts and modules that use tag strings."""

from __future__ import annotations

if __name__ == "__main__":
    import sys

    from tagstr_runtime.run.runner import main

    status = main()
    if not sys.flags.inspect:  # python -i: the console follows, whatever the status
        raise SystemExit(status)
