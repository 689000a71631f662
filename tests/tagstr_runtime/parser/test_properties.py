"""Property tests of the shared parser and the desugarer (SPEC 1.8, 2, 3, 5).

(i)   Standard Python (hypothesmith programs, and standard f-strings built from
      the tag-string body generator) contains no tag string, and the
      desugarer gives exactly ``ast.parse``'s tree for it.
(ii)  A generated tag-string body splits into the same literal texts, fields,
      expressions (with their positions), conversions and format specs as
      CPython 3.12+ splits the same body written as ``rf"..."``; literal parts
      are cooked exactly as Python reads the same text in a plain literal.
(iii) Mutated tag-string programs either compile or raise ``SyntaxError`` at
      a position inside the source, never another exception, and never hang.

Budgets: ``HYPOTHESIS_PROFILE=dev|ci|thorough|quick`` (see ``tests/conftest.py``; the
quick run, ``pytest --quick``, runs these under ``quick``).
"""

from __future__ import annotations

import ast
import re
import sys
import time
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import tagstr_runtime
from tagstr_runtime.desugarer.interpolation_call import Fields, GeneratedModule
from tagstr_runtime.run.compile import desugar_ast
from tagstr_runtime.syntax.model import Field, Literal
from tagstr_runtime.syntax.parser import parse
from tagstr_runtime.syntax.source import decode_source

try:
    from . import strategies as S  # tests/tagstr_runtime/parser is a package
except ImportError:
    import strategies as S  # type: ignore[no-redef]  # rootdir-relative import mode

try:
    import hypothesmith
except ImportError:  # not installable everywhere (Pyodide: it needs libcst)
    hypothesmith = None

# hypothesis runs (and hypothesmith/libcst generation): about 20 s under the ci profile; the
# quick run (--quick) runs the module under the quick profile, in a few seconds
pytestmark = [pytest.mark.slow, pytest.mark.budget]

PY312 = sys.version_info >= (3, 12)
#: 3.14+ lexes t-strings (PEP 750 final) in a mode of its own: a second CPython oracle
PY314 = sys.version_info >= (3, 14)
needs_pep701 = pytest.mark.skipif(not PY312, reason="CPython's rf-string parse follows PEP 701 from 3.12")
needs_hypothesmith = pytest.mark.skipif(hypothesmith is None, reason="hypothesmith is not installed")


def _quiet_compile(source: str, mode: str = "exec", flags: int = 0) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(source, "<gen>", mode, flags, dont_inherit=True)


