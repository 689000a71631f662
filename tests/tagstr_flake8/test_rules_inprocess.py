"""The TAG rules run in-process (``check_source``): each rule firing and staying quiet.

No flake8 subprocess: a case is a source, the codes it selects and the
expected ``(line, col, code)`` (``col`` 0-based UTF-8 bytes, as ``ast``
counts; flake8 prints it plus one).  The example files are checked here too,
against their trailing comments, so a rule's behaviour is pinned both ways.
"""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path
from textwrap import dedent
from typing import NamedTuple

import pytest

from tagstr_flake8 import CODES, MESSAGES, OFF_BY_DEFAULT, TagMessage, check_source, source_messages
from tagstr_flake8.lint.language_checks import configured
from tagstr_flake8.lint.messages import LANGUAGE_MESSAGES
from tagstr_flake8.rules import RULES
from tagstr_flake8.rules.tag004_builtin_tag import BuiltinTag
from tagstr_flake8.rules.tag010_lock import UnderLock

from flake8_harness import example_files, expectations, name_of, options

PY314 = sys.version_info >= (3, 14)
ALL = ("TAG",)
DEFAULT = tuple(code for code in MESSAGES if code not in OFF_BY_DEFAULT)


class Case(NamedTuple):
    source: str
    expected: list[tuple[int, int, str]]
    select: tuple[str, ...]
    id: str


def case(source: str, expected: list[tuple[int, int, str]], select: tuple[str, ...] = ALL, *, id: str) -> Case:
    return Case(dedent(source), expected, select, id)


