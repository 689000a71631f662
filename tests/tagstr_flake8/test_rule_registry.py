"""The rule registry (``tagstr_flake8.rules.RULES``) is the one table of the TAG codes: every other
list is derived from it, and each step of "Adding a rule" (docs/flake8.md) is checked here.

A rule's module, message class, check, example file and doc rows must all be there for its
one entry, and nothing may be there without an entry: leaving out any step fails one of these
tests.  The embedded languages' entries come from the language registry, whose own steps
``tests/tagstr_runtime/test_language_registry.py`` checks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tagstr_flake8
from tagstr_flake8.lint.messages import HOOK_CODES, LANGUAGE_MESSAGES
from tagstr_flake8.rules import DEFAULT_CODES, OFF_BY_DEFAULT, RULE_CODES, RULES, Rule, RuleMessage, message_classes

from flake8_harness import EXAMPLES, expectations

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "src" / "tagstr_flake8" / "rules"
DOCS = ROOT / "docs"
LANGUAGE_CODES = frozenset(message.code for message in LANGUAGE_MESSAGES)
#: the rules written in this package (the embedded languages' are made from their registry)
OWN = [rule for rule in RULES if rule.code not in LANGUAGE_CODES]
ENTRIES = pytest.mark.parametrize("rule", OWN, ids=[rule.code for rule in OWN])
ALL_ENTRIES = pytest.mark.parametrize("rule", RULES, ids=[rule.code for rule in RULES])


def _module_tree(name: str) -> ast.Module:
    return ast.parse((RULES_DIR / f"{name}.py").read_text(encoding="utf-8"))


def _rule_modules() -> dict[str, ast.Module]:
    """Every module of ``rules/`` but the package's own, read without importing it."""
    return {path.stem: _module_tree(path.stem) for path in sorted(RULES_DIR.glob("*.py")) if path.stem != "__init__"}


def _message_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    """The classes of a module that derive from ``RuleMessage`` (directly, as rules write them)."""
    return {
        node.name: node for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id == "RuleMessage" for base in node.bases)
    }


def _checks(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("check_tag")}


def test_codes_and_names_are_unique_and_in_code_order() -> None:
    assert list(RULE_CODES) == sorted(set(RULE_CODES))
    assert all(re.fullmatch(r"TAG\d{3}", code) for code in RULE_CODES)
    assert len({(rule.module, rule.message) for rule in RULES}) == len(RULES)
    assert not set(RULE_CODES) & set(HOOK_CODES), "a hook's code is not a rule's"


def test_the_derived_tables() -> None:
    assert OFF_BY_DEFAULT == tuple(rule.code for rule in RULES if not rule.on_by_default)
    assert DEFAULT_CODES == tuple(rule.code for rule in RULES if rule.on_by_default)
    assert set(OFF_BY_DEFAULT) | set(DEFAULT_CODES) == set(RULE_CODES)
    assert tagstr_flake8.OFF_BY_DEFAULT is OFF_BY_DEFAULT
    assert list(tagstr_flake8.CODES) == list(RULE_CODES) == list(message_classes())
    assert tagstr_flake8.MESSAGES["TAG006"] == f"TAG006 {tagstr_flake8.CODES['TAG006'].template}"


@ALL_ENTRIES
def test_its_message_class(rule: Rule) -> None:
    """The class the entry names, in the module it names, carries the entry's code."""
    cls = rule.message_class
    assert cls.code == rule.code and cls.__name__ == rule.message
    assert cls.__module__ in (f"tagstr_flake8.rules.{rule.module}", "tagstr_flake8.lint.messages")
    assert rule.check.__name__ == f"check_{rule.code.lower()}"