def _compiles(source: str) -> bool:
    """Whether ``source`` compiles (to code: the symbol table has errors of its own)."""
    try:
        _quiet_compile(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _note(message: str) -> None:
    """``hypothesis.note`` that also works in the plain (pinned-example) tests."""
    try:
        note(message)
    except InvalidArgument:
        pass


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


# =============================================================================
# (i) standard code is left alone
# =============================================================================


def _assert_left_alone(src: str) -> None:
    text = decode_source(src)
    result = parse(text)
    assert result.tag_strings == ()
    # scanning valid code never stops early: a stop would hide later tag strings
    assert result.complete
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _dump(desugar_ast(src)) == _dump(ast.parse(src))


_HYPOTHESMITH_SETTINGS = settings(
    max_examples=S.examples(30),
    suppress_health_check=list(HealthCheck),
)


@needs_hypothesmith
@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith's own compile() of its programs
@_HYPOTHESMITH_SETTINGS
@given(hypothesmith.from_grammar() if hypothesmith else st.nothing())
def test_grammar_programs_left_alone(src: str) -> None:
    assume(len(src) < 3000 and _compiles(src))
    _assert_left_alone(src)


@needs_hypothesmith
@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith's own compile() of its programs
@settings(_HYPOTHESMITH_SETTINGS, max_examples=S.examples(10))  # libcst's generator is slow
@given(hypothesmith.from_node() if hypothesmith else st.nothing())
def test_libcst_programs_left_alone(src: str) -> None:
    assume(len(src) < 3000 and _compiles(src))
    _assert_left_alone(src)


# Fragments of standard code that come close to tag strings: every string
# prefix in every case, keywords glued to strings, names before strings that
# are not glued, f-strings whose fields hold strings.
_STANDARD_FRAGMENTS = st.sampled_from(
    [
        "x = r'a' + U'b' + b'c' + Br'd' + rB'e' + F'{x}' + fR'{x}' + RF'{x}'\n",
        "x = 'a' if'b'else'c'\n",
        "assert'x', 'msg'\n",
        "y = not'x'\n",
        "y = x in'abc' and'x'or'y'\n",
        "y = x is not'a'\n",
        "def g():\n    yield'x'\n    return'y'\n",
        "async def h():\n    await'x'\n    async with'a': pass\n",
        "try:\n    raise'x'from'y'\nexcept'e': pass\n",
        "while'x': break\n",
        "with'x': pass\n",
        "match'x':\n    case'y': pass\n    case'z' if'q': pass\n",
        "match = 1; case = 2; type = 3\n",
        "x = y # tag'x'\n",
        "x = (y\n  'a')\n",
        "x = \\\n  'a'\n",
        "x = 1if'a'else 2\n",
        "d = {'a': 1}['a']\n",
        "print(x, 'tag\"x\"', \"tag'x'\")\n",
        "s = '''tag\"x\"\n{tag'y'}'''\n",
        "x = 0x1f + 1e-5j + 1_0.5e+3 + .5 + 1.\n",
        "x = [1for'a'in'b']\n" if sys.version_info < (3, 12) else "x = [1 for a in'b']\n",
        "l = lambda: 'x'\n",
        "x = f'{x!r:>{w}}' f\"{y=}\" f'{{tag\"x\"}}'\n",
        "x = f'{\"a\" \"b\"}'\n",
        "x = f'''{\n    a # tag'x'\n}'''\n" if PY312 else "x = f'''{a}'''\n",
        "x = f'{f\"{y}\"}'\n",
        "x = f'{d[\"k\"]}'\n",
        "x = b'\\x00' rb'\\d'\n",
        "é = '日本'\n",
    ]
)


@settings(max_examples=S.examples(60))
@given(st.lists(_STANDARD_FRAGMENTS, min_size=1, max_size=6))
def test_standard_fragments_left_alone(fragments: list[str]) -> None:
    src = "".join(fragments)
    assume(_compiles(src))
    _assert_left_alone(src)


@needs_pep701
@settings(max_examples=S.examples(120))
@given(
    st.sampled_from(["f", "rf", "F", "Rf", "fR"]),
    S.bodies(reuse_quote=True),
    st.sampled_from(S.CONTEXTS),
)
def test_standard_fstrings_with_tag_bodies_left_alone(prefix: str, body: S.Body, context: tuple[str, str]) -> None:
    """The same bodies as (ii), as standard f-strings: never a tag string (SPEC 1.8)."""
    src = S.tag_source(body, prefix, context)
    _note(src)
    assume(_compiles(src))
    _assert_left_alone(src)


# =============================================================================
# (ii) tag-string bodies parse like CPython's rf-strings
# =============================================================================

TAG = "tg"  # same length as "rf": both sources have every node at the same offset


def _norm_parts(items: list[tuple]) -> list[tuple]:
    """Merge adjacent literal texts and drop empty ones."""
    out: list[tuple] = []
    for item in items:
        if item[0] == "lit":
            if not item[1]:
                continue
            if out and out[-1][0] == "lit":
                out[-1] = ("lit", out[-1][1] + item[1])
                continue
        out.append(item)
    return out


def _conv(code: int) -> str | None:
    return None if code == -1 else chr(code)


def _cpython_parts(node: ast.expr) -> list[tuple]:
    """An f-string's (``JoinedStr``) or t-string's (``TemplateStr``) parts."""
    items: list[tuple] = []
    for value in node.values:  # type: ignore[attr-defined]
        if isinstance(value, ast.Constant):
            items.append(("lit", value.value))
        else:
            assert isinstance(value, (ast.FormattedValue, getattr(ast, "Interpolation", ast.FormattedValue)))
            spec = None if value.format_spec is None else _cpython_parts(value.format_spec)  # type: ignore[arg-type]
            items.append(("field", _dump(value.value), _conv(value.conversion), spec))
    return _norm_parts(items)


class _Ours:
    """Reads a desugared module back into the shape of ``_cpython_parts``, through the one
    reader of generated code (``desugarer.interpolation_call``)."""

    def __init__(self, tree: ast.Module) -> None:
        assert isinstance(tree.body[1], ast.ImportFrom) and tree.body[1].module == "tagstr_runtime._rt"
        self.module = GeneratedModule(tree)
        self.cooked: list[str] = []

    def call_parts(self, call: ast.Call) -> list[tuple]:
        items: list[tuple] = []
        for arg in call.args:
            passed = self.module.argument(arg)
            if isinstance(passed, Fields):  # an Interpolation, in whichever form the process writes
                items.append(("field", _dump(passed.getvalue.body), passed.conversion, self.spec_parts(passed.spec)))
                continue
            cooked, raw = passed  # a Decoded
            self.cooked.append(cooked)
            items.append(("lit", raw))
        return items  # not normalised: the desugarer must already merge literals

    def spec_parts(self, node: ast.expr | None) -> list[tuple] | None:
        if node is None or (isinstance(node, ast.Constant) and node.value is None):
            return None
        if isinstance(node, ast.Constant):
            return _norm_parts([("lit", node.value)])
        assert isinstance(node, ast.JoinedStr)
        return _cpython_parts(node)


def _cpython_debug_text_reliable(expr: str) -> bool:
    """CPython 3.12.1/3.13.0 cut the debug text of ``{expr=}`` short: at a ``#``
    even inside a string (``f'{"#"=}' == '"\'#\''``), at a top-level ``!=``
    (``rf'{x != y=}'`` has the debug text ``'x '``), around nested braces
    (``rf'{not {x: f(k=x)}=}'`` has ``'not {x: f(k=x)'``)."""
    return not any(c in expr for c in "#!{}=")


def _without_literals(parts: list[tuple] | None) -> list[tuple] | None:
    if parts is None:
        return None
    return [(p[0], p[1], p[2], _without_literals(p[3])) for p in parts if p[0] == "field"]


def _find_call(tree: ast.AST, tag: str) -> ast.Call:
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == tag]
    assert len(calls) == 1, calls
    return calls[0]


