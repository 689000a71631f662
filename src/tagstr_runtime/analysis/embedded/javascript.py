"""JavaScript: tree-sitter's JavaScript grammar, every error and missing token of the tree.

tree-sitter recovers from errors, so each ``ERROR`` region and each token it
had to assume (``MISSING``) is reported, not only the first.  A hole becomes
an identifier: valid wherever a value goes; one inside a string or template
literal is reported (the value would be pasted into the literal unescaped).
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Sequence

import tree_sitter
import tree_sitter_javascript

from tagstr_runtime.analysis.embedded import Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined

__all__ = ["check"]

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))
_STRINGS = frozenset(["string", "template_string", "regex"])


def _placeholder(index: int) -> str:
    return f"__tagstr{index}"


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    joined = Joined(strings, _placeholder)
    data = joined.text.encode("utf-8")
    to_char = _char_offsets(joined.text) if len(data) != len(joined.text) else None

    def char(byte: int) -> int:
        return byte if to_char is None else to_char[byte]

    tree = _PARSER.parse(data)
    findings = list(_errors(joined, tree.root_node, char))
    findings.extend(_string_holes(joined, tree.root_node, char))
    return sorted(findings, key=lambda f: (joined.holes[f.hole][0] if f.hole is not None
                                           else joined.starts[f.part] + f.offset, f.kind))


def _char_offsets(text: str) -> list[int]:
    table: list[int] = []
    for index, character in enumerate(text):
        table.extend([index] * len(character.encode("utf-8")))
    table.append(len(text))
    return table


def _errors(joined: Joined, root: Any, char: Any) -> Iterator[Finding]:
    if not root.has_error:
        return
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_missing:
            yield joined.finding("js.syntax", char(node.start_byte), detail=f"missing {node.type!r}", fix="add it")
        elif node.is_error:
            yield _error(joined, node, char)
        elif node.has_error:
            todo.extend(reversed(node.children))


def _error(joined: Joined, node: Any, char: Any) -> Finding:
    text = node.text.decode("utf-8", "replace")
    opened = sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
    if node.end_byte >= len(joined.text.encode("utf-8")) and opened > 0:
        return joined.finding("js.syntax", len(joined.text), detail="unexpected end of input",
                              fix="close the bracket left open")
    word = re.match(r"\s*([\w$]+|\S)", text)
    detail = f"unexpected {word.group(1)!r}" if word else "unexpected end of input"
    return joined.finding("js.syntax", char(node.start_byte), detail=detail)


def _string_holes(joined: Joined, root: Any, char: Any) -> Iterator[Finding]:
    if not joined.holes:
        return
    for hole, (start, _) in enumerate(joined.holes):
        byte = len(joined.text[:start].encode("utf-8"))
        node = root.descendant_for_byte_range(byte, byte + 1)
        while node is not None:
            if node.type in _STRINGS:
                kind = {"string": "a string literal", "template_string": "a template literal",
                        "regex": "a regular expression"}[node.type]
                yield joined.at_hole("js.hole-string", hole, what=kind)
                break
            if node.type == "template_substitution":
                break
            node = node.parent