CASES = [
    # TAG001 -------------------------------------------------------------------------
    *(
        []
        if PY314  # there t"..." is a t-string: no tag to report
        else [
            case('a = t"Hello {x}"\n', [(1, 4, "TAG001")], id="tag001-t"),
            case('b = (tr"x", RT"{a}")\n', [(1, 5, "TAG001"), (1, 12, "TAG001")], id="tag001-tr-RT"),
        ]
    ),
    case('a = template"x {t}"\nb = tt"x"\n', [], id="tag001-quiet-longer-names"),
    # TAG002 -------------------------------------------------------------------------
    case(r'a = sym"\N{SPACE} item"' "\n", [(1, 8, "TAG002")], id="tag002"),
    case(r'a = sym"x {a} \N{ SPACE }"' "\n", [(1, 14, "TAG002")], id="tag002-after-field"),
    case(
        r'a = sym"\N{{BULLET}} \\N{x}"' "\n" r'b = "\N{BULLET}" + sym"{a}"' "\n",
        [],
        id="tag002-quiet-doubled-escaped-plain",
    ),
    # TAG003 (runs on files without tag strings too) -----------------------------------
    case(
        """\
        def f(*args: Decoded) -> str: ...
        class Rb:
            def __call__(self, *args):
                return [a.getvalue() for a in args]
        if True:
            u = lambda *args: [a for a in args if isinstance(a, Interpolation)]
        br: TagFunction = f
        r = Rb()
        class B:
            def __new__(cls, *args: Interpolation): ...
        """,
        [(1, 0, "TAG003"), (6, 4, "TAG003"), (7, 0, "TAG003"), (8, 0, "TAG003"), (9, 0, "TAG003")],
        id="tag003-def-lambda-annotation-instance-class-tag",
    ),
    case(
        """\
        import io
        def b(*buffers: io.BytesIO): return [x.getvalue() for x in buffers]
        class R:
            def __call__(self, *args: Decoded): ...
        html = R()
        rb = io.BytesIO()
        """,
        [],
        id="tag003-quiet-annotated-other-type-callable-class-itself",
    ),
    case(
        """\
        def r(*args): return args
        def html(*args: Decoded) -> str: ...
        def f(arg: Decoded) -> str: ...
        fr = "not a function"
        """,
        [],
        id="tag003-quiet-no-evidence-not-prefix-no-varargs",
    ),
    case(
        "def t(*args: Interpolation): ...\n",
        [(1, 0, "TAG003")] if PY314 else [],
        id="tag003-template-prefix-only-on-3.14",
    ),
    case(
        """\
        Part = "Decoded | Interpolation"
        Piece = Part | None
        def f(*args: Piece): ...
        def r(*args: str | tuple):
            return [a if isinstance(a, str) else a.getvalue() for a in args]
        def b(*args: "Decoded" | int): ...
        class Stream:
            raw: object
        class Named:
            def getvalue(self) -> bytes: ...
            name: str
        def B(*streams: Stream): ...
        def R(*parts: Named): ...
        def F(*args: str | tuple): return args
        def u(*args: "not an expression ("): ...
        Total = len("Decoded")
        def rb(*args: Total): ...
        """,
        [(3, 0, "TAG003"), (4, 0, "TAG003"), (6, 0, "TAG003")],
        id="tag003-aliases-strings-widened-by-evidence-and-quiet-look-alikes",
    ),
    *(
        [
            case(
                "type Part = Decoded | Interpolation\ndef f(*args: Part): ...\n",
                [(2, 0, "TAG003")],
                id="tag003-type-statement",
            )
        ]
        if sys.version_info >= (3, 12)
        else []
    ),
    # TAG014 (runs on files without tag strings too) -----------------------------------
    case(
        """\
        from tagstr_runtime import template_tag
        R = template_tag(str)
        x = R"Hello {x}"
        def g(R):
            return R"Hello {x}"
        def h():
            return [R"a", r"b", rb"c"]
        """,
        [(3, 4, "TAG014"), (7, 12, "TAG014")],
        select=("TAG014",),
        id="tag014-raw-string-named-after-a-tag-not-a-parameter",
    ),
    case(
        """\
        b = 1
        f = open
        def u(text): return text
        x = (b"bytes", f"{b}", u"text")
        """,
        [],
        select=("TAG014",),
        id="tag014-quiet-names-that-are-no-tags",
    ),
    case(
        """\
        from tags import t
        def tr(*args: Interpolation): ...
        x = t"Hello {x}"
        y = f"{tr'x'}"
        """,
        [(3, 4, "TAG014"), (4, 7, "TAG014")] if PY314 else [],
        select=("TAG014",),
        id="tag014-t-strings-with-a-tag-t-in-scope-from-3.14",
    ),
    # TAG004 -------------------------------------------------------------------------
    case('a = repr"hello {x}"\nc = html"{len"n"}"\n', [(1, 4, "TAG004"), (2, 10, "TAG004")], id="tag004"),
    case(
        """\
        def unrelated(str): return str
        def takes(len): return len"x"
        a = str"x"
        class C:
            tuple = len
            b = tuple"x"
            def m(self): return tuple"x"
        """,
        [(3, 4, "TAG004"), (7, 24, "TAG004")],
        id="tag004-binding-in-scope",
    ),
    case(
        'from tags import fmt as format\ndef list(*a): return a\nx = format"{a}" + list"x"\n',
        [],
        id="tag004-quiet-module-binds-the-name",
    ),
    # TAG005 -------------------------------------------------------------------------
    case(
        """\
        class Users:
            table = "users"
            query = sql"FROM {table}"
        """,
        [(3, 22, "TAG005")],
        id="tag005",
    ),
    case(
        """\
        table = "t"
        class Users:
            limit = 10
            spec = sql"{__name__:{limit}}"
            inner = sql"{[limit for limit in range(3)]}"
            query = sql"FROM {table}"
            def method(self):
                return sql"{limit}"
        """,
        [],
        id="tag005-quiet-spec-comprehension-global-method",
    ),
    # TAG006 (off by default) ----------------------------------------------------------
    case(
        """\
        for item in items:
            log.append(lazy"processing {item}")
        squares = [lazy"{x}" for x in items]
        """,
        [(2, 32, "TAG006"), (3, 17, "TAG006")],
        ("TAG006",),
        id="tag006",
    ),
    case(
        """\
        for item in items:
            log.append(lazy"processing {item}")
        """,
        [],
        DEFAULT,
        id="tag006-quiet-by-default",
    ),
    case(
        """\
        def g(items, item):
            for item2 in items:
                if item2:
                    return lazy"{item2} {item}"
        """,
        [],
        ("TAG006",),
        id="tag006-quiet-returned-and-not-loop-variable",
    ),
    # TAG007 -------------------------------------------------------------------------
    case('a = html"{(n := 1)} {[y := x for x in z]}"\n', [(1, 11, "TAG007"), (1, 22, "TAG007")], id="tag007"),
    case('a = html"{n}"\nb = f"{(m := 2)}"\n', [], id="tag007-quiet-in-f-string"),
    # TAG008 (off by default, runs on files without tag strings too) ---------------------
    case('def f(x):\n    if x in"abc":\n        return"yes"\n', [(2, 9, "TAG008"), (3, 8, "TAG008")], ("TAG008",),
         id="tag008"),
    case('é = x in"abc"\n', [(1, 7, "TAG008")], ("TAG008",), id="tag008-byte-column"),
    case('s = "return\'x\'"  # return"c"\nt = html"{x}"\n', [], ("TAG008",),
         id="tag008-quiet-in-strings-comments"),
    case('t = html"{x if"a" else"b"}"\nu = f"{x if\'a\' else 1}"\n', [(1, 12, "TAG008"), (1, 18, "TAG008"),
         (2, 9, "TAG008")], ("TAG008",), id="tag008-in-tag-string-and-f-string-fields"),
    case('def f(x):\n    return"yes"\n', [], DEFAULT, id="tag008-quiet-by-default"),
    # TAG009 (off by default) ----------------------------------------------------------
    case(
        """\
        with open(p) as f, open(p) as (g):
            log.append(lazy"{f.read()} {g} {p}")
        """,
        [(2, 21, "TAG009"), (2, 32, "TAG009")],
        ("TAG009",),
        id="tag009",
    ),
    case(
        """\
        with open(p):
            log.append(lazy"{p}")
        with open(p) as f:
            pass
        x = lazy"{f}"
        """,
        [],
        ("TAG009",),
        id="tag009-quiet-no-target-outside-block",
    ),
    # TAG010 (off by default) ----------------------------------------------------------
    case(
        """\
        with self._lock:
            x = lazy"{self._items} constant {1 + 1}"
        with threading.RLock(), other():
            y = lazy"{len(items)}"
        """,
        [(2, 14, "TAG010"), (4, 14, "TAG010")],
        ("TAG010",),
        id="tag010",
    ),
    case(
        """\
        with open(p) as f:
            x = lazy"{f}"
        with self._lock:
            y = lazy"{1 + 1}"
        """,
        [],
        ("TAG010",),
        id="tag010-quiet-not-a-lock-reads-nothing",
    ),
    case(
        """\
        def f(self, clock, key):
            with clock, self.code_block():
                x = lazy"{self._items}"
            with self._lock:
                total = 1
                y = lazy"{key} {total} {key.upper()}"
        """,
        [],
        ("TAG010",),
        id="tag010-quiet-word-not-substring-locals-parameters",
    ),
    # TAG011 -------------------------------------------------------------------------
    case(
        """\
        class B(A):
            def f(self):
                return html"{super().f()} {super(B, self).f()}"
        """,
        [(3, 21, "TAG011")],
        id="tag011",
    ),
    case('def f(super):\n    return html"{super()}"\n', [], id="tag011-quiet-rebound"),
    # TAG012 -------------------------------------------------------------------------
    case('print"x"\nexec"y"\nz = UR"a"\n', [(1, 0, "TAG012"), (2, 0, "TAG012"), (3, 4, "TAG012")],
         id="tag012"),
    case('def f(print): return print"x"\nPrint"x"\n', [], id="tag012-quiet-rebound-other-case"),
    # TAG013 -------------------------------------------------------------------------
    case(
        """\
        try:
            pass
        except OSError as err:
            log = lazy"{err} {(lambda err: err)(1)}"
        """,
        [(4, 16, "TAG013")],
        id="tag013",
    ),
    case('try:\n    pass\nexcept OSError as err:\n    pass\nlog = lazy"{err}"\n', [], id="tag013-after-the-clause"),
]


