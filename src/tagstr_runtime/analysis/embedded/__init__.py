"""Embedded-language checks: the literal text a tag receives, checked by a real parser.

A check sees a template as a 3.14 ``Template`` has it: ``strings`` (the
literal parts, cooked, ``len(strings) == len(slots) + 1``) and ``slots`` (what
is known of each hole), and returns ``Finding`` records placed at
``(part, offset)`` in a string or at a hole.  Callers map them back to the
source (the flake8 plugin does, through the literal runs' source maps).

Each language lives in its own module around its parser, imported only when a
template of that language is checked: a file that declares no language never
imports a parser.  A parser that is not installed raises ``MissingParser``,
which names the extra that brings it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final, Mapping, NamedTuple, Protocol, Sequence

from tagstr_runtime.analysis.embedded.registry import REGISTRY

__all__ = [
    "ATTRIBUTES", "EXTRAS", "Finding", "IDENTIFIER", "LANGUAGES", "LanguageOptions", "MissingParser", "Options",
    "Slot", "TYPED", "canonical", "check", "check_language", "hole_requirements", "language_name", "requirements",
]

#: Language names as written in declarations (t-linter's names) -> the checked language.
LANGUAGES: Final[Mapping[str, str]] = {name: language.name for language in REGISTRY for name in language.names}
#: Language -> the extra of tagstr-toolkit that installs its parser (None: the standard library's).
EXTRAS: Final[Mapping[str, str | None]] = {language.name: language.extra for language in REGISTRY}
#: The languages whose holes may ask a type of their value (``requirements``).
TYPED: Final = frozenset(language.name for language in REGISTRY if language.typed)


def canonical(name: str) -> str | None:
    """The checked language a declared name stands for (``"JS"`` -> ``"javascript"``), or None."""
    return LANGUAGES.get(name.strip().lower())


class Slot(NamedTuple):
    """What a check knows of one hole: its expression's text, conversion and format spec."""

    expr: str
    conv: str | None = None
    spec: str | None = None  # the spec's literal text (None: no ':'); a spec with fields: its text so far


class Finding(NamedTuple):
    """One fault: ``kind`` (``"html.end-tag"``...), where, and the values its message names.

    ``hole`` is None for a fault in the text, at ``strings[part][offset]``
    (``offset == len(strings[part])``: the end of that string); else the index
    of the hole the fault is about (``part`` and ``offset`` are then 0).
    """

    kind: str
    part: int
    offset: int
    hole: int | None
    args: tuple[tuple[str, str], ...] = ()


class Options(NamedTuple):
    """Settings of the checks (the flake8 options set them)."""

    sql_dialect: str = "sqlite"
    html_strict: bool = False
    html_opt_in: bool = False  # holes frameworks run as JavaScript (TAG116), whole-URL holes (TAG117)


class MissingParser(Exception):
    """The parser of ``language`` is not installed: ``pip install 'tagstr-toolkit[<extra>]'``."""

    def __init__(self, language: str, extra: str, module: str) -> None:
        super().__init__(language, extra, module)
        self.language = language
        self.extra = extra
        self.module = module

    def __str__(self) -> str:
        return (
            f"the {self.language} checks need {self.module!r}: "
            f"pip install 'tagstr-toolkit[{self.extra}]'"
        )


class _Checker(Protocol):
    def __call__(self, strings: Sequence[str], slots: Sequence[Slot], options: Options) -> list[Finding]: ...


class _Requirements(Protocol):
    def __call__(self, strings: Sequence[str], slots: Sequence[Slot], options: Options) -> dict[int, str]: ...


#: What a hole's value must be, by where it stands (``requirements``); a type checker
#: gives each its type (docs/languages.md, "Types").
IDENTIFIER: Final = "identifier"  # an SQL name: a table or column (``FROM {table:i}``)
ATTRIBUTES: Final = "attributes"  # a mapping of HTML attributes standing alone in a tag (``<div {attrs}>``)


DEFAULT_OPTIONS: Final = Options()


def check(
    language: str, strings: Sequence[str], slots: Sequence[Slot], options: Options = DEFAULT_OPTIONS
) -> list[Finding]:
    """The faults of a template declared as ``language`` (a name of ``LANGUAGES``), in text order.

    Raises ``MissingParser`` when the language's parser is not installed.
    """
    name = canonical(language)
    if name is None:
        raise ValueError(f"unknown language {language!r}")
    if len(strings) != len(slots) + 1:
        raise ValueError("a template has one more string than holes")
    return _checker(name)(strings, slots, options)


def requirements(
    language: str, strings: Sequence[str], slots: Sequence[Slot], options: Options = DEFAULT_OPTIONS
) -> dict[int, str]:
    """What the value of each hole must be where it stands, by hole index (``IDENTIFIER``,
    ``ATTRIBUTES``); holes whose context asks nothing of the value's type are left out.

    Raises ``MissingParser`` when the language's parser is not installed.
    """
    name = canonical(language)
    if name not in TYPED or not slots:  # the languages whose holes may need a type
        return {}
    if len(strings) != len(slots) + 1:
        raise ValueError("a template has one more string than holes")
    _checker(name)  # the parser is there
    found: _Requirements = _MODULES_LOADED[name].requirements
    return found(strings, slots, options)


def _checker(language: str) -> _Checker:
    checker = _CHECKERS.get(language)
    if checker is None:
        try:
            module = importlib.import_module(f"{__name__}.{language}")
        except ImportError as exc:
            extra = EXTRAS[language] or language
            raise MissingParser(language, extra, exc.name or str(exc)) from None
        checker = _CHECKERS[language] = module.check
        _MODULES_LOADED[language] = module
    return checker


_CHECKERS: dict[str, _Checker] = {}
_MODULES_LOADED: dict[str, ModuleType] = {}


# the names ``tagstr_runtime.frontend`` gives them
LanguageOptions = Options
check_language = check
language_name = canonical
hole_requirements = requirements