def _find_joinedstr(tree: ast.AST) -> ast.JoinedStr:
    # the outermost JoinedStr: the first in breadth-first order
    return next(n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr))


def _find_templatestr(tree: ast.AST) -> ast.expr:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.TemplateStr))  # type: ignore[attr-defined]


_BAD = object()
_SKIP = object()
_NAMED_ESCAPE_END = re.compile(r"(?<!\\)(?:\\\\)*\\N\Z")
_ODD_BACKSLASHES_END = re.compile(r"(?<!\\)\\(?:\\\\)*\Z")


def _python_cooks(raw: str, before_field: bool) -> object:
    """What Python makes of ``raw`` as the body of a plain (non-raw) literal.

    A trailing ``\\N`` before a field (SPEC 2) and a trailing lone backslash
    before a field (a raw f-string keeps it) stay verbatim.  Returns ``_BAD``
    when Python rejects an escape, ``_SKIP`` when no quote can hold the text.
    """
    tail = ""
    if before_field and _NAMED_ESCAPE_END.search(raw):
        raw, tail = raw[:-2], "\\N"
    elif _ODD_BACKSLASHES_END.search(raw):
        raw, tail = raw[:-1], "\\"
    for quote in ('"""', "'''"):
        if quote in raw or raw.endswith(quote[0]):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = eval(quote + raw + quote)  # noqa: S307 - a string literal, checked above
        except SyntaxError:
            return _BAD
        assert isinstance(value, str)
        return value + tail
    return _SKIP


