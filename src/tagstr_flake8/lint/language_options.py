"""The flake8 options of the embedded-language checks: ``--tag-languages``, ``--tag-sql-dialect``.

Light on purpose: the plugin loads it for every run, and the checks themselves
(``lint.language_checks``, the parsers) load only with a configured mapping or at the first
declared language (issue 28).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tagstr_flake8.lint.shared_notes import share_notes

__all__ = ["add_language_options", "parse_language_options"]


def add_language_options(option_manager: Any) -> None:
    if not hasattr(option_manager, "add_option"):  # a host's minimal stand-in: the defaults hold
        return
    option_manager.add_option(
        "--tag-languages", default="", parse_from_config=True, comma_separated_list=False,
        help="the language of tags whose definition the plugin cannot see: "
             "NAME=LANGUAGE pairs, NAME a tag's qualified or plain name (db.sql=sql, page=html)",
    )
    option_manager.add_option(
        "--tag-sql-dialect", default="sqlite", parse_from_config=True,
        help="the SQL dialect of the SQL checks (sqlglot's names: sqlite, postgres, mysql...; default sqlite)",
    )


def parse_language_options(options: argparse.Namespace) -> None:
    languages = getattr(options, "tag_languages", "") or ""
    dialect = getattr(options, "tag_sql_dialect", "sqlite") or "sqlite"
    # else the defaults hold: nothing to import (a run in a process that ran the checks
    # before gets new settings: the modules it read may have changed)
    if languages or dialect != "sqlite" or "tagstr_flake8.lint.language_checks" in sys.modules:
        from tagstr_flake8.lint.language_checks import configure, parse_mapping

        try:
            mapping = parse_mapping(languages)
        except ValueError as exc:
            raise SystemExit(f"flake8: {exc}") from None
        configure(mapping, dialect)
    share_notes(options)
