"""A tag string gets the diagnostics of the call it stands for (SPEC 3), typed the same way.

For every (tag, interpolations) pair of the table, one function holds the tag
string and, on the next line, its hand-desugared call
``tag(Decoded(...), Interpolation((lambda: expr, 'expr', None, None)), ...)``,
both inside ``reveal_type``.  The whole table is one module, checked once per
mypy parser.  Per pair:

* the errors inside each expression are the same (message, code, column from
  the expression's start): mypy typed the expression in the same context (with
  mypy's stdlib-``ast`` parser, the tag string's expression stands where mypy
  puts an f-string field's, as for its f-string twin: at the tag string's start
  before Python 3.12, at the field's ``{`` since);
* the tag string fails exactly when the call fails, and at the same slots when
  mypy says which (the call's wording is re-worded for the tag string, so only
  the verdict and the slot are compared, never the text);
* when neither fails, the revealed type is the same.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from harness import Diagnostic, diagnostics, native_parser_by_default, run_mypy, write_config

pytestmark = pytest.mark.subprocess

CONFIGURATIONS = pytest.mark.parametrize(
    "options",
    [["--native-parser"], ["--no-native-parser"], ["--disallow-any-expr"]],
    ids=["native", "stdlib-ast", "disallow-any-expr"],
)

TAGS = '''\
from typing import Any, Callable, Generic, Literal, Optional, Protocol, Sequence, TypeVar, overload

from tagstr_runtime import Decoded, Interpolation

T = TypeVar("T")
N = TypeVar("N", bound=float)
S = TypeVar("S", int, str)


def plain(*args: Decoded | Interpolation[object]) -> str:
    return ""


def bare(*args: Decoded | Interpolation) -> str:  # type: ignore[type-arg]
    return ""


def ints(*args: Decoded | Interpolation[int]) -> str:
    return ""


def floats(*args: Decoded | Interpolation[list[float]]) -> str:
    return ""


def order(*args: Decoded | Interpolation[Literal["asc", "desc"]]) -> str:
    return ""


def cb(*args: Decoded | Interpolation[Callable[[int], int]]) -> str:
    return ""


def opt(*args: Decoded | Interpolation[Optional[int]]) -> str:
    return ""


def maps(*args: Decoded | Interpolation[dict[str, float]]) -> str:
    return ""


def sets(*args: Decoded | Interpolation[set[float]]) -> str:
    return ""


def same(*args: Decoded | Interpolation[T]) -> T:
    raise NotImplementedError


def bounded(*args: Decoded | Interpolation[N]) -> N:
    raise NotImplementedError


def valued(*args: Decoded | Interpolation[S]) -> S:
    raise NotImplementedError


def listed(*args: Decoded | Interpolation[list[T]]) -> T:
    raise NotImplementedError


@overload
def over(*args: Decoded | Interpolation[int]) -> int: ...
@overload
def over(*args: Decoded | Interpolation[list[str]]) -> str: ...
def over(*args: Decoded | Interpolation[Any]) -> object:
    return 0


class Caller:
    def __call__(self, *args: Decoded | Interpolation[list[float]]) -> bytes:
        return b""


caller = Caller()


class Built:
    def __init__(self, *args: Decoded | Interpolation[list[float]]) -> None:
        pass


class Box(Generic[T]):
    def __init__(self, *args: Decoded | Interpolation[T]) -> None:
        pass


def loose(*args: object) -> str:
    return ""


def anything(*args: Any) -> str:
    return ""


def sequences(*args: Decoded | Sequence[object]) -> str:
    return ""


def either(*args: Decoded | Interpolation[int] | Callable[[], str]) -> str:
    return ""


def solved(*args: T) -> list[T]:
    return []


class Valued(Protocol):
    def getvalue(self) -> int: ...


def shaped(*args: Decoded | Valued) -> str:
    return ""


n = 1
ls = ["a"]
'''

SINGLE = [
    "1", "1.5", "'asc'", "'up'", "n", "ls", "None", "n.foo",
    "[1, 2]", "['a']", "[]", "{}", "{'k': 1}", "{1, 2}", "[i * 2 for i in range(3)]",
    "{k: 1 for k in 'ab'}", "{i for i in range(2)}",
    "(lambda x: x + 1)", "(lambda x: x.foo)", "(lambda x: str(x))", "(lambda: 1)",
    'plain"{1}"', 'ints"{1}"', 'ints"{ls}"',
]
TAG_NAMES = [
    "plain", "bare", "ints", "floats", "order", "cb", "opt", "maps", "sets",
    "same", "bounded", "valued", "listed", "over", "caller", "Built", "Box",
    # parameters a lambda and the wrapper do not fare alike against: mypy checks
    # the lambdas without the tag's context, the hook the wrappers' types
    "loose", "anything", "sequences", "either", "solved", "shaped",
]
MULTI = [
    ("same", ["1", "'a'"]), ("same", ["[]", "[1.0]"]), ("same", ["[1.0]", "[]"]),
    ("valued", ["1", "'a'"]), ("valued", ["1", "2"]), ("bounded", ["1", "2.5"]),
    ("bounded", ["1", "'a'"]), ("listed", ["[1]", "[]"]), ("listed", ["[1]", "['a']"]),
    ("Box", ["1", "'a'"]), ("over", ["1", "ls"]), ("floats", ["[1]", "ls"]),
]


# what a tag string's message must never say: argument numbers count literal
# parts, and generated names mean nothing to the reader
INTERNAL = re.compile(r'Argument \d+ |"tag string"|__tagstr|"Interpolation"')


class Pair(NamedTuple):
    tag: str
    exprs: list[str]
    line: int  # of the tag string; the call is on the next line
    tag_starts: list[int]  # 0-based column of each expression
    call_starts: list[int]
    fields: list[int]  # 0-based column of each field's "{"


def pairs() -> list[tuple[str, list[str]]]:
    table = [(tag, [expr]) for tag in TAG_NAMES for expr in SINGLE]
    return table + MULTI


def write_module(path: Path) -> list[Pair]:
    lines = TAGS.splitlines()
    written = []
    for number, (tag, exprs) in enumerate(pairs()):
        lines += ["", "", f"def case_{number}() -> None:"]
        tag_line = f"    reveal_type({tag}\"a "
        call_line = f"    reveal_type({tag}(Decoded('a '), "
        tag_starts, call_starts, fields = [], [], []
        for index, expr in enumerate(exprs):
            if index:
                tag_line += " b "
                call_line += "Decoded(' b '), "
            pad = " " if expr.startswith("{") else ""  # "{{" would be a literal brace
            fields.append(len(tag_line))
            tag_starts.append(len(tag_line) + 1 + len(pad))
            tag_line += "{" + pad + expr + pad + "}"
            call_line += "Interpolation((lambda: "
            call_starts.append(len(call_line))
            call_line += f"{expr}, {expr!r}, None, None)), "
        lines += [tag_line + "\")", call_line + "Decoded('')))"]
        written.append(Pair(tag, exprs, len(lines) - 1, tag_starts, call_starts, fields))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


class Outcome(NamedTuple):
    inside: frozenset[tuple[int, int, str]]  # (slot, column from its start, message)
    failed: bool
    slots: frozenset[int]  # slots said to fail
    revealed: tuple[str, ...]


def outcome(
    found: list[Diagnostic], starts: list[int], exprs: list[str], is_call: bool, moved: list[int] | None = None
) -> Outcome:
    """``moved``: where mypy's stdlib-``ast`` parser puts each expression (the tag string's)."""
    inside, slots, revealed = set(), set(), []
    failed = False
    for d in found:
        col = d.column - 1
        if moved is not None and col in moved and not _ABOUT_THE_CALL.match(d.message):
            index = moved.index(col)  # (before 3.12 all are at the tag string's start: the first)
            col = node_start(starts[index], exprs[index])
        if d.severity == "note":
            if d.message.startswith("Revealed type"):
                revealed.append(d.message)
            continue
        if is_call and hand_written_wrapper_any(d, col, starts):
            continue
        slot = next(
            (i for i, start in enumerate(starts) if start <= col < start + len(exprs[i])), None
        )
        if slot_failure(d, col, [node_start(s, e) for s, e in zip(starts, exprs)], is_call):
            failed = True
            slots.add(slot if slot is not None else wrapper_slot(col, starts))
        elif slot is not None:
            inside.add((slot, col - starts[slot], d.message))
        else:
            failed = True
    return Outcome(frozenset(inside), failed, frozenset(s for s in slots if s is not None), tuple(revealed))


def hand_written_wrapper_any(d: Diagnostic, col: int, starts: list[int]) -> bool:
    """``--disallow-any-expr`` on the ``Interpolation((lambda: ...))`` the call writes by
    hand, typed ``Interpolation[Any]`` by a tag that takes a bare ``Interpolation``, or
    on its lambda (``Callable[[], Any]``): a tag string has no such expression (its tag
    is judged as a callee is, and its interpolation by its value, in place, as in the
    f-string twin)."""
    wrapper = len("Interpolation((lambda: ")
    if d.message.startswith('Expression type contains "Any" (has type "Interpolation['):
        return any(col == start - wrapper for start in starts)
    if d.message.startswith('Expression type contains "Any" (has type "tuple[Callable[[], '):
        return any(col == start - len("(lambda: ") for start in starts)
    if d.message.startswith('Expression type contains "Any" (has type "Callable[[], '):
        return any(col == start - len("lambda: ") for start in starts)
    return False


def node_start(start: int, expr: str) -> int:
    """Where mypy places the expression: inside its parentheses."""
    return start + len(expr) - len(expr.lstrip("("))


def slot_failure(d: Diagnostic, col: int, starts: list[int], is_call: bool) -> bool:
    """An error saying one interpolation does not fit: the tag string's own (at the
    expression), or what mypy says of the hand-written wrapper (its argument, its
    lambda's result, which is the expression)."""
    if not is_call:
        return d.message.endswith("[tagstr-interpolation]") and col in starts
    if d.message.startswith("Incompatible return value type") and col in starts:
        return True
    return d.message.startswith('Argument 1 to "Interpolation"')


def lambda_body_anys(tag: Outcome, call: Outcome) -> bool:
    """The one difference mypy itself makes
    (docs/decisions/0062-an-interpolation-is-checked-as-its-expression.md): when a value that
    does not fit is a lambda literal, mypy reports ``Expression has type "Any"``
    inside its body (an unannotated parameter) for the wrapper's tuple, not for
    a lambda checked against a callable parameter: ``f(lambda: (lambda x:
    str(x)))`` gets the same from stock mypy.  Both calls still fail."""
    extra = call.inside - tag.inside
    return (
        tag.failed and call.failed and tag.inside <= call.inside
        and all(message.startswith('Expression has type "Any"') for _, _, message in extra)
    )


#: messages at the tag string's start about the call, not an expression placed there
_ABOUT_THE_CALL = re.compile(r'.*\[tagstr-interpolation\]$|Value of type variable|Cannot infer value of type parameter')
_ANY_REPORT = re.compile(r'Expression (has type|type contains) "Any"')


def typed_in_place(tag: Outcome, call: Outcome) -> bool:
    """What checking the value in place makes differ from the hand-written call, which wraps it
    in a lambda (docs/decisions/0081-tags-read-their-values-while-called.md):

    * ``--disallow-any-expr`` reports: the lambda's body is typed in the context of an
      ``Any`` for a bare ``Interpolation`` (``[i for i in x]`` is a ``list[Any]``), where
      the value in place is typed as its f-string twin's field (for ``object``), and a
      failed inference leaves ``Any`` in the value as in any direct call;
    * an overloaded tag whose overloads all reject the value: mypy checks the value against
      the overload it falls back to and says why inside it (``List item 0 has incompatible
      type``), where the call's wrapper fails as a whole."""
    if tag.failed == call.failed and all(
        _ANY_REPORT.match(message) for _, _, message in tag.inside ^ call.inside
    ):
        return True
    return call.failed and not tag.failed and bool(tag.inside - call.inside) and all(
        slot in call.slots for slot, _, _ in tag.inside - call.inside
    )


def wrapper_slot(col: int, starts: list[int]) -> int | None:
    """The slot whose ``Interpolation((`` argument starts at ``col``."""
    for index, start in enumerate(starts):
        if start - len("(lambda: ") == col:
            return index
    return None


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Pair]]:
    folder = tmp_path_factory.mktemp("parity")
    write_config(folder)
    return folder, write_module(folder / "table.py")


