"""The shape of the code base: what may import what, and how big a module may grow.

- The plugins reach the runtime only through its declared front-end API
  (``tagstr_runtime.frontend``) and its public package names: a private
  ``tagstr_runtime._*`` module, or one of the analysis layer
  (``tagstr_runtime.analysis``, exported through the front end), may change
  without notice.
- No import cycle anywhere in ``src/``: imports inside functions count, and so do
  imports under ``if TYPE_CHECKING:`` (a type-only circle is still two modules
  that cannot be read, or moved, one without the other).
- Layers that only point down: support, syntax, desugarer, analysis, then the
  consumers (``LAYERS``); an import that runs up is one of at most two, each named
  with its reason (``UPWARD``).
- One module writes the generated ``Interpolation`` call and reads it back
  (``desugarer/interpolation_call.py``): no other module of ``src/`` or ``tests/``
  builds or unpacks its four fields.
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


def _modules(suffix: str = ".py") -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((SRC / package).rglob("*" + suffix)):
            parts = path.relative_to(SRC).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()
#: compiled modules (``_speedups``): known by their stubs; they import nothing of ours
COMPILED = {name: path for name, path in _modules(".pyi").items() if name not in MODULES}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path, type_only: bool = True) -> list[tuple[int, str]]:
    """(line, imported module) for every import, resolved to project modules: those inside
    functions, and with ``type_only`` those under ``if TYPE_CHECKING:`` too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if not type_only and isinstance(node, ast.If) and _is_type_checking(node.test):
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
                found.append((node.lineno, sub if sub in MODULES or sub in COMPILED else base))
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


def _graph() -> dict[str, list[str]]:
    """Module -> the modules of ours it imports (type-only imports included)."""
    return {
        module: sorted({name for _, name in _imports(module, path) if name in MODULES and name != module})
        for module, path in MODULES.items()
    }


def test_no_import_cycle() -> None:
    graph = _graph()
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
    """The cycle, layer and privacy checks are only as good as the import reader."""
    tree = "tagstr_mypy.parse.checker_tree"
    imports = dict((name, line) for line, name in _imports(tree, MODULES[tree]))
    assert "tagstr_runtime.frontend" in imports
    runtime = {name for _, name in _imports("tagstr_runtime.run.compile", MODULES["tagstr_runtime.run.compile"])}
    assert "tagstr_runtime.desugarer.desugaring" in runtime  # imported inside a function: counted
    state = "tagstr_mypy.hooks.build_state"
    typed = {name for _, name in _imports(state, MODULES[state])}
    assert "tagstr_mypy.parse.builds" in typed  # under ``if TYPE_CHECKING:``: counted
    assert "tagstr_mypy.parse.builds" not in {name for _, name in _imports(state, MODULES[state], type_only=False)}
    fingerprint = "tagstr_runtime.desugarer.fingerprint"
    assert "tagstr_runtime._speedups" in {name for _, name in _imports(fingerprint, MODULES[fingerprint])}


# -- layers --------------------------------------------------------------------------------

#: The layers of ``src/``, bottom first (docs/architecture.md, "Layers"): each module imports
#: from its own layer or a lower one.  Whatever several consumers share belongs in the layer
#: below them.  Each entry names a package (with everything in it) or a root module.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the standard library's helpers of every layer (patches, TAGSTR_STRICT); the compiled
    # constructor, which imports nothing
    ("support", ("tagstr_runtime.support", "tagstr_runtime._speedups")),
    ("syntax", ("tagstr_runtime.syntax",)),
    # model to trees, with what every emitter and consumer shares of them: sites, scopes
    ("desugarer", ("tagstr_runtime.desugarer",)),
    ("analysis", ("tagstr_runtime.analysis",)),
    ("consumers", (
        "tagstr_runtime.run", "tagstr_runtime.tools", "tagstr_runtime.editing", "tagstr_runtime.shipping",
        "tagstr_runtime.bridge", "tagstr_runtime.migrate", "tagstr_runtime.doctor", "tagstr_runtime.integrations",
        # the root modules: the API plugins use, what generated code and start-up files import
        "tagstr_runtime", "tagstr_runtime.__main__", "tagstr_runtime._autohook", "tagstr_runtime._autostart",
        "tagstr_runtime._checker", "tagstr_runtime._importhook", "tagstr_runtime._pytest_plugin",
        "tagstr_runtime._rt", "tagstr_runtime._types", "tagstr_runtime.coverage_plugin", "tagstr_runtime.frontend",
        "tagstr_runtime.languages", "tagstr_runtime.templatelib",
        "tagstr_mypy", "tagstr_flake8", "tagstr_lsp",
    )),
)
#: The imports that run up the layers, at most two, each with its reason:
#: ``"<package> -> <package>"`` (``_package``'s names).
UPWARD: dict[str, str] = {}


