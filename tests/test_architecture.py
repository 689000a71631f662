"""The shape of the code base: what may import what, and how big a module may grow.

- The plugins reach the runtime only through its declared front-end API
  (``tagstr_runtime.frontend``) and its public package names: a private
  ``tagstr_runtime._*`` module, or one of the analysis layer
  (``tagstr_runtime.analysis``, exported through the front end), may change
  without notice.
- No import cycle anywhere in ``src/`` (imports inside functions count; imports
  under ``if TYPE_CHECKING:`` do not run and do not count).
- A module over 400 lines says at its top why it is not split.
- ``docs/architecture.md`` walks the tree as it is: every path and module it
  names exists, every emitter (a subclass of ``frontend.Emitter``) and every
  registry is a row of its tables, and every module that calls ``Desugaring``
  is a consumer there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGES = ("tagstr_runtime", "tagstr_mypy", "tagstr_flake8", "tagstr_lsp")
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
    "module", [m for m in MODULES if m.startswith(("tagstr_mypy", "tagstr_flake8", "tagstr_lsp"))]
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
        "tagstr_lsp": ["__init__", "pylsp_plugin", "views"],
    }


def test_no_two_modules_share_a_name() -> None:
    """A module's file name finds it (issue 25: each word one meaning); packages' ``__init__``/``__main__`` aside."""
    by_stem: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        if path.stem not in ("__init__", "__main__"):
            by_stem.setdefault(path.stem.lstrip("_"), []).append(name)
    assert {stem: names for stem, names in by_stem.items() if len(names) > 1} == {}


# -- docs/architecture.md against the tree ----------------------------------------------

ROOT = SRC.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
#: the files and folders of the tree the walk may name, relative to the repository
_TREE = {str(path.relative_to(ROOT)) for top in ("src", "tests", "docs", "benchmarks", "tools", "editors")
         for path in (ROOT / top).rglob("*") if "__pycache__" not in path.parts} | {
    path.name for path in ROOT.iterdir() if path.is_file()}  # the root's files (hatch_build.py, tox.ini...)


def _table(heading: str) -> list[list[str]]:
    """The rows of the first table under ``## heading``, each a list of cells (header left out)."""
    section = ARCHITECTURE.partition(f"\n## {heading}\n")[2].partition("\n## ")[0]
    rows = [line.strip().strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    assert len(rows) > 2, f"docs/architecture.md: no table under ## {heading}"
    return [[cell.strip() for cell in row] for row in rows[2:]]


def _quoted(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _path_module(path: str) -> str:
    """``tagstr_runtime/desugarer/emit.py`` -> its module name."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _class_bases() -> dict[str, list[tuple[str, list[str]]]]:
    """Class name -> (module, base names) of every class in src/, nested ones included."""
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, (ast.Name, ast.Attribute))]
                found.setdefault(node.name, []).append((module, bases))
    return found


_CLASSES = _class_bases()


def _emitters() -> dict[str, str]:
    """Every subclass of ``frontend.Emitter`` (``desugarer/emit.py``'s) in src/, directly or not: name -> module."""
    classes = _CLASSES
    emitters: dict[str, str] = {}
    names = {"Emitter"}
    grew = True
    while grew:
        grew = False
        for name, defined in classes.items():
            for module, bases in defined:
                if name not in emitters and names & set(bases):
                    emitters[name] = module
                    names.add(name)
                    grew = True
    return emitters


def _calls_desugaring(path: Path) -> bool:
    return any(isinstance(node, ast.Call) and (getattr(node.func, "id", None) == "Desugaring"
                                               or getattr(node.func, "attr", None) == "Desugaring")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def test_the_emitter_check_sees_emitters() -> None:
    """The walk finds the emitters the runtime itself imports, an indirect subclass included."""
    from tagstr_runtime.desugarer.emit import Emitter, RuntimeEmitter
    from tagstr_runtime.desugarer.shipped import ShippedEmitter

    found = _emitters()
    assert {"RuntimeEmitter", "ShippedEmitter", "LintEmitter", "CheckerEmitter"} <= set(found)
    assert issubclass(ShippedEmitter, Emitter) and issubclass(RuntimeEmitter, Emitter)
    assert "Emitter" not in found


def test_architecture_names_every_emitter_and_its_consumers() -> None:
    """The table of emitters is the tree's: each emitter with its module, each module that calls
    ``Desugaring`` a consumer of one, and each consumer named there calls it."""
    rows = _table("Emitters and their consumers")
    named = {_quoted(row[0])[0]: _quoted(row[1])[0] for row in rows}
    assert {name: _path_module(path) for name, path in named.items()} == _emitters()
    consumers = {path: _quoted(row[0])[0] for row in rows for path in _quoted(row[3]) if path.endswith(".py")}
    calling = {str(path.relative_to(SRC)) for path in MODULES.values() if _calls_desugaring(path)}
    calling.discard("tagstr_runtime/desugarer/desugaring.py")
    assert set(consumers) == calling
    for path, emitter in consumers.items():
        text = (SRC / path).read_text(encoding="utf-8")
        if emitter == "RuntimeEmitter":  # the default: Desugaring without an emitter
            calls = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Call)
                     and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Desugaring"]
            assert any(all(k.arg != "emitter" for k in call.keywords) for call in calls), path
        else:
            assert emitter in text, f"{path} desugars with {emitter}, says docs/architecture.md"


def _registries() -> dict[str, str]:
    """Every registry in src/: a module-level ``NAME: Final[tuple[Entry, ...]] = (...)`` whose
    ``Entry`` is a NamedTuple of the same module, written out -> {NAME in module: module path}."""
    found: dict[str, str] = {}
    for path in MODULES.values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        entries = {node.name for node in tree.body if isinstance(node, ast.ClassDef)
                   and any(getattr(base, "id", None) == "NamedTuple" for base in node.bases)}
        for node in tree.body:
            if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(node.value, ast.Tuple)):
                continue
            shape = re.fullmatch(r"Final\[tuple\[(\w+), \.\.\.\]\]", ast.unparse(node.annotation))
            if shape and shape.group(1) in entries:
                found[node.target.id] = str(path.relative_to(SRC))
    return found


def test_architecture_names_every_registry() -> None:
    rows = _table("Registries")
    named = {_quoted(row[0])[0]: _quoted(row[1])[0] for row in rows}
    assert named == _registries()
    assert {"REGISTRY", "RULES"} <= set(named)  # the shape is still found
    for row in rows:
        for test in _quoted(row[3]):
            assert (ROOT / test).is_file(), f"docs/architecture.md, Registries: {test}"


def _path_exists(token: str) -> bool:
    """A path the walk names (``run/``, ``desugarer/emit.py``, ``tests/test_architecture.py``):
    some file or folder of the tree ends with it (the module names are unique)."""
    token = token.rstrip("/")
    return any(item == token or item.endswith("/" + token) for item in _TREE)


def _dotted_exists(token: str) -> bool | None:
    """``desugarer.shipped``, ``definitions.TagResolver``, ``tagstr_flake8:TagstrChecker``: None if the
    first part is not one of our modules or packages, else whether the module and name exist."""
    parts = token.replace(":", ".").split(".")
    stems = {name.rpartition(".")[2] for name in MODULES} | set(PACKAGES)
    if parts[0] not in stems:
        return _attribute_exists(parts[0], parts[1]) if parts[0] in _CLASSES else None
    for cut in range(len(parts), 0, -1):
        suffix = ".".join(parts[:cut])
        matches = [name for name in MODULES if name == suffix or name.endswith("." + suffix)]
        if not matches:
            continue
        rest = parts[cut:]
        if not rest:
            return True
        tree = ast.parse(MODULES[matches[0]].read_text(encoding="utf-8"))
        defined = {getattr(node, "name", None) for node in ast.walk(tree)} | {
            target.id for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)} | {
            alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for alias in node.names}
        return rest[0] in defined
    return False


def _attribute_exists(cls: str, name: str) -> bool:
    """``Site.pos``: a class of src/ of that name (or a base of it) defines ``name``."""
    todo, seen = [cls], set()
    while todo:
        current = todo.pop()
        seen.add(current)
        for module, bases in _CLASSES.get(current, []):
            for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and node.name == current:
                    defined = {getattr(item, "name", None) for item in node.body} | {
                        target.id for item in node.body if isinstance(item, (ast.Assign, ast.AnnAssign))
                        for target in (item.targets if isinstance(item, ast.Assign) else [item.target])
                        if isinstance(target, ast.Name)}
                    if name in defined:
                        return True
            todo.extend(base for base in bases if base not in seen)
    return False


def test_architecture_names_only_what_exists() -> None:
    """Every path and module the walk names (in its prose, tables and diagram) is in the tree."""
    tokens = set(re.findall(r"`([^`\s]+)`", ARCHITECTURE))
    diagram = ARCHITECTURE.partition("```text")[2].partition("```")[0]
    tokens |= set(re.findall(r"[\w/]+\.py\b|\b\w+/(?=[\s,)])", diagram))
    missing = []
    emitters = _emitters()
    for token in sorted(tokens):
        token = token.split("(")[0]
        if re.fullmatch(r"[\w/]+\.py|[\w/]+/", token) and token not in ("src/",):
            if not _path_exists(token):
                missing.append(token)
        elif re.fullmatch(r"\w+(?:[.:]\w+)+", token) and _dotted_exists(token) is False:
            missing.append(token)
        elif re.fullmatch(r"\w*Emitter", token) and token not in emitters and token != "Emitter":
            missing.append(token)
    assert missing == []