def _check_generated(body: S.Body, context: tuple[str, str], *, cpython: bool) -> bool:
    """Check the parse of one generated body; False when the body is not valid.

    The generator's oracle (literal texts, cooking, expression texts, debug
    texts, conversions) is checked on every version.  With ``cpython``, the
    desugared call must also match CPython's parse of the same body as an
    rf-string: same split, same conversions and spec structure, and the same
    expression trees at the same positions.
    """
    src = S.tag_source(body, TAG, context)
    _note(f"source: {src!r}")
    ref_tree = None
    if PY312:
        try:
            ref_tree = _quiet_compile(S.tag_source(body, "rf", context), flags=ast.PyCF_ONLY_AST)
        except SyntaxError:
            return False
        except ValueError:  # CPython 3.12.1's ast cannot build some valid rf-strings
            if cpython:
                return False
    if not all(_compiles("(" + expr + "\n)") for expr in body.exprs):
        return False  # e.g. '-not x'; on 3.11, nested f-strings that need PEP 701
    literals = [seg for seg in body.segments if seg]
    expected_cooked = []
    for i, seg in enumerate(body.segments):
        if seg:
            expected_cooked.append(_python_cooks(seg, before_field=i < len(body.segments) - 1))
    if _SKIP in expected_cooked:
        return False
    if _BAD in expected_cooked:
        # an escape Python rejects is a syntax error of the tag string (SPEC 3)
        with pytest.raises(SyntaxError) as info:
            desugar_ast(src, "f.py", emit_warnings=False)
        assert isinstance(info.value, tagstr_runtime.TagSyntaxError)
        check_error_position(src, info.value)
        return True

    result = parse(src)
    assert result.complete
    assert len(result.tag_strings) == 1
    tag = result.tag_strings[0]
    assert tag.tag == TAG and tag.quote == body.quote
    assert src[tag.body_span.start : tag.body_span.end] == body.text

    # the generator's own oracle
    ours_literals = [p for p in tag.parts if isinstance(p, Literal)]
    assert [p.raw for p in ours_literals] == literals
    assert [p.cooked for p in ours_literals] == expected_cooked
    fields = tag.fields()
    assert [f.expr for f in fields] == body.exprs
    assert [f.debug for f in fields] == body.debugs
    assert [f.conv for f in fields] == body.convs
    for f in fields:
        assert src[f.expr_span.start : f.expr_span.end] == f.expr
        assert src[f.span.start] == "{" and src[f.span.end - 1] == "}"
        if f.conv_span is not None:
            assert src[f.conv_span.start : f.conv_span.end] == f.conv
        if f.spec_span is not None:
            assert src[f.spec_span.start - 1] == ":" and f.spec_span.end == f.span.end - 1
        for part in f.spec or ():
            if isinstance(part, Literal):
                assert part.cooked == part.raw  # specs stay raw (SPEC 2)
                assert part.raw == src[part.span.start : part.span.end]
    for part in tag.parts:
        if isinstance(part, Literal):
            assert part.raw == src[part.span.start : part.span.end].replace("{{", "{").replace("}}", "}")

    tree = desugar_ast(src, "f.py", emit_warnings=False)
    assert isinstance(tree, ast.Module)
    ours = _Ours(tree)
    ours_parts = ours.call_parts(_find_call(tree, TAG))
    assert ours_parts == _norm_parts(ours_parts), "literal arguments not merged"
    # the Decoded values: the cooked literal parts, debug text verbatim
    decoded = []
    pending_raw = pending = ""
    for part in tag.parts:
        if isinstance(part, Literal):
            pending_raw += part.raw
            pending += part.cooked
        else:
            pending_raw += part.debug or ""
            pending += part.debug or ""
            if pending_raw:  # ('\\\n' cooks to '' but is still passed: its raw is not empty)
                decoded.append(pending)
            pending_raw = pending = ""
    if pending_raw:
        decoded.append(pending)
    assert ours.cooked == decoded
    _quiet_compile_tree(tree)

    if cpython:
        # CPython's oracle: same split, same expression trees at the same positions
        assert ref_tree is not None
        cpython_parts = _cpython_parts(_find_joinedstr(ref_tree))
        if not all(_cpython_debug_text_reliable(e) for e, d in zip(body.exprs, body.debugs) if d is not None):
            # the generator's oracle checked our debug texts above
            ours_parts, cpython_parts = _without_literals(ours_parts), _without_literals(cpython_parts)
        assert ours_parts == cpython_parts
        if PY314:
            # the same body as a raw t-string: split and expression texts as 3.14+ lex them
            t_tree = _quiet_compile(S.tag_source(body, "rt", context), flags=ast.PyCF_ONLY_AST)
            template = _find_templatestr(t_tree)
            t_parts = _cpython_parts(template)
            if not all(_cpython_debug_text_reliable(e) for e, d in zip(body.exprs, body.debugs) if d is not None):
                t_parts = _without_literals(t_parts)  # ours_parts are already without literals
            assert ours_parts == t_parts
            # Interpolation.str is cut short like 3.12's debug texts (``{x != y}`` has ``'x'``
            # on 3.14.2 and 3.15.0rc1): compared where that cannot happen
            values = template.values  # type: ignore[attr-defined]
            t_exprs = [i.str.strip() for i in values if not isinstance(i, ast.Constant)]
            top = [p.expr for p in tag.parts if isinstance(p, Field)]
            assert len(t_exprs) == len(top)
            assert [t for t, e in zip(t_exprs, top) if _cpython_debug_text_reliable(e)] == [
                e for e in top if _cpython_debug_text_reliable(e)
            ]
    return True