def _layer(module: str) -> int:
    """The index in ``LAYERS`` of the entry naming ``module`` or its closest package."""
    best, found = -1, -1
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            exact_root = name == "tagstr_runtime"  # the root package: its own module only
            if module == name or (not exact_root and module.startswith(name + ".")):
                if len(name) > best:
                    best, found = len(name), index
    return found


def _package(module: str) -> str:
    """The node of the package-level graph ``module`` belongs to: its first-level package
    (``tagstr_runtime.desugarer``, ``tagstr_mypy.parse``), or itself for a root module
    (``tagstr_runtime._rt``; a plugin's root modules are its package)."""
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (SRC / parts[0] / parts[1]).is_dir()):
        return ".".join(parts[:2])
    return module if parts[0] == "tagstr_runtime" else parts[0]


def _package_graph(graph: dict[str, list[str]]) -> dict[tuple[str, str], list[str]]:
    """(package, package) -> the module imports behind that edge."""
    edges: dict[tuple[str, str], list[str]] = {}
    for module, targets in graph.items():
        for target in targets:
            if _package(module) != _package(target):
                edges.setdefault((_package(module), _package(target)), []).append(f"{module} -> {target}")
    return edges


def _upward(graph: dict[str, list[str]]) -> dict[str, list[str]]:
    """``"<package> -> <package>"`` -> the module imports behind it, for each edge that runs up."""
    return {f"{a} -> {b}": imports for (a, b), imports in _package_graph(graph).items()
            if _layer(imports[0].split(" -> ")[0]) < _layer(imports[0].split(" -> ")[1])}


def _graph_with_compiled() -> dict[str, list[str]]:
    return {module: sorted({name for _, name in _imports(module, path)
                            if (name in MODULES or name in COMPILED) and name != module})
            for module, path in MODULES.items()}


def test_every_module_has_a_layer() -> None:
    """A new package (or root module) says which layer it is in."""
    assert [module for module in [*MODULES, *COMPILED] if _layer(module) < 0] == []
    named = [name for _, names in LAYERS for name in names]
    assert len(named) == len(set(named))
    assert [name for name in named if name not in MODULES and name not in COMPILED] == []


def test_imports_point_down_the_layers() -> None:
    """The package-level import graph of src/ (type-only imports included): at most two
    imports run up the layers, and they are the ones named, each with its reason."""
    assert len(UPWARD) <= 2
    upward = _upward(_graph_with_compiled())
    assert {edge: upward[edge] for edge in upward.keys() - UPWARD.keys()} == {}, "imports that run up the layers"
    assert sorted(UPWARD.keys() - upward.keys()) == [], "UPWARD names an import that is gone: remove it"


def test_the_layer_check_sees_an_import_up() -> None:
    """The check flags the imports issue 41 found (the desugarer reading the analysis layer's
    sites; a consumer's helper in the analysis layer), and none that runs down."""
    graph = {
        "tagstr_runtime.desugarer.generator": ["tagstr_runtime.analysis.findings"],
        "tagstr_runtime.analysis.embedded.sql": ["tagstr_runtime.integrations.coverage_report"],
        "tagstr_runtime.analysis.module": ["tagstr_runtime.desugarer.desugaring"],
        "tagstr_flake8.lint.context": ["tagstr_runtime.frontend"],
    }
    assert set(_upward(graph)) == {
        "tagstr_runtime.desugarer -> tagstr_runtime.analysis",
        "tagstr_runtime.analysis -> tagstr_runtime.integrations",
    }
    assert _layer("tagstr_runtime._rt") == _layer("tagstr_flake8.rules") == len(LAYERS) - 1
    assert _layer("tagstr_runtime.desugarer.sites") == 2 and _layer("tagstr_runtime") == len(LAYERS) - 1


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
        # views, actions: what the pylsp plugin and the proxy share
        "tagstr_lsp": ["__init__", "actions", "pylsp_plugin", "views"],
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


# -- the generated Interpolation call: one writer, one reader --------------------------------

#: the one module that writes the generated ``Interpolation`` call and reads it back
SHAPE_MODULE = SRC / "tagstr_runtime" / "desugarer" / "interpolation_call.py"
#: where code that could take generated code apart lives
_READERS = [path for top in ("src", "tests", "benchmarks", "tools") for path in sorted((ROOT / top).rglob("*.py"))
            if "node_modules" not in path.parts]


