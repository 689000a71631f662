"""Hover and completion inside a hole through pylsp with the plugin, against the f-string twin.

A 2,000-line module with 1,000 tag strings and its twin (each ``html"`` written
``   f"``: the same columns) are opened in one pylsp; the same requests at the same
positions alternate between them, so both see the same machine load.  Prints the
median time of each and the ratio (goal: <= 1.2).  The view is built once per text
(``tagstr_lsp.views``), so a request on an unchanged buffer costs what the twin's does.

    python benchmarks/bench_editors.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "editors"))

from lsp_client import LanguageServer  # noqa: E402
from twins import TAGS, twin_of  # noqa: E402


def module() -> str:
    head = "from tags import html\n\n\n"
    body = []
    for i in range(500):  # 4 lines each, 2 tag strings each: 2,000 lines, 1,000 tag strings
        body.append(f"def page_{i}(user_name: str, count: int) -> str:\n"
                    f"    title = html\"<h1>{{user_name.title()}} {i}</h1>\"\n"
                    f"    return title + html\"<p>{{count + {i}}} {{user_name.upper()}}</p>\"\n\n")
    return head + "".join(body)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    folder = Path(tempfile.mkdtemp())
    (folder / "tags.py").write_text(TAGS, encoding="utf-8")
    text = module()
    (folder / "page.py").write_text(text, encoding="utf-8")
    (folder / "twin.py").write_text(twin_of(text), encoding="utf-8")
    lsp = LanguageServer([sys.executable, "-m", "pylsp"], cwd=folder)
    lsp.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {},
                               "workspaceFolders": None})
    lsp.notify("initialized", {})
    lsp.notify("workspace/didChangeConfiguration", {"settings": {"pylsp": {"plugins": {
        name: {"enabled": False} for name in ("pyflakes", "pycodestyle", "mccabe", "flake8", "pylsp_mypy")}}}})
    for name in ("page.py", "twin.py"):
        lsp.notify("textDocument/didOpen", {"textDocument": {"uri": (folder / name).as_uri(), "languageId": "python",
                                                             "version": 1, "text": (folder / name).read_text()}})
    lines = text.splitlines()
    line = 1000  # a `title = html"..."` line in the middle
    assert "title = html" in lines[line], lines[line]
    hover_at = lines[line].index("user_name") + 3
    complete_at = lines[line].index(".title") + 3
    tag_strings = text.count('html"')
    print(f"{len(lines)} lines, {tag_strings} tag strings; {rounds} rounds")
    for method, column in (("textDocument/hover", hover_at), ("textDocument/completion", complete_at)):
        times: dict[str, list[float]] = {"page.py": [], "twin.py": []}
        for round_ in range(rounds + 2):
            for name in ("page.py", "twin.py") if round_ % 2 else ("twin.py", "page.py"):
                start = time.perf_counter()
                lsp.request(method, {"textDocument": {"uri": (folder / name).as_uri()},
                                     "position": {"line": line, "character": column}})
                if round_ >= 2:  # the first two rounds warm jedi's caches
                    times[name].append(time.perf_counter() - start)
        ours, twin = statistics.median(times["page.py"]), statistics.median(times["twin.py"])
        print(f"{method:26} tag strings {ours * 1000:7.1f} ms   f-string twin {twin * 1000:7.1f} ms   "
              f"ratio {ours / twin:.2f}")
    lsp.close()


if __name__ == "__main__":
    main()