def _quiet_compile_tree(tree: ast.AST) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(tree, "f.py", "exec")


@needs_pep701
@settings(max_examples=S.examples(250))
@given(S.bodies(debug_in_spec=False), st.sampled_from(S.CONTEXTS))
def test_body_splits_like_cpython_rfstring(body: S.Body, context: tuple[str, str]) -> None:
    assume(_check_generated(body, context, cpython=True))


@settings(max_examples=S.examples(150))
@given(S.bodies(reuse_quote=True), st.sampled_from(S.CONTEXTS))
def test_body_parses_as_generated(body: S.Body, context: tuple[str, str]) -> None:
    """Every version, debug fields in specs included: the generator's oracle only."""
    assume(_check_generated(body, context, cpython=False))


@settings(max_examples=S.examples(100))
@given(S.bodies(bad_escapes=True, max_parts=4, debug_in_spec=False), st.sampled_from(S.CONTEXTS[:2]))
def test_bad_escapes_are_syntax_errors(body: S.Body, context: tuple[str, str]) -> None:
    assume(_check_generated(body, context, cpython=PY312))


@needs_pep701
@pytest.mark.parametrize(
    "body",
    [
        # examples pinned from SPEC 2/3 and from shapes the generator found interesting
        'Hi, {name!r:>{w}}{{!}}',
        '{d["k"]}',
        '\\{x}\\N{y}\\\\N{z}',
        '\\N{{BULLET}} {x = }{ y=!s:^{w=}}',
        'caf\u00e9 \\u00e9 {x:#x}{x:=5}',
    ],
)
def test_pinned_bodies_split_like_cpython(body: str) -> None:
    parsed = parse(f"{TAG}\"{body}\"\n").tag_strings[0]
    fields = parsed.fields()
    gen = S.Body('"', body, segments=[], exprs=[f.expr for f in fields], debugs=[f.debug for f in fields],
                 convs=[f.conv for f in fields])
    # segments from the parse itself: this test checks the CPython split only
    segs = [""]
    for part in parsed.parts:
        if isinstance(part, Literal):
            segs[-1] += part.raw
        else:
            segs.append("")
    gen.segments = segs
    assert _check_generated(gen, ("", ""), cpython="w=" not in body)


@needs_pep701
def test_known_difference_backslash_in_format_spec() -> None:
    """KNOWN INTENDED DIFFERENCE: CPython 3.12+ cooks escapes in the format spec
    of a *raw* f-string (``rf"{x:\\n}"`` has a real newline as its spec); a tag
    string's spec stays raw text (SPEC 2: the body is raw; SPEC 3: the spec is
    formatted like an f-string's, from its raw text)."""
    cpython = ast.parse('rf"{x:\\n}"', mode="eval").body
    assert isinstance(cpython, ast.JoinedStr)
    spec = cpython.values[0].format_spec  # type: ignore[attr-defined]
    # 3.14 stopped cooking it (our behaviour); 3.12 and 3.13 cook it
    expected = ["\\n"] if sys.version_info >= (3, 14) else ["\n"]
    assert [c.value for c in spec.values if c.value] == expected
    tag = parse('tg"{x:\\n}"').tag_strings[0]
    field = tag.parts[0]
    assert isinstance(field, Field) and field.spec is not None
    assert [(p.raw, p.cooked) for p in field.spec] == [("\\n", "\\n")]
    # the tag receives the spec as written (a RawSpec: the bridge also keeps the text t"..." builds)
    namespace: dict[str, Any] = {"tg": lambda *args: args}
    exec(tagstr_runtime.compile('def f(x):\n    return tg"{x:\\n}"\n', "<spec>", "exec"), namespace)
    (interpolation,) = namespace["f"](1)
    assert interpolation.format_spec == "\\n" and str(interpolation.format_spec) == "\\n"