@CONFIGURATIONS
def test_a_tag_string_is_typed_as_its_call(module: tuple[Path, list[Pair]], options: list[str]) -> None:
    """Flags that judge the call (``--disallow-any-expr``) judge the tag string alike."""
    folder, table = module
    proc = run_mypy("--output", "json", "--no-incremental", *options, "table.py", cwd=folder)
    by_line: dict[int, list[Diagnostic]] = {}
    for d in diagnostics(proc):
        by_line.setdefault(d.line, []).append(d)
    stdlib = "--no-native-parser" in options or ("--native-parser" not in options and not native_parser_by_default())
    differ = []
    for pair in table:
        moved = None
        if stdlib:
            moved = [len("    reveal_type(")] * len(pair.exprs) if sys.version_info < (3, 12) else pair.fields
        tag = outcome(by_line.get(pair.line, []), pair.tag_starts, pair.exprs, False, moved)
        call = outcome(by_line.get(pair.line + 1, []), pair.call_starts, pair.exprs, True)
        same = (tag.inside == call.inside or lambda_body_anys(tag, call)) and tag.failed == call.failed
        if not same and typed_in_place(tag, call):
            same, tag = True, call  # (the revealed types are compared below)
        if same and tag.slots and call.slots:
            same = tag.slots == call.slots
        if same and not tag.failed:
            same = tag.revealed == call.revealed
        leaked = [d.message for d in by_line.get(pair.line, []) if INTERNAL.search(d.message)]
        if not same or leaked:
            differ.append(f"{pair.tag} {pair.exprs}:\n  tag string: {tag} {leaked}\n  call:       {call}")
    assert not differ, f"{len(differ)} of {len(table)} differ:\n" + "\n".join(differ)


