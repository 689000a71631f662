"""Placeholders for the data languages (JSON, YAML, TOML): numbers, valid as values and inside strings."""

from __future__ import annotations

__all__ = ["numeric_placeholder"]


def numeric_placeholder(index: int) -> str:
    """``10000000`` for hole 0, ``20000000`` for hole 1...: a number, and a bare key in TOML."""
    return f"{index + 1}0000000"