# =============================================================================
# (iii) malformed input: SyntaxError at a position inside the source
# =============================================================================

_MUTATION_CHARS = "{}'\"\\!:=#\n" + "abxN ("

_SEED_PROGRAMS = (
    'x = tag"Hi, {name!r:>{w}}{{!}}"\n',
    'tag"{d["k"]}" + tag\'{a = }\'\n',
    'def f():\n    return tag"""a\n{ x  # c\n}{y:{z!s}}"""\n',
    'y = f"{tag"in {f"{x}"}"}"\n',
    'tag"{tag"{tag"{x}"}"}"\n',
    'é = 日本"café {é!a}" \n',
    'tag"\\N{{BULLET}} \\x41 {x:{y}}"\n',
    'if x:\n    tag"{(lambda: 1)()}"\n',
)


@st.composite
def mutated_programs(draw: Any) -> str:
    if draw(st.booleans()):
        src = draw(st.sampled_from(_SEED_PROGRAMS))
    else:
        body = draw(S.bodies(reuse_quote=True, bad_escapes=True, max_parts=4))
        src = S.tag_source(body, draw(st.sampled_from(["tag", "t", "match", "_"])), draw(st.sampled_from(S.CONTEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "replace"]))
        if not src and kind != "insert":
            continue
        i = draw(st.integers(0, max(len(src) - 1, 0)))
        if kind == "delete":
            j = draw(st.integers(i + 1, min(len(src), i + 3)))
            src = src[:i] + src[j:]
        elif kind == "insert":
            src = src[:i] + draw(st.text(_MUTATION_CHARS, min_size=1, max_size=3)) + src[i:]
        elif kind == "duplicate":
            j = draw(st.integers(i + 1, min(len(src), i + 4)))
            src = src[:j] + src[i:j] + src[j:]
        else:
            src = src[:i] + draw(st.sampled_from(_MUTATION_CHARS)) + src[i + 1 :]
    return src


def _lines(src: str) -> list[str]:
    lines = src.split("\n")
    if src.endswith("\n"):
        lines.pop()
    return lines


def _builtin_error(src: str) -> tuple[str, int | None, int | None] | None:
    try:
        _quiet_compile(src)
    except SyntaxError as exc:
        return exc.msg, exc.lineno, exc.offset
    except (ValueError, MemoryError, RecursionError):
        pass
    return None


def check_error_position(src: str, exc: SyntaxError) -> None:
    """``lineno`` inside the source (one past the end for EOF errors) and
    ``offset`` inside its line (one past the end allowed).

    Errors that are CPython's own (the builtin ``compile`` gives the same one
    for the same source) are CPython's business: only the type is checked.
    CPython counts offsets from the start of the *logical* line when backslash
    continuations precede (``'x\\\n\\:'`` gives line 2, offset 5), and that
    carries over to its errors on the desugared text, so for errors that are
    not ``TagSyntaxError`` the continued lines count too.
    """
    lines = _lines(src)
    _note(f"{type(exc).__name__}: {exc.msg!r} at {exc.lineno}:{exc.offset}")
    assert exc.filename == "f.py"
    if _builtin_error(src) == (exc.msg, exc.lineno, exc.offset) and not isinstance(
        exc, tagstr_runtime.TagSyntaxError
    ):
        return
    assert exc.lineno is not None and 1 <= exc.lineno <= len(lines) + 1, exc.lineno
    line = lines[exc.lineno - 1] if exc.lineno <= len(lines) else ""
    limit = len(line) + 1
    if not isinstance(exc, tagstr_runtime.TagSyntaxError):
        k = exc.lineno - 1
        while 0 < k <= len(lines) and lines[k - 1].endswith("\\"):
            k -= 1
            limit += len(lines[k]) + 1
    assert exc.offset is not None and 1 <= exc.offset <= limit, (exc.offset, line)


