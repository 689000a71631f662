"""dmypy re-checks a tag string when what its tag accepts changes, as it re-checks the call.

Fine-grained mode re-checks only what depends on a changed definition, and it
learns those dependencies from the checked tree: a tag string must depend on
its tag as the hand-desugared call ``tag(Decoded(...), Interpolation(...))``
does (a callable instance's ``__call__``, a function's signature, a class's
constructor, a protocol named in the signature).  After each edit of the tags'
module, the daemon must say what a fresh mypy run says.  ``dmypy inspect`` at
a tag string answers with the user's tag, as at the call.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import native_parser_by_default, run_mypy, write_config

pytestmark = pytest.mark.subprocess

TAGS = textwrap.dedent('''\
    from typing import Protocol

    from tagstr_runtime import Decoded, Interpolation


    class Renderer:
        def __call__(self, *args: Decoded | Interpolation[str]) -> str:
            return ""


    render = Renderer()


    def shout(*args: Decoded | Interpolation[str]) -> str:
        return ""


    class Page:
        def __init__(self, *args: Decoded | Interpolation[str]) -> None:
            pass


    class Part(Protocol):
        def __len__(self) -> int: ...


    def parts(*args: Part) -> str:
        return ""


    class Box:
        pass


    box = Box()
''')

# the same tags, each used as a tag string and as the call it stands for
USE = textwrap.dedent('''\
    from tagstr_runtime import Decoded, Interpolation

    from tags import Page, box, parts, render, shout

    n = 1
    a = render"x {n}"
    b = shout"x {n}"
    c = Page"x {n}"
    d = parts"x {n}"
    e = f"{box.size}"
    f = render"{box.size}"


    def calls() -> None:
        render(Decoded("x "), Interpolation((lambda: n, "n", None, "")))
        shout(Decoded("x "), Interpolation((lambda: n, "n", None, "")))
        Page(Decoded("x "), Interpolation((lambda: n, "n", None, "")))
        parts(Decoded("x "), Interpolation((lambda: n, "n", None, "")))
''')

INT_STR = "Decoded | Interpolation[int | str]"
EDITS = [
    # an interpolation's error goes away, as the f-string's
    ("class Box:\n    pass", "class Box:\n    size = 1"),
    # each tag starts accepting the int
    ("def __call__(self, *args: Decoded | Interpolation[str])", f"def __call__(self, *args: {INT_STR})"),
    ("def shout(*args: Decoded | Interpolation[str])", f"def shout(*args: {INT_STR})"),
    ("def __init__(self, *args: Decoded | Interpolation[str])", f"def __init__(self, *args: {INT_STR})"),
    # ... then stops being a tag
    (f"def __call__(self, *args: {INT_STR})", "def __call__(self, a: int)"),
    (f"def shout(*args: {INT_STR})", "def shout(a: int)"),
    (f"def __init__(self, *args: {INT_STR})", "def __init__(self, a: int)"),
    # the protocol no tag string's argument satisfies
    ("def __len__(self) -> int: ...", "def __len__(self) -> int: ...\n    def part(self) -> None: ..."),
]

ARGS = ("--show-column-numbers", "--show-error-codes", "--no-error-summary", "--hide-error-context")


def errors(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if line.startswith(("use.py:", "tags.py:")))


@pytest.mark.slow  # one daemon per parser, nine updates, a fresh mypy run after each, inspections
@pytest.mark.parametrize(
    "parser",
    ["native", "stdlib"] if native_parser_by_default() else ["stdlib"],
)
def test_daemon_follows_edits_of_the_tags(tmp_path: Path, parser: str) -> None:
    write_config(tmp_path)
    tags, use = tmp_path / "tags.py", tmp_path / "use.py"
    tags.write_text(TAGS, encoding="utf-8")
    use.write_text(USE, encoding="utf-8")
    options = [*ARGS, *(["--no-native-parser"] if parser == "stdlib" else [])]
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]

    def daemon() -> list[str]:
        proc = subprocess.run([*dmypy, "run", "--timeout", "120", "--export-types", "--", *options,
                               "use.py", "tags.py"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert "INTERNAL ERROR" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr, (
            proc.stdout + proc.stderr
        )
        return errors(proc.stdout)

    def inspect(show: str, at: str) -> list[str]:
        proc = subprocess.run([*dmypy, "inspect", "--show", show, at],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return proc.stdout.splitlines()

    def fresh() -> list[str]:
        return errors(run_mypy(*options, "--no-incremental", "use.py", "tags.py", cwd=tmp_path).stdout)

    seen = []
    try:
        text = TAGS
        for step, (old, new) in enumerate([("", ""), *EDITS]):
            assert old in text
            text = text.replace(old, new)
            tags.write_text(text, encoding="utf-8")
            expected = fresh()
            assert daemon() == expected, f"after edit {step}: {old!r} -> {new!r}"
            seen.append(expected)
        # at a tag string: the tag's definition, as at the call form, not the hook's
        for at in ("use.py:6:5", "use.py:15:5"):
            found = inspect("definition", at)
            if parser == "stdlib" and sys.version_info < (3, 12):
                # mypy's stdlib parser puts an f-string's fields at its start on 3.11, and the
                # plugin puts a tag string's there too (docs/decisions/0067-columns-follow-mypys-parser.md):
                # the interpolation's names are found there as well, before the tag
                assert found[-1:] == ["tags.py:11:1:render"] and all(":n" in f for f in found[:-1]), at
            else:
                assert found == ["tags.py:11:1:render"], at
        # at an interpolation: the user's expression first
        assert inspect("type", "use.py:6:15")[0] == '"int"'
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, timeout=60)
    # every edit changed what mypy says about the tag strings and their calls
    assert all(before != after for before, after in zip(seen, seen[1:])), seen


# mypy's fine-grained dependencies of each module (trigger -> targets), as dmypy computes them
DEPENDENCIES = textwrap.dedent('''\
    import json
    import sys

    from mypy import build
    from mypy.main import process_options
    from mypy.server.deps import get_dependencies

    sources, options = process_options(sys.argv[1:])
    options.preserve_asts = options.export_types = options.fine_grained_incremental = True
    result = build.build(sources, options)
    found = {}
    for source in sources:
        tree = result.graph[source.module].tree
        deps = get_dependencies(tree, result.types, options.python_version, options)
        found[source.module] = {trigger: sorted(targets) for trigger, targets in deps.items()}
    print(json.dumps({"errors": result.errors, "deps": found}))
''')

TAG_KINDS = textwrap.dedent('''\
    from typing import Any, Generic, TypeVar, Union

    from tagstr_runtime import Decoded, Interpolation

    T = TypeVar("T")


    class Renderer:
        def __call__(self, *args: Decoded | Interpolation[str]) -> str:
            return ""


    class Other:
        def __call__(self, *args: Decoded | Interpolation[object]) -> str:
            return ""


    class Holder(Generic[T]):
        def __call__(self, *args: Decoded | Interpolation[T]) -> T:
            raise NotImplementedError


    render = Renderer()
    either: Union[Renderer, Other] = render
    held: Holder[str] = Holder()
    anything: Any = render


    def shout(*args: Decoded | Interpolation[str]) -> str:
        return ""


    class Page:
        def __init__(self, *args: Decoded | Interpolation[str]) -> None:
            pass
''')
TAG_NAMES = ["render", "either", "held", "anything", "shout", "Page"]


def uses(tag_string: bool) -> str:
    lines = ["from tagstr_runtime import Decoded, Interpolation",
             "from tags import Page, anything, either, held, render, shout", "n = 'x'"]
    call = 'Decoded("x "), Interpolation((lambda: n, "n", None, ""))'
    for index, tag in enumerate(TAG_NAMES):
        lines.append(f'v{index} = {tag}"x {{n}}"' if tag_string else f"v{index} = {tag}({call})")
    body = "\n".join(lines[3:])
    function = "\n\ndef f() -> None:\n" + "\n".join("    " + line for line in body.splitlines())
    return "\n".join(lines) + "\n" + function + "\n"


@pytest.mark.parametrize(
    "parser",
    ["native", "stdlib"] if native_parser_by_default() else ["stdlib"],
)
def test_fine_grained_dependencies_are_the_call_forms(tmp_path: Path, parser: str) -> None:
    """Every trigger the hand-desugared call depends on, and no other but the
    checker's stand-ins, at module level and in a function."""
    write_config(tmp_path)
    (tmp_path / "tags.py").write_text(TAG_KINDS, encoding="utf-8")
    (tmp_path / "strings.py").write_text(uses(tag_string=True), encoding="utf-8")
    (tmp_path / "calls.py").write_text(uses(tag_string=False), encoding="utf-8")
    (tmp_path / "deps.py").write_text(DEPENDENCIES, encoding="utf-8")
    parser_option = ["--no-native-parser"] if parser == "stdlib" else []
    proc = subprocess.run(
        [sys.executable, "deps.py", "--config-file", "mypy.ini", "--no-incremental", *parser_option,
         "strings.py", "calls.py", "tags.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    assert result["errors"] == []

    def ours(module: str) -> dict[str, list[str]]:
        return {
            trigger.replace(f"<{module}", "<M"): [target.replace(module, "M") for target in targets]
            for trigger, targets in result["deps"][module].items()
            if "tagstr_runtime" not in trigger
        }

    assert ours("strings") == ours("calls")
