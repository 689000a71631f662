"""JSON: the standard library's decoder, with each object's keys placed as it reads them.

The pure-Python scanner calls back for every object, and for every value with
the offset where it starts; the key of each pair is the first string after
the previous value (or the ``{``), so duplicate keys are found at their exact
position.  A hole becomes a number (``10000000`` for the first...), which fits
any value position and any string.
"""

from __future__ import annotations

import json
from json import decoder as _decoder, scanner as _scanner
from json.decoder import JSONDecodeError
from typing import Any, Callable, Sequence

from tagstr_runtime.analysis.embedded import Finding, Options, Slot
from tagstr_runtime.analysis.embedded.joined import Joined
from tagstr_runtime.analysis.embedded.keys import numeric_placeholder

__all__ = ["check"]

# the pure-Python pieces the C accelerator replaces (typeshed does not list them)
JSONObject: Callable[..., Any] = _decoder.JSONObject  # type: ignore[attr-defined]
scanstring: Callable[..., Any] = _decoder.py_scanstring  # type: ignore[attr-defined]
py_make_scanner: Callable[..., Any] = _scanner.py_make_scanner  # type: ignore[attr-defined]

_SKIP = " \t\n\r,"


def check(strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]:
    joined = Joined(strings, numeric_placeholder)
    findings: list[Finding] = []
    keys: list[tuple[int, int, str, int]] = []  # (start, end, key, object) for each key read
    decoder = json.JSONDecoder()
    objects = 0

    def parse_object(s_and_end: tuple[str, int], strict: bool, scan_once: Callable[..., Any], object_hook: Any,
                     object_pairs_hook: Any, memo: Any = None) -> tuple[Any, int]:
        nonlocal objects
        objects += 1
        number = objects
        text, end = s_and_end
        boundaries = [end]

        def scan(string: str, index: int) -> tuple[Any, int]:
            value, after = scan_once(string, index)
            boundaries.append(after)
            return value, after

        pairs, after = JSONObject((text, end), strict, scan, None, list, memo)
        for (key, _), boundary in zip(pairs, boundaries):
            start = boundary
            while text[start] in _SKIP:
                start += 1
            keys.append((start, scanstring(text, start + 1, strict)[1], key, number))
        return {}, after

    # the C scanner does not call parse_object: the pure-Python one does
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(joined.text)
    except JSONDecodeError as exc:
        hole = joined.hole_at(exc.pos)
        if hole is not None and exc.msg.startswith("Expecting property name"):
            findings.append(joined.at_hole("data.hole-key", hole, language="JSON"))
        else:
            findings.append(joined.finding("data.syntax", exc.pos, language="JSON", detail=exc.msg))
    except RecursionError:
        findings.append(joined.finding("data.syntax", 0, language="JSON", detail="nested too deeply"))
    seen: dict[tuple[int, str], int] = {}
    for start, end, key, number in keys:
        holes = [h for h, (s, _) in enumerate(joined.holes) if start <= s < end]
        if holes:
            findings.extend(joined.at_hole("data.hole-key", h, language="JSON") for h in holes)
        elif (number, key) in seen:
            findings.append(joined.finding("data.duplicate-key", start, language="JSON", key=key))
        else:
            seen[(number, key)] = start
    return sorted(findings, key=lambda f: (joined.holes[f.hole][0] if f.hole is not None
                                           else joined.starts[f.part] + f.offset))