EXAMPLE_FILES = example_files()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_rule(case: Case) -> None:
    assert check_source(case.source, case.select) == case.expected


def test_every_code_has_cases_that_fire() -> None:
    """Every rule fires in-process: in a case here or in its example file (``test_example_file``
    runs each through ``check_source``; a new rule needs only its example file,
    test_rule_registry.py).  The embedded-language codes fire in test_languages_inprocess.py and
    the lang_* examples."""
    fired = {code for c in CASES for _, _, code in c.expected}
    fired |= {code for path in EXAMPLE_FILES if path.stem.startswith("tag")
              for _, _, code in expectations(path) if code.startswith("TAG")}
    languages = {cls.code for cls in LANGUAGE_MESSAGES}
    assert fired == set(CODES) - languages - ({"TAG001"} if PY314 else set())
    # the rules written before the registry keep their cases here
    assert {code for c in CASES for _, _, code in c.expected} >= {f"TAG{n:03}" for n in range(2 if PY314 else 1, 15)}


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: name_of(p).removesuffix(".py"))
def test_example_file(path: Path) -> None:
    """In-process, an example file reports the TAG codes its comments expect (flake8 columns minus one)."""
    select = [code for code in MESSAGES if code not in OFF_BY_DEFAULT]
    select += re.findall(r"TAG\d{3}", " ".join(options(path)))
    wanted = {(row, col - 1, code) for row, col, code in expectations(path) if code.startswith("TAG")}
    mapping = " ".join(o.removeprefix("--tag-languages=") for o in options(path) if o.startswith("--tag-languages="))
    with configured(mapping):
        assert set(check_source(path.read_text(encoding="utf-8"), select, filename=str(path))) == wanted


