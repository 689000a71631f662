"""What the embedded-language checks cost in flake8, each figure side by side with its baseline in one run.

    python benchmarks/bench_languages.py [--lines N] [--repeat N]

(d) the typical module of bench_flake8 (c) (``typical_module.py``: realistic
    html and sql tag strings), its tags declared HTML and SQL through
    ``--tag-languages`` vs the same run without: the extra CPU seconds per
    1,000 language-declared tag strings.  Target: at most 0.3 s.  Measured at
    two sizes of the module (``--lines`` and twice as many), which also gives
    the cost of one more tag string (the slope) apart from the one-time cost
    of importing the parsers (html5lib, sqlglot), paid once per process.
(e) the same module, no language declared: the plugin as shipped vs the
    plugin with the language codes deselected (``--extend-ignore``: their
    rules do not run).  Target: at most 1.03x (files that declare no language
    cost nothing).  The module imports its tags from ``tags.py`` beside it,
    which the tag resolver reads (once) to learn they declare nothing.
(f) the module of (d) with its tags declared where they are defined
    (``Annotated[..., "html"]`` in ``tags.py``, found through the import by
    the tag resolver) vs declared by ``--tag-languages``: what resolving the
    declarations across modules adds (a ratio; expected about 1).

CPU seconds of the flake8 process (user + system), runs interleaved repeat by
repeat (``bench_flake8.compare``), serial (``--jobs 1``); the ratio is the
median over the repeats of each repeat's ratio.  Prints the figures, then one
line ``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from bench_flake8 import compare
from typical_module import TAGS_MODULE, write_module_pair

TARGETS = {"d_seconds_per_1000": 0.3, "e_ratio": 1.03, "f_seconds_per_1000": 0.3}
DECLARED = ["--tag-languages=tags.html=html,tags.sql=sql"]
#: ``tags.py`` declaring the languages itself (f)
ANNOTATED_TAGS = TAGS_MODULE.replace(
    "from tagstr_runtime import", "from typing import Annotated\n\nfrom tagstr_runtime import").replace(
    "def html(*args: Decoded | Interpolation[object] | str)",
    'def html(*args: Annotated[Decoded | Interpolation[object] | str, "html"])').replace(
    "def sql(*args: Decoded | Interpolation[int | str | float | None] | str)",
    'def sql(*args: Annotated[Decoded | Interpolation[int | str | float | None] | str, "sql"])')
LANGUAGE_CODES = ["--extend-ignore=TAG1,TAG2,TAG3,TAG4,TAG5,TAG901"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=9000, help="lines of the typical module (default 9000)")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    result: dict[str, object] = {}
    extras: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (1, 2):
            folder = Path(tmp) / str(size)
            folder.mkdir()
            tagged, twin = write_module_pair(folder, args.lines * size)
            annotated_folder = folder / "annotated"  # the same module, its tags.py declaring the languages
            annotated_folder.mkdir()
            annotated, _ = write_module_pair(annotated_folder, args.lines * size)
            (annotated_folder / "tags.py").write_text(ANNOTATED_TAGS, encoding="utf-8")
            text = twin.read_text(encoding="utf-8")
            count = text.count('(f"') + text.count("(f'")
            lines = tagged.read_text(encoding="utf-8").count("\n")
            print(f"one module of {lines} lines, {count} html/sql tag strings, {args.repeat} interleaved repeats")
            runs = {
                "declared": ("with", tagged, DECLARED),
                "annotated": ("with", annotated, []),
                "undeclared": ("with", tagged, []),
                "no_language_rules": ("with", tagged, LANGUAGE_CODES),
            }
            name = f"x{size}"
            result.update(compare(name, runs, args.repeat))
            if result[f"{name}_annotated_output_lines"] != result[f"{name}_declared_output_lines"]:
                raise SystemExit("(f): declaring in tags.py reported other diagnostics than --tag-languages")
            cpu = {key: result[f"{name}_{key}_cpu_s"] for key in runs}
            pairs = zip(cpu["declared"], cpu["undeclared"])  # type: ignore[call-overload]
            extras[count] = statistics.median(d - u for d, u in pairs)
            print(f"    declared vs undeclared: +{extras[count]:.3f} CPU s, {extras[count] / count * 1000:.3f} s "
                  f"per 1,000 (CPU s medians {result[f'{name}_declared_cpu_median_s']} and "
                  f"{result[f'{name}_undeclared_cpu_median_s']})")
            annotated_extra = statistics.median(
                a - u for a, u in zip(cpu["annotated"], cpu["undeclared"]))  # type: ignore[call-overload]
            print(f"    declared in tags.py vs undeclared: +{annotated_extra:.3f} CPU s, "
                  f"{annotated_extra / count * 1000:.3f} s per 1,000")
            if size == 1:
                result.update(module_lines=lines, tag_strings=count, d_extra_cpu_s=round(extras[count], 4),
                              d_seconds_per_1000=round(extras[count] / count * 1000, 4),
                              f_seconds_per_1000=round(annotated_extra / count * 1000, 4))
                both = zip(cpu["annotated"], cpu["declared"])  # type: ignore[call-overload]
                result["f_ratio"] = round(statistics.median(a / d for a, d in both), 4)
                off = zip(cpu["undeclared"], cpu["no_language_rules"])  # type: ignore[call-overload]
                result["e_ratio"] = round(statistics.median(u / n for u, n in off), 4)
                result["e_on_cpu_median_s"] = result[f"{name}_undeclared_cpu_median_s"]
                result["e_off_cpu_median_s"] = result[f"{name}_no_language_rules_cpu_median_s"]
    (small, small_extra), (large, large_extra) = sorted(extras.items())
    slope = (large_extra - small_extra) / (large - small)
    result["d_marginal_seconds_per_1000"] = round(slope * 1000, 4)
    result["d_one_time_s"] = round(small_extra - slope * small, 4)
    print(f"(d) {result['d_seconds_per_1000']} s per 1,000 language-declared tag strings at {small} of them "
          f"(target <= 0.3): {result['d_marginal_seconds_per_1000']} s per 1,000 more, and "
          f"{result['d_one_time_s']} s once (importing the parsers)")
    print(f"(e) no language declared, language rules on vs off: {result['e_ratio']}x (target <= 1.03)")
    print(f"(f) declared in tags.py (read through the import): {result['f_seconds_per_1000']} s per 1,000 "
          f"(target <= 0.3); {result['f_ratio']}x the run declared by --tag-languages")
    print(f"    CPU s medians: on {result['e_on_cpu_median_s']}, off {result['e_off_cpu_median_s']}")
    failed = [key for key, target in TARGETS.items() if float(result[key]) > target]  # type: ignore[arg-type]
    print("BENCH_JSON " + json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
