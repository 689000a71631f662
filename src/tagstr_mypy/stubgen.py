"""``python -m tagstr_mypy.stubgen [--out DIR] [--check] PATH...``: stubs for pyright and Pylance.

Writes ``DIR/pkg/mod.pyi`` (``DIR``: ``typings``, pyright's default
``stubPath``) for each module under the paths that has tag strings (see
``stubgen_writer`` for why and how), deletes the stubs it generated for modules that
no longer have any, and leaves hand-written stubs alone.  ``--check`` changes
nothing and exits 1 if a stub is missing or stale (CI, pre-commit).  A module
whose tag strings are malformed gets no stub: its error is printed and the
exit status is 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tagstr_mypy.stubgen",
        description="Write .pyi stubs of the modules that have tag strings, for pyright, "
        "Pylance and other checkers that cannot read them.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("-o", "--out", default="typings", metavar="DIR",
                        help="the stub folder (pyright's stubPath; default: typings)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a stub is missing or out of date")
    args = parser.parse_args(argv)
    from pathlib import Path

    from tagstr_mypy.stubgen_writer import apply, plan

    outcomes, errors = plan(args.paths, Path(args.out))
    for error in errors:
        print(error, file=sys.stderr)
    stale = [o for o in outcomes if o.text != o.current]
    for outcome in stale:
        if outcome.text is None:
            verb = "would delete" if args.check else "deleted"
        elif outcome.current is None:
            verb = "would write" if args.check else "wrote"
        else:
            verb = "would update" if args.check else "updated"
        print(f"{verb} {outcome.stub}")
    if not args.check:
        apply(stale)
    return 1 if errors or (args.check and stale) else 0


if __name__ == "__main__":
    raise SystemExit(main())