def test_default_select_leaves_out_the_off_by_default_codes() -> None:
    source = "for i in x:\n    y = lazy\"{i}\" + repr\"z\"\n"
    assert check_source(source) == [(2, 20, "TAG004")]
    assert check_source(source) == check_source(source, DEFAULT)
    assert check_source(source, ALL) == [(2, 14, "TAG006"), (2, 20, "TAG004")]
    assert check_source(source, ("TAG00",)) == check_source(source, ALL)
    assert check_source(source, ()) == []
    assert check_source(source, "TAG006") == [(2, 14, "TAG006")]


def test_syntax_error_is_raised() -> None:
    with pytest.raises(SyntaxError):
        check_source('x = html"{"\n')
    with pytest.raises(SyntaxError):
        check_source("x = (\n")


def test_messages_render_the_table_text() -> None:
    [message] = source_messages('a = repr"x"\n')
    assert isinstance(message, BuiltinTag)
    assert message.text == MESSAGES["TAG004"].format(tag="repr")
    assert message.text == (
        "TAG004 builtin 'repr' is not a tag function: repr\"...\" calls it with Decoded and "
        "Interpolation arguments; call it on an f-string: repr(f\"...\")"
    )
    assert UnderLock(1, 2, expr="a.b", lock="m").text.startswith("TAG010 interpolation 'a.b' inside 'with m'")


@pytest.mark.parametrize("code", sorted(CODES))
def test_message_class(code: str) -> None:
    cls = CODES[code]
    assert cls.code == code and issubclass(cls, TagMessage)
    fields = {name for _, name, _, _ in string.Formatter().parse(cls.template) if name}
    assert fields and cls.field_names == fields
    message = cls(3, 4, **{name: "v" for name in fields})
    assert (message.line, message.col) == (3, 4)
    assert message.text.startswith(code + " ")
    if "detail" not in fields:  # a parser's own description quotes what it names
        assert "'v'" in message.text
    assert "; " in cls.template, "every message ends with the fix, after a semicolon"
    with pytest.raises(TypeError):
        cls(3, 4)
    with pytest.raises(TypeError):
        cls(3, 4, **{name: "v" for name in fields}, extra="x")


def test_rules_cover_each_code_once() -> None:
    assert [rule.code for rule in RULES] == sorted(CODES)
    assert set(OFF_BY_DEFAULT) < set(CODES)
