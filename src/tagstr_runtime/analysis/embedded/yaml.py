"""YAML: PyYAML's composer (its C parser when built), duplicate keys and holes found on the node tree.

Every node carries its start and end marks (character offsets), so a
duplicate key is reported at the second key, and a hole whose placeholder (a
number) lies inside a key at that key.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import yaml

from tagstr_runtime.analysis.embedded import Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined
from tagstr_runtime.analysis.embedded.keys import numeric_placeholder

__all__ = ["check"]

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    joined = Joined(strings, numeric_placeholder)
    findings: list[Finding] = []
    loader = _Loader(joined.text)
    try:
        while loader.check_node():
            findings.extend(_mapping_faults(joined, loader.get_node()))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = mark.index if mark is not None else len(joined.text)
        detail = " ".join(str(x) for x in (exc.problem, exc.context) if x) or "invalid YAML"
        findings.append(joined.finding("data.syntax", at, language="YAML", detail=detail))
    except yaml.YAMLError as exc:
        findings.append(joined.finding("data.syntax", len(joined.text), language="YAML", detail=str(exc)))
    finally:
        loader.dispose()
    return sorted(findings, key=lambda f: (joined.holes[f.hole][0] if f.hole is not None
                                           else joined.starts[f.part] + f.offset))


def _mapping_faults(joined: Joined, root: Any) -> Iterator[Finding]:
    todo = [root]
    done: set[int] = set()
    while todo:
        node = todo.pop()
        if node is None or id(node) in done:  # anchors and aliases share nodes
            continue
        done.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: set[tuple[str, str]] = set()
            for key, value in node.value:
                start, end = key.start_mark.index, key.end_mark.index
                holes = [h for h, (s, _) in enumerate(joined.holes) if start <= s < end]
                if holes:
                    yield from (joined.at_hole("data.hole-key", h, language="YAML") for h in holes)
                elif isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if (key.tag, key.value) in seen:
                        yield joined.finding("data.duplicate-key", start, language="YAML", key=key.value)
                    seen.add((key.tag, key.value))
                todo.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