def _name(node: ast.AST) -> str | None:
    return getattr(node, "id", getattr(node, "attr", None))


def _uncast(node: ast.AST) -> ast.AST:
    """``cast(T, x)`` -> ``x``."""
    while isinstance(node, ast.Call) and _name(node.func) == "cast" and len(node.args) == 2:
        node = node.args[1]
    return node


def _scopes(tree: ast.AST) -> list[list[ast.AST]]:
    """The nodes of the module and of each function, a nested function's apart (one walk)."""
    top: list[ast.AST] = [tree]
    scopes = [top]
    todo: list[tuple[ast.AST, list[ast.AST]]] = [(tree, top)]
    while todo:
        node, nodes = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scopes.append([child])
                todo.append((child, scopes[-1]))
            else:
                nodes.append(child)
                todo.append((child, nodes))
    return scopes


def _bindings(scope: list[ast.AST]) -> list[tuple[ast.expr, ast.expr]]:
    """(target, value) of each assignment and loop of a scope."""
    found: list[tuple[ast.expr, ast.expr]] = []
    for node in scope:
        if isinstance(node, ast.Assign):
            found.extend((target, node.value) for target in node.targets)
        elif isinstance(node, (ast.For, ast.comprehension)):
            found.append((node.target, node.iter))
    return found


def _makes_lambda(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in ("Lambda", "thunk")


def writes_the_call(tree: ast.AST) -> list[int]:
    """The lines that build the four fields: a display of four items led by a lambda made
    there (``[thunk(value, at), ...]``, ``ast.Tuple([lam, text, conv, spec])``), or the text
    form ``F((lambda: ...``."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    lines = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant) and id(node) not in docstrings
             and isinstance(node.value, str) and "((lambda: " in node.value]
    for scope in _scopes(tree):
        lambdas = {target.id for target, value in _bindings(scope)
                   if isinstance(target, ast.Name) and _makes_lambda(value)}
        for node in scope:
            if isinstance(node, (ast.List, ast.Tuple)) and isinstance(node.ctx, ast.Load) and len(node.elts) == 4:
                first = node.elts[0]
                if _makes_lambda(first) or (isinstance(first, ast.Name) and first.id in lambdas):
                    lines.append(node.lineno)
    return sorted(set(lines))


def _is_items(node: ast.AST, items: set[str]) -> bool:
    """``node`` is a call's arguments or a tuple's items (``x.args``, ``x.elts``, a name bound to them)."""
    node = _uncast(node)
    return (isinstance(node, ast.Attribute) and node.attr in ("args", "elts")) or _name(node) in items


def _is_first(node: ast.AST, items: set[str], firsts: set[str]) -> bool:
    """``node`` is the first of them (``x.args[0]``, a name bound to it)."""
    node = _uncast(node)
    if isinstance(node, ast.Subscript):
        return getattr(node.slice, "value", None) == 0 and _is_items(node.value, items)
    return isinstance(node, ast.Name) and node.id in firsts


def reads_the_call(tree: ast.AST) -> list[int]:
    """The lines that take the call apart: a lambda looked for as the first of a call's
    arguments or of a tuple's items (``isinstance(call.args[0], ast.Lambda)``, or through
    names: ``first = call.args[0]``, ``lam, text, conv, spec = tup.elts``), or the items of
    a tuple that is a first argument (``call.args[0].elts``)."""
    lines: list[int] = []
    for scope in _scopes(tree):
        items: set[str] = set()  # names bound to a call's arguments or a tuple's items
        firsts: set[str] = set()  # names bound to the first of them
        for _ in range(3):  # the names feed one another: a few passes reach a fixed point
            for target, value in _bindings(scope):
                if isinstance(target, ast.Name) and _is_items(value, items):
                    items.add(target.id)
                elif isinstance(target, ast.Name) and _is_first(value, items, firsts):
                    firsts.add(target.id)
                elif isinstance(target, (ast.Tuple, ast.List)) and _is_items(value, items) and target.elts:
                    if len(target.elts) == 1 and isinstance(target.elts[0], ast.Name):  # (only,) = call.args
                        items.add(target.elts[0].id)
                    elif len(target.elts) == 4 and isinstance(target.elts[0], ast.Name):
                        firsts.add(target.elts[0].id)
        for node in scope:
            if isinstance(node, ast.Call) and _name(node.func) in ("isinstance", "cast") and len(node.args) == 2:
                kind, value = (node.args[1], node.args[0]) if _name(node.func) == "isinstance" else node.args
                kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
                if any(_name(k) in ("Lambda", "Tuple") for k in kinds) and _is_first(value, items, firsts):
                    lines.append(node.lineno)
            elif isinstance(node, ast.Attribute) and node.attr == "elts" and _is_first(node.value, items, firsts):
                lines.append(node.lineno)
    return sorted(set(lines))


def _parsed(path: Path) -> ast.AST | None:
    text = path.read_text(encoding="utf-8", errors="replace")
    if not any(word in text for word in ("Lambda", ".elts", "lambda: ")):
        return None
    try:
        return ast.parse(text)
    except SyntaxError:  # a file with tag strings (an example, a corpus): user code
        return None


def test_one_module_writes_the_generated_call() -> None:
    """``Interpolation(...)``'s four fields are built in ``desugarer/interpolation_call.py`` alone."""
    found = {}
    for module, path in MODULES.items():
        tree = _parsed(path)
        if path != SHAPE_MODULE and tree is not None and writes_the_call(tree):
            found[module] = writes_the_call(tree)
    assert found == {}, "build the call through desugarer.interpolation_call"