def _compile_tag_source(src: str) -> float:
    """``tagstr_runtime.compile(src)``; returns the CPU time it took."""
    started = time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tagstr_runtime.compile(src, "f.py", "exec")
    except SyntaxError:
        pass
    return time.process_time() - started


def check_compiles_or_syntax_error(src: str) -> None:
    """Compiles, or raises SyntaxError at a position inside ``src``; never hangs."""
    _note(f"source: {src!r}")
    started = time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tagstr_runtime.compile(src, "f.py", "exec")
    except SyntaxError as exc:
        check_error_position(src, exc)
    took = time.process_time() - started
    if took > 1.0:  # CPU time, and measured again: a GC pause is not a hang
        assert _compile_tag_source(src) < 1.0, "compile took too long"


@settings(max_examples=S.examples(400))
@given(mutated_programs())
def test_mutations_compile_or_raise_syntax_error(src: str) -> None:
    check_compiles_or_syntax_error(src)


@settings(max_examples=S.examples(200))
@given(st.text(_MUTATION_CHARS + "tg[]()+,.é\t", max_size=40).map(lambda s: "tag" + s))
def test_random_text_after_a_tag_compiles_or_raises_syntax_error(src: str) -> None:
    check_compiles_or_syntax_error(src)


# Large inputs: the lexer is linear (no regex backtracking blow-up, no quadratic
# rescanning), so each of these takes well under a second.
_N = 20_000
_LARGE_INPUTS = {
    "many-fields": 'tg"' + "{x}" * 2000 + '"\n',
    "unterminated-tag": 'tg"' + "a" * 5 * _N,
    "unterminated-triple-tag": 'tg"""' + '"a\\"' * _N,
    "unterminated-triple-str": 'x = """' + '"a\\"' * _N + '\ntg"x"',
    "unterminated-str-lines": 'x = "abc\n' * _N + 'tg"x"',
    "long-spec": 'tg"{x:' + "a" * 5 * _N + '}"',
    "unterminated-field": 'tg"{' + "x + " * _N,
    "open-braces": 'tg"' + "{" * _N,
    "fstring-fields": 'x = f"' + "{x}" * (_N // 4) + '"\ntg"x"',
    "keywords-before-strings": 'x = "a"if"a"else"b"\n' * (_N // 4) + 'tg"x"',
    "brackets-in-field": 'tg"{' + "[" * 150 + "]" * 150 + '}"',
}


#: CPython 3.15.0rc1 in Pyodide 315.0.0-alpha.2 runs out of parser stack at 150 nested
#: brackets and raises MemoryError for plain ``x = [[...]]`` too (its own error, which
#: the desugarer passes on); 3.14 in Pyodide and native builds reach the tokenizer's
#: limit of 200 first (a SyntaxError).  Expected to go with the final release.
_RC_PARSER_STACK = pytest.mark.xfail(
    sys.platform == "emscripten" and sys.version_info[:2] == (3, 15) and sys.version_info.releaselevel != "final",
    reason="CPython 3.15.0rc1 under WebAssembly: parser stack overflow (MemoryError) before 150 nested brackets",
    raises=MemoryError,
    strict=True,
)


@pytest.mark.parametrize(
    "src",
    [pytest.param(src, id=name, marks=[_RC_PARSER_STACK] if name == "brackets-in-field" else [])
     for name, src in _LARGE_INPUTS.items()],
)
def test_large_inputs_do_not_hang(src: str) -> None:
    started = time.process_time()
    try:
        parse(src)
    except SyntaxError:
        pass
    assert time.process_time() - started < 3.0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tagstr_runtime.compile(src, "f.py", "exec")
    except SyntaxError as exc:
        check_error_position(src, exc)
    assert _compile_tag_source(src) < 5.0