CONTEXT_TAGS = '''\
from tagstr_runtime import Decoded, Interpolation


def floats(*args: Decoded | Interpolation[list[float]]) -> str:
    return ""
'''
CONTEXT_APP = '''\
from tags import floats

fine = floats"{[1, 2]}"
item = floats"{['a']}"
'''


def test_the_daemon_types_in_the_edited_tags_context(tmp_path: Path) -> None:
    """dmypy: the context follows an edit of the tag's signature, both ways."""
    write_config(tmp_path)
    (tmp_path / "tags.py").write_text(CONTEXT_TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(CONTEXT_APP, encoding="utf-8")
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]

    def check() -> list[str]:
        proc = subprocess.run([*dmypy, "run", "--timeout", "120", "--", "--show-column-numbers", "app.py", "tags.py"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert "INTERNAL ERROR" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
        return [line for line in proc.stdout.splitlines() if ": error: " in line]

    floats_errors = ['app.py:4:17: error: List item 0 has incompatible type "str"; expected "float"  [list-item]']
    try:
        assert check() == floats_errors
        (tmp_path / "tags.py").write_text(CONTEXT_TAGS.replace("list[float]", "list[str]"), encoding="utf-8")
        assert check() == [
            'app.py:3:17: error: List item 0 has incompatible type "int"; expected "str"  [list-item]',
            'app.py:3:20: error: List item 1 has incompatible type "int"; expected "str"  [list-item]',
        ]
        (tmp_path / "tags.py").write_text(CONTEXT_TAGS, encoding="utf-8")
        assert check() == floats_errors
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, timeout=60)


def test_in_process_runs_answer_alike(tmp_path: Path) -> None:
    """``mypy.api.run`` twice in one process (editor hosts do): the second run
    gets what the first got (the watchers of a build belong to that build)."""
    write_config(tmp_path)
    (tmp_path / "tags.py").write_text(CONTEXT_TAGS, encoding="utf-8")
    (tmp_path / "app.py").write_text(CONTEXT_APP, encoding="utf-8")
    script = (
        "import sys\nfrom mypy import api\n"
        "for _ in range(2):\n"
        "    out = api.run(['--no-incremental', '--show-column-numbers', 'app.py'])[0]\n"
        "    print(out.replace(chr(10), '|'))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    first, second = proc.stdout.splitlines()
    assert first == second and "app.py:4:17: error: List item 0" in first and "app.py:3" not in first, proc.stdout


ANY_TAGS = '''\
from typing import Any, Callable

from tagstr_runtime import Decoded, Interpolation


def bare(*args: Decoded | Interpolation) -> str:  # type: ignore[type-arg]
    return ""


def untyped(*args):  # type: ignore[no-untyped-def]
    return ""


loose: Callable[..., str] = bare  # type: ignore[misc]
anything: Any = bare  # type: ignore[misc]
kind: type[Any] = str  # type: ignore[misc]
n = 1
'''


def test_disallow_any_expr_judges_the_tag_as_a_callee(tmp_path: Path) -> None:
    """A tag whose type contains ``Any`` is not an expression of type ``Any``: mypy
    never judges a call's callee; the call's result it judges alike."""
    write_config(tmp_path)
    lines = ANY_TAGS.splitlines()
    start = len(lines) + 1
    tags = ["bare", "loose", "untyped", "anything", "kind"]
    for tag in tags:
        lines.append(f'v_{tag} = {tag}"x {{n}}"')
        lines.append(f'w_{tag} = {tag}(Decoded("x "), Interpolation((lambda: n, "n", None, "")))')
    (tmp_path / "app.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run_mypy("--output", "json", "--no-incremental", "--disallow-any-expr", "app.py", cwd=tmp_path)
    by_line: dict[int, list[tuple[int, str]]] = {}
    for d in diagnostics(proc):
        by_line.setdefault(d.line, []).append((d.column, d.message))
    for index, tag in enumerate(tags):
        line = start + 2 * index
        column = len(f"v_{tag} = ") + 1
        # the tag string: exactly what the call gets at the call (its result), nothing at the tag
        assert by_line.get(line, []) == [(column, m) for c, m in by_line.get(line + 1, []) if c == column], tag
    assert by_line.get(start + 4) == [(13, 'Expression has type "Any"  [misc]')]  # untyped's result
