"""The shape of the code base: what may import what, and how big a module may grow.

- The plugins reach the runtime only through its declared front-end API
  (``tagstr_runtime.frontend``) and its public package names: a private
  ``tagstr_runtime._*`` module, or one of the analysis layer
  (``tagstr_runtime.analysis``, exported through the front end), may change
  without notice.
- No import cycle anywhere in ``src/`` (imports inside functions count; imports
  under ``if TYPE_CHECKING:`` do not run and do not count).
- A module over 400 lines says at its top why it is not split.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGES = ("tagstr_runtime", "tagstr_mypy", "tagstr_flake8")
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((SRC / package).rglob("*.py")):
            parts = path.relative_to(SRC).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every import that runs, resolved to project modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in MODULES else base))
        todo.extend(ast.iter_child_nodes(node))
    return found


@pytest.mark.parametrize(
    "module", [m for m in MODULES if m.startswith(("tagstr_mypy", "tagstr_flake8"))]
)
def test_plugins_use_only_the_declared_runtime_api(module: str) -> None:
    private = [
        f"line {line}: {name}"
        for line, name in _imports(module, MODULES[module])
        if name.startswith(("tagstr_runtime._", "tagstr_runtime.analysis"))
    ]
    assert private == [], f"{module} imports private runtime modules (use tagstr_runtime.frontend)"


def test_no_import_cycle() -> None:
    graph = {
        module: sorted({name for _, name in _imports(module, path) if name in MODULES and name != module})
        for module, path in MODULES.items()
    }
    # A package's __init__ is imported by each of its submodules anyway: an edge
    # from a submodule to its own package is not a cycle that order can break.
    for module, targets in graph.items():
        graph[module] = [t for t in targets if not module.startswith(t + ".")]
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in graph[module]:
            if state.get(target) == 1:
                cycle = stack[stack.index(target) :] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module)


def test_the_check_sees_imports() -> None:
    """The cycle and privacy checks are only as good as the import reader."""
    tree = "tagstr_mypy.parse.checker_tree"
    imports = dict((name, line) for line, name in _imports(tree, MODULES[tree]))
    assert "tagstr_runtime.frontend" in imports
    runtime = {name for _, name in _imports("tagstr_runtime.run.compile", MODULES["tagstr_runtime.run.compile"])}
    assert "tagstr_runtime.desugarer.desugaring" in runtime  # imported inside a function: counted


@pytest.mark.parametrize("module", list(MODULES))
def test_long_modules_say_why(module: str) -> None:
    path = MODULES[module]
    lines = path.read_text(encoding="utf-8").count("\n")
    if lines <= MAX_LINES:
        return
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "not split" in doc, f"{module} has {lines} lines: split it, or say at its top why it is not split"


#: the generated names of the checker tree, written only by its emitter
_GENERATED_NAMES = ("__tagstr_d__", "DECODED_NAME", "__tagstr_call__", "CALL_NAME")


@pytest.mark.parametrize("module", [name for name in MODULES if name.startswith("tagstr_mypy.")])
def test_mypy_hooks_read_records_not_generated_names(module: str) -> None:
    """Only what writes the checker tree knows its generated names (the emitter, and the graft
    that writes its calls into the native parser's tree): the hooks read each call's record
    (``SiteRecord``) instead of telling arguments apart by them."""
    if module in ("tagstr_mypy.parse.checker_tree", "tagstr_mypy.parse.native_graft"):
        return
    text = MODULES[module].read_text(encoding="utf-8")
    assert not [name for name in _GENERATED_NAMES if name in text], module


def test_the_roots_hold_only_the_public_and_pinned_modules() -> None:
    """Each package root keeps what is named from outside our code (docs/architecture.md)."""
    roots = {package: sorted(path.stem for path in (SRC / package).glob("*.py")) for package in PACKAGES}
    assert roots == {
        "tagstr_runtime": ["__init__", "__main__", "_autohook", "_autostart", "_checker", "_importhook",
                           "_pytest_plugin", "_rt", "_types", "coverage_plugin", "frontend", "languages",
                           "templatelib"],
        "tagstr_mypy": ["__init__", "stubgen", "stubgen_writer"],
        "tagstr_flake8": ["__init__"],
    }


def test_no_two_modules_share_a_name() -> None:
    """A module's file name finds it (issue 25: each word one meaning); packages' ``__init__``/``__main__`` aside."""
    by_stem: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        if path.stem not in ("__init__", "__main__"):
            by_stem.setdefault(path.stem.lstrip("_"), []).append(name)
    assert {stem: names for stem, names in by_stem.items() if len(names) > 1} == {}
