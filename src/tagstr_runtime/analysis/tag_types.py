"""What a tag function's code says: which names stand for what a tag receives, whether a
function is written as a tag function, whether it may read its values late (``definitions``).

``Decoded``, ``Interpolation`` and ``TagFunction`` count by name, wherever
they come from: ours, ``typing``'s in the PEP draft, or a Protocol the module
copied from the draft.  So do the module's own classes shaped like them under
other names (``getvalue`` and ``expr``; ``raw`` on a ``str``-like class), and
its aliases of any of these (``Part = Decoded | Interpolation``, string
annotations included).  Code typed for the PEP draft is recognised without
importing anything of ours.
"""

from __future__ import annotations

import ast
import sys

__all__ = ["OURS", "called_name", "is_widened", "names_in", "reads_as_tag_function", "tag_types"]

OURS = frozenset(["Decoded", "Interpolation", "TagFunction"])
# the draft's widened form, ``*args: str | tuple``: every tag fits it, and so does
# much else, so it says nothing either way
_WIDENED = frozenset(["str", "tuple", "Tuple"])
_WIDENED_EXTRA = frozenset(["Any", "object", "Union", "typing"])
_ALIAS_VALUES = (ast.BinOp, ast.Subscript, ast.Name, ast.Attribute, ast.Constant)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def names_in(annotation: ast.AST) -> set[str]:
    """The names an annotation mentions (``x.Name`` counts as ``Name``), the
    text of string annotations read as expressions."""
    found: set[str] = set()
    for sub in ast.walk(annotation):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                parsed = ast.parse(sub.value.strip(), mode="eval")
            except (SyntaxError, ValueError, RecursionError):  # not an annotation: it names nothing
                continue
            found |= names_in(parsed)
    return found


def is_widened(names: set[str]) -> bool:
    return "str" in names and bool(names & {"tuple", "Tuple"}) and names <= _WIDENED | _WIDENED_EXTRA


def tag_types(statements: list[ast.stmt]) -> frozenset[str]:
    """``OURS``, the classes of ``statements`` shaped like them, and aliases of either."""
    words = set(OURS)
    aliases: list[tuple[str, set[str]]] = []
    for node in statements:
        if isinstance(node, ast.ClassDef) and _shaped_like_ours(node):
            words.add(node.name)
        elif alias := _alias(node):
            aliases.append((alias[0], names_in(alias[1])))
    grown = True
    while grown:  # an alias of an alias
        grown = False
        for name, named in aliases:
            if name not in words and named & words:
                words.add(name)
                grown = True
    return frozenset(words)


def _shaped_like_ours(node: ast.ClassDef) -> bool:
    members = _members(node)
    if {"getvalue", "expr"} <= members:  # an Interpolation
        return True
    str_like = "__str__" in members or any(isinstance(b, ast.Name) and b.id == "str" for b in node.bases)
    return "raw" in members and str_like  # a Decoded


def _members(node: ast.ClassDef) -> set[str]:
    members = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            members.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            members.add(item.target.id)
        elif isinstance(item, ast.Assign):
            members.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return members


def _alias(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """``Name = <type>``, ``Name: TypeAlias = <type>``, ``type Name = <type>``."""
    if sys.version_info >= (3, 12) and isinstance(node, ast.TypeAlias):  # pragma: >=3.12 cover
        return (node.name.id, node.value)
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target, value = node.target, node.value
    else:
        return None
    if isinstance(target, ast.Name) and isinstance(value, _ALIAS_VALUES):
        return (target.id, value)
    return None


# -- what a function's code says --------------------------------------------------------


def called_name(node: ast.expr) -> str | None:
    """The last name of a decorator or a called expression (``@x.accepts_template``: ``accepts_template``)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def reads_as_tag_function(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, words: frozenset[str]
) -> bool:
    """``node`` is written as a tag function: its ``*args`` annotation mentions a tag's
    argument types (``words``: ``tag_types`` of its module), or (unannotated, or the PEP
    draft's widened ``str | tuple``) its body does or calls ``getvalue``."""
    vararg = node.args.vararg
    if vararg is None:
        return False
    if vararg.annotation is not None:  # the annotation says what *args holds
        said = names_in(vararg.annotation)
        if said & words:
            return True
        if not is_widened(said):
            return False
    return _mentions(node, words | {"getvalue"})


def _mentions(node: ast.AST, names: frozenset[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in names:
            return True
    return False
