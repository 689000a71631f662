"""What the doctor found, and how it is shown: one line per finding, or JSON for CI.

A finding is data (a check name, a status, a message, the one-line fix); the
checks never print, so the text and the JSON forms say the same thing.  Only
an ``error`` makes the exit status non-zero: it marks something the user set
up that cannot work (a configuration naming a plugin whose tool is missing or
too old).  A ``warning`` is a likely surprise that still runs (the start-up
hook off, a cache that cannot be written), a ``note`` an optional step.
"""

from __future__ import annotations

import json
from typing import Literal, NamedTuple

__all__ = ["Finding", "Status", "exit_status", "render_json", "render_text"]

Status = Literal["ok", "note", "warning", "error"]


class Finding(NamedTuple):
    check: str  # a stable name: "python", "startup-hook", "mypy-plugin"...
    status: Status
    message: str
    fix: str | None = None


def exit_status(findings: list[Finding]) -> int:
    return 1 if any(f.status == "error" for f in findings) else 0


def _count(findings: list[Finding], status: Status) -> int:
    return sum(f.status == status for f in findings)


def render_text(header: str, findings: list[Finding]) -> str:
    width = max((len(f.check) for f in findings), default=0)
    lines = [header, ""]
    for finding in findings:
        lines.append(f"{finding.status:<8} {finding.check:<{width}}  {finding.message}")
        if finding.fix:
            lines.append(f"{'':<8} {'':<{width}}  fix: {finding.fix}")
    errors, warnings = _count(findings, "error"), _count(findings, "warning")
    lines.append("")
    if errors or warnings:
        plural = {1: ""}
        lines.append(
            f"{errors} error{plural.get(errors, 's')}, {warnings} warning{plural.get(warnings, 's')}"
            + (": the exit status is 1" if errors else "")
        )
    else:
        lines.append("No problem found.")
    return "\n".join(lines) + "\n"


def render_json(facts: dict[str, str], findings: list[Finding]) -> str:
    document = {
        **facts,
        "findings": [f._asdict() for f in findings],
        "errors": _count(findings, "error"),
        "warnings": _count(findings, "warning"),
        "exit_status": exit_status(findings),
    }
    return json.dumps(document, indent=2) + "\n"
