"""``tagstr-lsp [--no-lint] -- COMMAND...``: run a stdio language server behind the proxy.

The editor starts ``tagstr-lsp`` in place of the server; the server is
started as ``COMMAND`` and reads every file with tag strings as its
placeholder view (``session``).  ``--no-lint``: leave out the proxy's own
diagnostics (the runtime's errors and the TAG lints).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Sequence

from tagstr_lsp.proxy.jsonrpc import Stream
from tagstr_lsp.proxy.session import Session

__all__ = ["main"]

USAGE = "usage: tagstr-lsp [--no-lint] -- SERVER COMMAND...  (e.g. tagstr-lsp -- pyright-langserver --stdio)"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    lint = True
    if "--no-lint" in args[: args.index("--") if "--" in args else len(args)]:
        args.remove("--no-lint")
        lint = False
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 2 if not args else 0
    try:
        server = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as exc:
        print(f"tagstr-lsp: cannot start {args[0]!r}: {exc}", file=sys.stderr)
        return 2
    assert server.stdin is not None and server.stdout is not None
    editor = Stream(sys.stdin.buffer, sys.stdout.buffer)
    wrapped = Stream(server.stdout, server.stdin)
    session = Session(editor, wrapped, lint=lint)
    threading.Thread(target=session.from_client, daemon=True).start()
    session.from_server()  # until the server exits
    return server.wait()