@ENTRIES
def test_its_module(rule: Rule) -> None:
    """``rules/tagnnn_topic.py``, named by its codes, with the message class and ``check_tagnnn``."""
    path = RULES_DIR / f"{rule.module}.py"
    assert path.exists(), f"the module of {rule.code}: {path}"
    assert rule.code.lower() in rule.module.split("_"), f"{rule.module} is not named by {rule.code}"
    tree = _module_tree(rule.module)
    classes = _message_classes(tree)
    assert rule.message in classes, f"{rule.module} defines no class {rule.message}(RuleMessage)"
    assigned = {target.id for node in classes[rule.message].body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    assert "template" in assigned and "code" not in assigned, "the code is the entry's, the template the class's"
    assert f"check_{rule.code.lower()}" in _checks(tree)


def test_every_rule_module_has_its_entries() -> None:
    """A module, message class or check in ``rules/`` that no entry names would never run."""
    named = {(rule.module, rule.message) for rule in RULES}
    codes_of = {module: {rule.code.lower() for rule in RULES if rule.module == module} for module, _ in named}
    for module, tree in _rule_modules().items():
        if not re.match(r"tag\d", module):  # a helper module (common.py): no rule of its own
            assert not _message_classes(tree) and not _checks(tree), f"{module}: rules live in tagNNN_*.py"
            continue
        assert module in codes_of, f"rules/{module}.py: no entry of RULES names it"
        for name in _message_classes(tree):
            assert (module, name) in named, f"{module}.{name}: no entry of RULES names it"
        for check in _checks(tree):
            assert check.removeprefix("check_") in codes_of[module], f"{module}.{check}: no entry of RULES names it"


def test_a_message_class_without_an_entry_fails_at_once() -> None:
    with pytest.raises(TypeError, match="no entry of tagstr_flake8.rules.RULES"):
        type("Unregistered", (RuleMessage,), {"template": "x {name!r}; fix it"})


@ENTRIES
def test_its_example_file(rule: Rule) -> None:
    """``tests/tagstr_flake8/examples/tagnnn*.py`` expects the code at least once (flake8 and in-process)."""
    files = sorted(EXAMPLES.glob(f"{rule.code.lower()}*.py"))
    assert files, f"no tests/tagstr_flake8/examples/{rule.code.lower()}.py"
    assert any(rule.code in {code for _, _, code in expectations(path)} for path in files), (
        f"no # {rule.code}:col expectation in {[path.name for path in files]}")
    if not rule.on_by_default:
        assert any(re.search(rf"^# OPTIONS: .*{rule.code}", path.read_text(encoding="utf-8"), re.M)
                   for path in files), f"an example file of {rule.code} turns it on (# OPTIONS: --extend-select)"


@ALL_ENTRIES
def test_its_error_codes_row(rule: Rule) -> None:
    table = (DOCS / "error-codes.md").read_text(encoding="utf-8")
    default = "on" if rule.on_by_default else "off"
    assert re.search(rf"^\| `{rule.code}` \| {default} \|", table, re.M), (
        f"docs/error-codes.md has no row for {rule.code} ({default})")


@ENTRIES
def test_its_flake8_docs(rule: Rule) -> None:
    """docs/flake8.md: its row in the table of codes (with its default) and its section."""
    guide = (DOCS / "flake8.md").read_text(encoding="utf-8")
    default = "on" if rule.on_by_default else r"\*\*off\*\*"
    assert re.search(rf"^\| {rule.code} \| .* \| {default} \|$", guide, re.M), (
        f"docs/flake8.md's table has no row for {rule.code} ({'on' if rule.on_by_default else 'off'})")
    heading = re.search(rf"^### {rule.code}\b(.*)$", guide, re.M)
    assert heading, f"docs/flake8.md has no section ### {rule.code}"
    assert ("(off by default)" in heading.group(1)) == (not rule.on_by_default)


def test_the_docs_name_no_code_without_an_entry() -> None:
    """A row or section left behind by a removed rule (or written before its entry) fails too."""
    known = set(RULE_CODES) | set(HOOK_CODES)
    guide = (DOCS / "flake8.md").read_text(encoding="utf-8")
    table = (DOCS / "error-codes.md").read_text(encoding="utf-8")
    documented = {*re.findall(r"^\| (TAG\d{3}) \|", guide, re.M), *re.findall(r"^### (TAG\d{3})\b", guide, re.M),
                  *re.findall(r"^\| `(TAG\d{3})` \|", table, re.M)}
    assert documented - known == set()


def test_adding_a_rule_lists_these_steps() -> None:
    guide = (DOCS / "flake8.md").read_text(encoding="utf-8")
    section = guide.partition("## Adding a rule")[2].partition("\n## ")[0]
    for step in ("src/tagstr_flake8/rules/", "RULES", "tests/tagstr_flake8/examples/", "docs/error-codes.md",
                 "test_rule_registry.py"):
        assert step in section, f"docs/flake8.md, Adding a rule: {step}"


def _code_collections(tree: ast.Module) -> list[int]:
    """Lines of tuple, list, set or dict displays holding two or more TAG codes."""
    found = []
    for node in ast.walk(tree):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if not isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)) or items is None:
            continue
        codes = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
        codes = [code for code in codes if re.fullmatch(r"TAG\d{3}", code)]
        if len(codes) >= 2:
            found.append(node.lineno)
    return found


def test_no_other_list_of_codes_in_src() -> None:
    """Only the registries spell lists of TAG codes: any other list of them must be derived."""
    registries = {ROOT / "src" / "tagstr_flake8" / "rules" / "__init__.py",
                  ROOT / "src" / "tagstr_runtime" / "analysis" / "embedded" / "registry.py"}
    spelt = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "src").rglob("*.py")) if path not in registries
        if (lines := _code_collections(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert spelt == {}