def test_one_module_reads_the_generated_call() -> None:
    """Generated code is taken apart only through ``desugarer.interpolation_call`` (the
    runtime's hoisting, the property tests, any tool or test)."""
    found = {}
    for path in _READERS:
        tree = _parsed(path)
        if path != SHAPE_MODULE and tree is not None and reads_the_call(tree):
            found[str(path.relative_to(ROOT))] = reads_the_call(tree)
    assert found == {}, "read the call through desugarer.interpolation_call (read_interpolation, GeneratedModule)"


#: the four places that wrote or read the call before issue 41 (as they were written)
_SECOND_PLACES = {
    "emit's hoisting": (reads_the_call, '''
def _thunk_of(call):
    first = call.args[0]
    return cast(ast.Lambda, first if isinstance(first, ast.Lambda) else cast(ast.Tuple, first).elts[0])
'''),
    "emit's prologue": (reads_the_call, '''
def hoisted_build(self):
    for call in self.hoisted:
        fields = call.args if self.fields_form else [call.args[0], *cast(ast.Tuple, call.args[0]).elts]
'''),
    "the property tests": (reads_the_call, '''
def call_parts(self, call):
    for arg in call.args:
        if len(arg.args) == 1:
            (tup,) = arg.args
            fields = tup.elts
        else:
            fields = arg.args
        lam, _expr_text, conv, spec = fields
        assert isinstance(lam, ast.Lambda)
'''),
    "emit's fields": (writes_the_call, '''
def interpolation(self, field, value, spec, at):
    arguments = [self.thunk(value, at), located(ast.Constant(field.expr), at), conv, spec]
'''),
    "a tuple of them": (writes_the_call, '''
def fields_tuple(field, value, spec, at):
    lam = ast.Lambda(_NO_ARGUMENTS, value)
    return ast.Tuple([lam, text, conv, spec], _LOAD)
'''),
    "render's text": (writes_the_call, '''
def interpolation(self, field, value, spec, at):
    layout.put(f"{self.interpolation_class}((lambda: ")
'''),
}


@pytest.mark.parametrize("place", list(_SECOND_PLACES))
def test_the_shape_checks_see_a_second_place(place: str) -> None:
    check, code = _SECOND_PLACES[place]
    assert check(ast.parse(code)) != []


def test_the_shape_checks_see_the_shape_module() -> None:
    tree = ast.parse(SHAPE_MODULE.read_text(encoding="utf-8"))
    assert writes_the_call(tree) and reads_the_call(tree)


def test_architecture_lists_the_layers() -> None:
    """The walk's "Layers" list names the packages of each layer, in ``LAYERS``' order."""
    section = ARCHITECTURE.partition("\n## Layers\n")[2].partition("\n## ")[0]
    items = re.split(r"\n\d+\. ", "\n" + section.partition("\n\n")[2].partition("\n\n")[0])[1:]
    assert len(items) == len(LAYERS)
    for item, (layer, names) in zip(items, LAYERS):
        packages = {name for name in names if (SRC / name.replace(".", "/")).is_dir() and name != "tagstr_runtime"}
        named = {token.rstrip("/") for token in _quoted(item)
                 if token.endswith("/") or token in PACKAGES}
        assert {f"tagstr_runtime.{token}" if token not in PACKAGES else token for token in named} == packages, layer
