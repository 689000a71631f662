"""Which off-by-default TAG codes a flake8 configuration turns on without naming them.

flake8 (``style_guide.DecisionEngine``) decides each code from four lists:
``select`` replaces the default selection and ``ignore`` the default ignore
list, which holds the codes a plugin declares off by default; ``extend-*``
add to them.  A code in both wins by the longer prefix when both are
explicit, or both implicit.  This mirrors that decision for the TAG codes
only: no other list entry can be a prefix of ``TAG...`` except the plugin's
own name, ``TAG``, in the default selection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["turned_on"]


def _longest(code: str, prefixes: Sequence[str]) -> str | None:
    matches = [p for p in prefixes if code.startswith(p)]
    return max(matches, key=len) if matches else None


def _selected(code: str, options: Mapping[str, list[str]], off_by_default: Sequence[str]) -> bool:
    select, ignore = options.get("select"), options.get("ignore")
    extend_select, extend_ignore = options.get("extend-select", []), options.get("extend-ignore", [])
    selected = [*(select if select is not None else ["TAG"]), *extend_select]
    ignored = [*(ignore if ignore is not None else off_by_default), *extend_ignore]
    explicit_select = _longest(code, [*(select or []), *extend_select])
    explicit_ignore = _longest(code, [*(ignore or []), *extend_ignore])
    chosen, dropped = _longest(code, selected), _longest(code, ignored)
    if bool(explicit_select) != bool(explicit_ignore):  # an explicit choice beats a default
        return bool(explicit_select)
    if chosen and dropped:  # both explicit, or both by default: the longer prefix wins
        return len(chosen) > len(dropped)
    return chosen is not None


def turned_on(off_by_default: Sequence[str], options: Mapping[str, list[str]]) -> list[str]:
    """The codes of ``off_by_default`` that flake8 reports under ``options`` although no
    ``select``/``extend-select`` entry names them in full, nor ``extend-select`` by a prefix
    (``extend-select = TAG`` is the documented way to turn them all on)."""
    deliberate = [*options.get("select", []), *options.get("extend-select", [])]
    return [
        code
        for code in off_by_default
        if _selected(code, options, off_by_default)
        and code not in deliberate
        and not any(code.startswith(p) for p in options.get("extend-select", []))
    ]
