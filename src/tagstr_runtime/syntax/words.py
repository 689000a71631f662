"""String prefixes and keywords: what is never a tag (SPEC 1.2-1.4), in a module of its own.

The lexer's tables (``syntax.parser``) cost milliseconds to build; tools that only
need to know whether a name is a prefix or a keyword (flake8's TAG003 on
every file, the start-up hook's look at a main script that failed to
compile) read these sets without building them.
"""

from __future__ import annotations

import keyword

__all__ = ["HARD_KEYWORDS", "KEYWORDS_BEFORE_STRING", "STRING_PREFIXES", "TEMPLATE_PREFIXES"]

#: String and bytes prefixes of every supported Python, lower case ("" included).
STRING_PREFIXES = frozenset(["", "r", "u", "f", "b", "br", "rb", "fr", "rf"])
#: Template-string prefixes: string prefixes from Python 3.14 on (SPEC 1.4).
TEMPLATE_PREFIXES = frozenset(["t", "tr", "rt"])
# Hard keywords after which a string is already valid Python somewhere (SPEC 1.3):
# these keep their standard meaning and are never tags.
KEYWORDS_BEFORE_STRING = frozenset(
    "and or not in is if elif else while return yield assert raise await with except from".split()
)
HARD_KEYWORDS = frozenset(keyword.kwlist)
