"""Why a tag is rejected, said the way mypy says why a call fails.

A tag string stands for a call, so the reason its tag is rejected is the reason
that call fails, and mypy's own checker already says it: which argument, which
protocol member, expected and got.  The call is checked once more with those
messages collected instead of reported; they become notes of the
``tagstr-signature`` (or ``tagstr-not-callable``) error, at the tag string.
When the tag string's own call happens to fit (``one"abc"`` for
``def one(s: str)``), the first of a few other tag strings whose call does not
(``one""``) explains why the tag is no tag function.

Types that share a short name (a user's ``Interpolation`` Protocol copied from
the PEP draft, and ours) are written in full, as mypy writes two such types
in one message; ours under their public name, ``tagstr_runtime.Interpolation``.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple, Sequence

from mypy.checker import TypeChecker
from mypy.errors import ErrorInfo
from mypy.messages import collect_all_named_types, find_type_overlaps, format_type_inner
from mypy.nodes import ARG_POS, Context, Expression, TempNode
from mypy.subtypes import is_subtype
from mypy.types import Instance, ProperType, Type, get_proper_type

from tagstr_runtime.frontend import INTERPOLATION_TYPE

from tagstr_mypy.reports.codes import shown_field
from tagstr_mypy.typing.signatures import most_positional, signatures
from tagstr_mypy.typing.trials import values_only

__all__ = ["ARGUMENT_MESSAGE", "Rejection", "TypeNames"]

# our types' module, and the package that exports them
_PRIVATE: Final = INTERPOLATION_TYPE.rsplit(".", 1)[0] + "."
_PUBLIC: Final = INTERPOLATION_TYPE.split(".", 1)[0] + "."
# what a tag string passes; a type of another module with one of these names
# is a look-alike (the PEP draft's Protocols, copied)
PASSED: Final = ("Decoded", "Interpolation")
# other tag strings tried when this one's call fits: (d)ecoded and (i)nterpolation
# arguments, as the literal parts and fields of a tag string alternate
SHAPES: Final = ("", "d", "i", "di", "id", "did", "idi")
SHOWN_ARGUMENTS: Final = 6
#: mypy's message about one argument of a call (numbered, counting literal parts).
ARGUMENT_MESSAGE: Final = re.compile(r"^Argument \d+ ")
_ARGUMENT_TO: Final = re.compile(r'^Argument (\d+) to "[^"]*"(?: of "[^"]*")?')
DOCS: Final = '"Coming from the PEP draft" in docs/mypy.md'


def public(text: str) -> str:
    return text.replace(_PRIVATE, _PUBLIC)


class TypeNames:
    """Formats types so that two sharing a short name are told apart: the tag's
    (its parameters' too, for an object with ``__call__``) and ``ours``."""

    def __init__(self, api: TypeChecker, tag_type: ProperType, *ours: Type) -> None:
        self.options = api.options
        formals = [typ for signature in signatures(tag_type) for typ in signature.arg_types]
        self.full = find_type_overlaps(tag_type, *formals, *ours)

    def bare(self, typ: Type) -> str:
        # mypy writes a "def f(...)" signature with short names only: where
        # names clash, its "Callable[[...], R]" form, which writes them in full
        text = format_type_inner(
            typ, verbosity=0, options=self.options, fullnames=self.full,
            use_pretty_callable=not self.ours_ambiguous(),
        )
        return public(text)

    def quoted(self, typ: Type) -> str:
        return f'"{self.bare(typ)}"'

    def ours_ambiguous(self) -> bool:
        return any(name.startswith(_PRIVATE) for name in self.full)


class Rejection(NamedTuple):
    """A tag string whose tag was rejected: everything its explanation needs."""

    api: TypeChecker
    context: Context
    tag_type: ProperType
    name: str
    callable_name: str | None
    args: list[Expression]
    arg_types: list[Type]
    decoded: Type  # the type of every literal part
    interpolation: Type  # Interpolation[Any]
    texts: Sequence[str | None]  # each argument's source text (None: a literal part)

    def explain(self, error: ErrorInfo | None) -> None:
        """Add the notes to ``error`` (None: the error was not reported)."""
        if error is None:
            return
        names = TypeNames(self.api, self.tag_type, self.decoded, self.interpolation, *self.arg_types)
        self.note_look_alikes(names, error)
        failing = self.failing_call(names)
        if failing is not None:
            header, problems, parts = failing
            self.note(header, 0, error)
            for group in distinct(problems):
                self.note(named_part(group[0].message, parts), 4, error)
                for info in group[1:]:
                    self.note(info.message, 8, error)

    def failing_call(self, names: TypeNames) -> tuple[str, list[ErrorInfo], list[str]] | None:
        """The header, mypy's errors, and what each argument is to the reader."""
        problems = self.problems(self.arg_types, self.args)
        if problems:
            parts = part_names([self.interpolation_text(index) for index in range(len(self.args))])
            return f"This tag string calls {self.described(self.arg_types, names)}, which fails:", problems, parts
        for kinds in self.shapes():
            types = [self.decoded if kind == "d" else self.interpolation for kind in kinds]
            problems = self.problems(types, [])
            if problems:
                shown = f'{self.name}"{tag_string_body(kinds)}"'
                return (
                    f"This tag string's call fits, but {shown} would call "
                    f"{self.described(types, names)}, which fails:",
                    problems,
                    part_names(["x" if kind == "i" else None for kind in kinds]),
                )
        return None

    def interpolation_text(self, index: int) -> str | None:
        """Argument ``index``'s source text when an interpolation; None for a literal part."""
        return self.texts[index] if index < len(self.texts) else "?"

    def shapes(self) -> list[str]:
        shapes = list(SHAPES)
        most = most_positional(self.tag_type)
        if most is not None and most + 1 > max(map(len, SHAPES)):
            shapes.append(("di" * (most + 1))[: most + 1])  # one argument too many
        return shapes

    def problems(self, arg_types: list[Type], args: list[Expression]) -> list[ErrorInfo]:
        """What mypy reports on the call with these argument types (nothing if it fits)."""
        temps: list[Expression] = [
            TempNode(typ, context=args[i] if i < len(args) else self.context)
            for i, typ in enumerate(arg_types)
        ]
        with self.api.msg.filter_errors(save_filtered_errors=True) as watcher, values_only(self.api):
            self.api.expr_checker.check_call(
                self.tag_type, temps, [ARG_POS] * len(temps), self.context,
                callable_name=self.callable_name,
            )
        found = watcher.filtered_errors()
        return found if any(info.severity == "error" for info in found) else []

    def described(self, arg_types: list[Type], names: TypeNames) -> str:
        shown = [names.bare(typ) for typ in arg_types[:SHOWN_ARGUMENTS]]
        if len(arg_types) > SHOWN_ARGUMENTS:
            shown.append("...")
        return f"{self.name}({', '.join(shown)})"

    def note_look_alikes(self, names: TypeNames, error: ErrorInfo) -> None:
        """The fix, first, when the tag names a look-alike of ours that ours do not satisfy."""
        passed = {"Decoded": self.decoded, "Interpolation": self.interpolation}
        found = [typ for typ in look_alikes(self.tag_type) if not is_subtype(passed[typ.type.name], typ)]
        if not found:
            return
        theirs = " and ".join(names.quoted(typ) for typ in found)
        ours = " and ".join(dict.fromkeys(typ.type.name for typ in found))
        self.note(
            f"This tag is typed with {theirs}, where tag strings pass tagstr_runtime's {ours}: "
            f"import {ours} from tagstr_runtime, or use protocols they satisfy (see {DOCS})",
            0, error,
        )

    def note(self, text: str, offset: int, error: ErrorInfo) -> None:
        self.api.msg.note(
            public(text), self.context, offset=offset, code=error.code, parent_error=error
        )


def distinct(problems: list[ErrorInfo]) -> list[list[ErrorInfo]]:
    """Each error with the notes that follow it; of the errors that say the same
    about several arguments (a tag string passes many alike), the first."""
    groups: list[list[ErrorInfo]] = []
    for info in problems:
        if info.severity == "error" or not groups:
            groups.append([info])
        else:
            groups[-1].append(info)
    seen: set[tuple[str, ...]] = set()
    kept = []
    for group in groups:
        key = (ARGUMENT_MESSAGE.sub("Argument N ", group[0].message), *(info.message for info in group[1:]))
        if key not in seen:
            seen.add(key)
            kept.append(group)
    return kept


def look_alikes(tag_type: ProperType) -> list[Instance]:
    """Types the tag's parameters name like ours, from another module."""
    found: dict[str, Instance] = {}
    for signature in signatures(tag_type):
        for formal in signature.arg_types:
            for named in collect_all_named_types(formal):
                typ = get_proper_type(named)
                if (
                    isinstance(typ, Instance)
                    and typ.type.name in PASSED
                    and not typ.type.fullname.startswith(_PRIVATE)
                ):
                    found.setdefault(typ.type.fullname, typ)
    return sorted(found.values(), key=lambda typ: PASSED.index(typ.type.name))


def part_names(texts: list[str | None]) -> list[str]:
    """What the reader calls each argument: ``Interpolation "{x}"``, or the
    literal part by its rank; a tag-string argument's number counts both kinds."""
    names, literals = [], 0
    for text in texts:
        if text is None:
            literals += 1
            names.append(f"Literal part {literals}")
        else:
            names.append(f'Interpolation "{shown_field(text)}"')
    return names


def named_part(message: str, parts: list[str]) -> str:
    """``Argument 4 to "pick" has ...`` -> ``Interpolation "{n}" has ...``."""
    match = _ARGUMENT_TO.match(message)
    if match is None:
        return message
    index = int(match.group(1)) - 1
    if not 0 <= index < len(parts):
        return message
    return parts[index] + message[match.end():]


def tag_string_body(kinds: str) -> str:
    return "".join("a" if kind == "d" else "{x}" for kind in kinds)
