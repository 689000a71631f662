"""``python -m tagstr_runtime``: run scripts and modules that use tag strings."""

from __future__ import annotations

if __name__ == "__main__":
    from tagstr_runtime._runner import main

    raise SystemExit(main())
