"""The reasons to keep a tag string, as the command prints them (``MIGnnn message``).

Each code is documented in ``docs/python314.md`` ("What is not migrated, and
why") and ``docs/error-codes.md``; a message names the shape that keeps the
tag string and, where there is one, the remedy.
"""

from __future__ import annotations

__all__ = ["MESSAGES", "VOUCH"]

#: what ``--eager-tag`` asserts; the remedy of MIG001, MIG013, MIG014 says it
VOUCH = "you vouch that it reads each value once, in order, with nothing observable in between"

MESSAGES = {
    "MIG001": "tag {!r} may read its values after it returns ({}); a t-string evaluates them at once{}",
    "MIG002": "tag {!r} reads .raw, or lets its Decoded parts out (whoever gets one may), and this text has "
              "escapes; a template keeps one text ({} keeps the source text, as rt\"...\")",
    "MIG003": "'\\N{{{}}}' is '\\N' and an interpolation in a tag string, a named character in a t-string "
              "(the character is '\\N{{{{{}}}}}' in a tag string)",
    "MIG004": "{!r} is bound in the class body: a tag string's interpolation cannot see it, a t-string's can",
    "MIG005": "assignment expression in an interpolation: it binds inside the tag string's closure, "
              "in the enclosing scope in a t-string",
    "MIG006": "super() without arguments fails in a tag string's interpolation and works in a t-string",
    "MIG007": "this tag string {}, whose text would change",
    "MIG008": "nested format-spec fields run before the values in a tag string, in source order in a t-string, "
              "and {} is more than a name",
    "MIG009": "tag {!r} ({}) takes no template: {}",
    "MIG010": "backslash in a format spec: kept as written in a tag string, an escape in a t-string",
    "MIG011": "tag {!r} is unknown ({}): nothing says whether it {}; if it does, {}",
    "MIG012": "{}; the module is left as it is: rename the tag, then migrate",
    "MIG013": "tag {!r} ({}) is not shown to read each value exactly once, in order: {}; a t-string evaluates "
              "every value once, in order, before the tag runs; if that cannot matter, {} (" + VOUCH + ")",
    "MIG014": "tag {!r} ({}) may do something observable while it reads its values: {}; a t-string evaluates "
              "them all before the tag runs; if that cannot matter, {} (" + VOUCH + ")",
    "MIG015": "tag {!r} may be any of {} definitions here ({}), and one of them would not behave the same: {}",
    "MIG016": "{} in this text is an invalid escape in a t-string: Python 3.14 warns (SyntaxWarning, an error "
              "under -W error) where the tag string was silent; write {} (a doubled backslash)",
    "MIG017": "{}; an interpolation's expr would change ({})",
    "MIG018": "'{{{}:}}' has an empty format spec: '' in a tag string, None in a template passed to tag {!r}",
    "MIG019": "{} in an interpolation reads the frame it runs in: the tag string's closure in a tag string, "
              "the enclosing scope in a t-string",
}
