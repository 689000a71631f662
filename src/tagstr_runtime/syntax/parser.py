"""The one lexer: finds every tag string in a source, with exact spans (SPEC 1, 2, 5).

Python's own ``tokenize`` cannot do it: on 3.11 it does not know PEP 701
nesting (``tag"{d["k"]}"``), and on no version does it know tag strings.  So
this module scans the text itself, with just enough of Python's lexical
grammar to never mistake another literal for a tag string: comments, line
continuations, brackets, numbers, every string prefix, f-string (and, on
3.14, t-string) replacement fields at any depth.

Everything else is left to CPython: where the source is broken in a way that
has nothing to do with tag strings, scanning stops and the caller's parse of
the desugared text reports CPython's own error.

Why this module is longer than the project's ~400 lines and not split: it is one
recursive scanner (code -> literal -> body -> field -> code ...) whose methods
share the lexer's state (nesting depth, "inside a tag string", warnings); cut
in two, each half would need the other's private methods.  Its tables are
regular expressions read right beside the methods that use them.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Iterator, NamedTuple, NoReturn

from tagstr_runtime.syntax import errors as E
from tagstr_runtime.syntax.errors import ErrorKind, TagSyntaxError, error_at
from tagstr_runtime.syntax.escapes import BadEscape, cook_checked
from tagstr_runtime.syntax.model import Field, Literal, Part, Span, TagString, identifier
from tagstr_runtime.syntax.named_escapes import named_escape_fix
from tagstr_runtime.syntax.source import SourceText
from tagstr_runtime.syntax.words import HARD_KEYWORDS, KEYWORDS_BEFORE_STRING, STRING_PREFIXES, TEMPLATE_PREFIXES

__all__ = ["Broken", "CompileWarning", "ParseResult", "parse", "scan"]

# Leading blanks are folded into the next token: one match per token, not two.
_TOKEN = re.compile(
    r"""[ \t\f]*(?:
     (?P<nl>\n)
    |(?P<comment>\#[^\n]*)
    |(?P<cont>\\\n)
    |(?P<name>[^\W\d]\w*)
    |(?P<num>(?:\d|\.\d)(?:[\w.]|(?<=[eE])[-+])*)
    |(?P<quote>['"])
    |(?P<op>\.\.\.|\*\*=?|//=?|>>=?|<<=?|->|:=|==|!=|<=|>=|[-+*/%&|^@<>]=?|[~,;.=!:])
    |(?P<open>[(\[{])
    |(?P<close>[)\]}])
    |(?P<other>.)
    )""",
    re.VERBOSE,
)
# At the top level, a run of tokens that cannot start, end or touch a string
# literal needs no look one token at a time: one match skips it.  Such are
# names not glued to a quote, numbers, operators, a '.' before such a name
# (a '.' ending the run would be the "dot" before a tag), and a bracket pair
# holding only such tokens (its depth nets out to zero).
_PLAIN = r"""(?:
        [^\W\d]\w*(?![\w'"])
      | (?:\d|\.\d)(?:[\w.]|(?<=[eE])[-+])*
      | \.\.\.|\*\*=?|//=?|>>=?|<<=?|->|:=|==|!=|<=|>=|[-+*/%&|^@<>=!:~,;]=?
    )"""
_RUN_TOKEN = rf"""(?:
        {_PLAIN}
      | \.(?=[ \t\f]*[^\W\d]\w*(?![\w'"]))
      | [(\[{{](?:[ \t\f\n]|\\\n|\#[^\n]*+|{_PLAIN}|\.)*+[)\]}}]
    )"""
# Outside brackets a newline makes the next token start a line: the run says
# whether its last token was a newline (``lastgroup``).  A comment ends at a
# newline or at the end of the text, where the state no longer matters; it is
# possessive (``*+``) everywhere: no backtracking may read tokens inside one.
# The bracket pair's contents are possessive too: backtracking there would try
# every split of every number (exponential in a long run of digits).
_TOP_RUN = re.compile(
    rf"(?:[ \t\f]*+(?:(?P<token>{_RUN_TOKEN})|(?P<nl>\n)|\#[^\n]*+))+", re.VERBOSE
)
# Inside brackets newlines and comments change nothing: the run says whether
# it held a token (``lastgroup``).
_NESTED_RUN = re.compile(rf"(?:[ \t\f\n]++|\#[^\n]*+|(?P<token>{_RUN_TOKEN}))+", re.VERBOSE)
_WS = re.compile(r"[ \t\f\n]*")
# Whitespace where PEP 701 also allows comments and continuations (around '=' and '!conv').
_SPACE = re.compile(r"(?:[ \t\f\n]+|\#[^\n]*|\\\n)*")
_COMMENT = re.compile(r"\#[^\n]*")
# A field whose expression is a (dotted) name, up to its terminator.
_SIMPLE_FIELD = re.compile(r"[ \t\f]*([^\W\d]\w*(?:\.[^\W\d]\w*)*)[ \t\f]*(?=[}!:=])")
# Deeper nesting of strings than this is refused (CPython's own limit is close:
# its parser refuses 200 nested parentheses, and each level here adds two).
MAX_NESTING = 32
_NAME = re.compile(r"[^\W\d]\w*")
_LAMBDA = re.compile(r"lambda(?!\w)")
_NAMED_ESCAPE_END = re.compile(r"(?<!\\)(?:\\\\)*\\N\Z")

# The rest of a plain (non-f) literal, closing quote included.
_PLAIN_END = {
    "'": re.compile(r"[^'\\\n]*(?:\\.[^'\\\n]*)*'", re.DOTALL),
    '"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"', re.DOTALL),
    "'''": re.compile(r"[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''", re.DOTALL),
    '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""', re.DOTALL),
}
# Literal text of an f-string/tag-string body, up to the next character that matters.
_BODY_CHUNK = {
    "'": re.compile(r"[^{}\\\n']*"),
    '"': re.compile(r'[^{}\\\n"]*'),
    "'''": re.compile(r"[^{}\\']*"),
    '"""': re.compile(r'[^{}\\"]*'),
}

# Format-spec text up to the next character that matters: a brace, a backslash, a newline or the quote.
_SPEC_CHUNK = {"'": re.compile(r"[^{}\\\n']*"), '"': re.compile(r'[^{}\\\n"]*')}

_TOP, _FIELD, _LINE = 0, 1, 2
_EQUALITY = ("!=", "==")  # after a (dotted) name: an expression to scan, not a terminator
#: what a simple field found: nothing (shared, never appended to)
_NONE_FOUND: list[TagString] = []
#: builds a model record from a tuple of its fields: half the cost of calling the
#: ``NamedTuple`` class (its ``__new__`` is a Python function), for the ~15 records
#: a tag string makes
_new = tuple.__new__
_CLOSER = {"(": ")", "[": "]", "{": "}"}


def _match_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """End of ``pattern`` (one that may match the empty string) at ``pos``."""
    m = pattern.match(text, pos)
    assert m is not None
    return m.end()


class CompileWarning(NamedTuple):
    """A ``SyntaxWarning`` to emit when the source is compiled (SPEC 2: ``\\N{``)."""

    message: str
    span: Span


class ParseResult(NamedTuple):
    """Outermost tag strings (nested ones hang off their fields) and warnings.

    ``complete`` is False when scanning stopped at broken non-tag code; the
    caller then lets CPython report that code.  ``fstrings``: the text has a
    standard f-string somewhere (tools that re-position f-string fields skip
    walking a tree without any).  ``keyword_strings``: each hard keyword glued
    to a string that keeps its standard meaning (``return"x"``, SPEC 1.3),
    the keyword's span, wherever it stands (in f-string and tag-string fields
    too): the linter reports them, the same on every Python version.
    """

    tag_strings: tuple[TagString, ...]
    warnings: tuple[CompileWarning, ...]
    complete: bool
    fstrings: bool = False
    keyword_strings: tuple[Span, ...] = ()


class Broken(NamedTuple):
    """A malformed tag string, and what is needed to tell whether it is the first error.

    ``start``: where the outermost tag string holding the error starts (or
    the name that cannot be a tag); ``before``: the complete outermost tag
    strings before it.  CPython's parse of the text up to ``start`` says
    whether the source breaks earlier (``desugarer.first_error``).
    """

    error: TagSyntaxError
    start: int
    before: tuple[TagString, ...]


class _Abort(Exception):
    """Broken non-tag code: stop scanning, CPython will report it."""


def parse(
    text: str,
    filename: str = "<unknown>",
    *,
    template_strings: bool | None = None,
    source: SourceText | None = None,
) -> ParseResult:
    """Find the tag strings of a normalised source text (see ``syntax.source.decode_source``).

    ``template_strings``: whether ``t``/``tr``/``rt`` are string prefixes
    (Python 3.14+, SPEC 1.4); defaults to the running Python.
    Raises ``TagSyntaxError`` for every malformed tag string (SPEC 5).
    """
    result = scan(text, filename, template_strings=template_strings, source=source)
    if isinstance(result, Broken):
        raise result.error
    return result


def scan(
    text: str,
    filename: str = "<unknown>",
    *,
    template_strings: bool | None = None,
    source: SourceText | None = None,
) -> ParseResult | Broken:
    """``parse``, returning a malformed tag string as a ``Broken`` rather than raising it."""
    if template_strings is None:
        template_strings = sys.version_info >= (3, 14)
    lexer = _Lexer(text, filename, template_strings, source or SourceText(text))
    found: list[TagString] = []
    complete = True
    try:
        lexer.scan_code(0, found, _TOP)
    except _Abort:
        complete = False
    except TagSyntaxError as exc:
        start = lexer.broken_at
        return Broken(exc, start, tuple(tag for tag in found if tag.span.end <= start))
    return ParseResult(
        tuple(found), tuple(lexer.warnings), complete, lexer.fstrings, tuple(lexer.keyword_strings)
    )


class _Lexer:
    def __init__(
        self, text: str, filename: str, template_strings: bool, source: SourceText
    ) -> None:
        self.s = text
        self.n = len(text)
        self.filename = filename
        self.source = source
        self.prefixes = STRING_PREFIXES | TEMPLATE_PREFIXES if template_strings else STRING_PREFIXES
        self.warnings: list[CompileWarning] = []
        self.keyword_strings: list[Span] = []
        self.in_tag = 0
        self.outer_tag = -1  # start of the outermost tag string being scanned
        self.broken_at = -1  # see Broken.start, for the last error raised
        self.nesting = 0
        self.unterminated_at = -1  # start of the last literal reported unterminated
        self.error_nesting = 0  # self.nesting when the last error was raised
        self.field_newline = -1  # the first newline at bracket depth 0 of the field being scanned
        self.fstrings = False  # a standard f-string was seen
        #: one ``str`` per distinct text of the model (tag names, expressions, literal runs):
        #: a module repeats them, and on a large one they were a tenth of the model
        texts: dict[str, str] = {}
        self.text = texts.setdefault

    # -- errors -----------------------------------------------------------------

    def fail(self, message: str, start: int, end: int | None = None) -> NoReturn:
        raise self.error(message, start, end)

    def error(self, message: str, start: int, end: int | None = None) -> TagSyntaxError:
        self.broken_at = self.outer_tag if self.in_tag else start
        self.error_nesting = self.nesting
        return error_at(self.source, self.filename, message, start, end)

    def fail_standard(self, message: str, start: int, end: int | None = None) -> NoReturn:
        """Broken standard code: ours to report only inside a tag string."""
        if self.in_tag:
            self.fail(message, start, end)
        raise _Abort

    def detected_line(self, offset: int) -> int:
        """The line CPython names in "(detected at line N)": at the end of the text,
        the last line it read (a final newline does not start another)."""
        return self.source.line_of(min(offset, self.n - 1))

    # -- code -------------------------------------------------------------------

    def scan_code(
        self,
        pos: int,
        found: list[TagString],
        mode: int,
        field_start: int = -1,
        quote: str = "",
        comments: list[Span] | None = None,
    ) -> tuple[int, int, int, str]:
        """Scan Python code from ``pos``.

        _TOP: to the end of the text.  _FIELD: to the ``}``, ``!``, ``:`` or ``=``
        ending a replacement field's expression.  _LINE: to the end of the
        logical line.  Returns (end, first significant offset or -1, end of the
        last significant token, text of the last significant token).
        """
        s = self.s
        depth = 0
        prev = ""  # kind of the previous significant token: str, tag, dot, or other
        line_start = mode == _TOP
        first = -1
        last_end = pos
        last_text = ""
        lambdas = 0  # _LINE: open lambdas whose ':' is still to come
        opens: list[int] | None = [] if mode == _FIELD else None  # _FIELD: the open brackets
        match = _TOKEN.match
        top_run = _TOP_RUN.match if mode == _TOP else None
        nested_run = _NESTED_RUN.match
        while True:
            if top_run is not None:
                if depth:
                    run = nested_run(s, pos)
                    if run is not None:
                        pos = run.end()
                        if run.lastgroup is not None:
                            prev = "other"
                else:
                    run = top_run(s, pos)
                    if run is not None:
                        pos = run.end()
                        line_start = run.lastgroup == "nl"
                        prev = "" if line_start else "other"
            m = match(s, pos)
            if m is None:  # end of text
                if mode == _FIELD:
                    self.fail_standard(E.EXPECTING_CLOSE, field_start)
                return pos, first, last_end, last_text
            kind = m.lastgroup
            start = m.start(kind)  # type: ignore[arg-type]
            end = m.end()
            if kind == "cont" or kind == "comment":
                if comments is not None and kind == "comment":
                    comments.append(Span(start, end))
                pos = end
                continue
            if kind == "nl":
                if depth == 0:
                    if mode == _FIELD:
                        if self.field_newline < 0:
                            self.field_newline = start
                    else:
                        if mode == _LINE:
                            return start, first, last_end, last_text
                        prev = ""
                        line_start = True
                pos = end
                continue
            at_line_start = line_start
            line_start = False
            if mode == _FIELD and depth == 0:
                if kind == "close":
                    if s[start] == "}":
                        return start, first, last_end, last_text
                    self.fail_standard(E.UNMATCHED.format(s[start]), start)
                if kind == "op":
                    text = s[start:end]
                    if text == "!" or text == "=" or text[0] == ":":
                        return start, first, last_end, last_text
            if mode == _LINE and depth == 0:
                text = s[start:end]
                if text == "lambda":
                    lambdas += 1
                elif text == ":":
                    if not lambdas:
                        return start, first, end, text
                    lambdas -= 1
            if first < 0:
                first = start
            if kind == "name" and end < self.n and s[end] in "'\"":
                if mode == _FIELD and s.startswith(quote, end):
                    with self.enclosing_quote_reused(start, end):
                        pos, prev = self.name_before_quote(m, found, prev, False)
                else:
                    pos, prev = self.name_before_quote(m, found, prev, at_line_start and mode == _TOP)
                last_end = pos
                last_text = s[start:pos]
                continue
            if kind == "quote":
                if mode == _FIELD and s.startswith(quote, start):
                    with self.enclosing_quote_reused(start, start):
                        pos = self.standard_literal(start, start, "", found, prev)
                else:
                    pos = self.standard_literal(start, start, "", found, prev)
                prev = "str"
                last_end = pos
                last_text = s[start:pos]
                continue
            if kind == "open":
                depth += 1
                if opens is not None:
                    opens.append(start)
            elif kind == "close":
                if depth:
                    depth -= 1
                    if opens is not None:
                        opener = opens.pop()
                        if _CLOSER[s[opener]] != s[start]:
                            self.mismatched(opener, start)
            prev = "dot" if kind == "op" and s[start] == "." else "other"
            pos = last_end = end
            last_text = s[start:end]

    def mismatched(self, opener: int, closer: int) -> NoReturn:
        """A bracket closed by another kind, in a field: CPython's tokenizer error, at the closer."""
        s = self.s
        line = self.source.line_of(opener)
        where = "" if line == self.source.line_of(closer) else f" on line {line}"
        self.fail_standard(E.MISMATCHED.format(closer=s[closer], opener=s[opener], where=where), closer)

    @contextmanager
    def enclosing_quote_reused(self, start: int, quote_pos: int) -> Iterator[None]:
        """A literal in a field opening with the enclosing quote (PEP 701 allows it).

        If that literal is never closed, the user most likely forgot a ``}``
        (``tag"{x"``): say so, as CPython does, rather than report the literal
        the quote happens to open.  (In a standard f-string's field every error
        is CPython's to report: see ``fstring``.)
        """
        try:
            yield
        except TagSyntaxError as exc:
            if exc.kind is ErrorKind.UNTERMINATED and self.unterminated_at == start:
                raise self.error(E.EXPECTING_CLOSE, quote_pos) from None
            raise

    def name_before_quote(
        self, m: re.Match[str], found: list[TagString], prev: str, statement_start: bool
    ) -> tuple[int, str]:
        """A NAME glued to a quote: a prefixed literal, a keyword, or a tag string."""
        name = m.group("name")
        start, quote_pos = m.span("name")
        lowered = name.lower()
        if lowered in self.prefixes:
            return self.standard_literal(start, quote_pos, lowered, found, prev), "str"
        if name in HARD_KEYWORDS:
            if name in KEYWORDS_BEFORE_STRING:
                self.keyword_strings.append(Span(start, quote_pos))
                return quote_pos, "other"
            self.fail(E.KEYWORD_TAG.format(name), start, quote_pos)
        if not name.isascii() and identifier(name) in HARD_KEYWORDS:
            # CPython's tokenizer sees a name (``𝐍𝐨𝐧𝐞``), its tree the keyword ('None')
            self.fail(E.KEYWORD_TAG.format(identifier(name)), start, quote_pos)
        if statement_start and name in ("match", "case") and self.opens_statement(quote_pos):
            return quote_pos, "other"
        if prev == "dot":
            self.fail(E.DOTTED_TAG, start, quote_pos + 1)
        if prev in ("str", "tag"):
            self.fail(E.CONCATENATION, start, quote_pos + 1)
        tag = self.tag_string(start, quote_pos)
        found.append(tag)
        self.check_not_followed_by_string(tag.span.end)
        return tag.span.end, "tag"

    def opens_statement(self, quote_pos: int) -> bool:
        """``match"x":`` / ``case"x":`` at a line start: a statement, not a tag (SPEC 1.3)."""
        saved, saved_keywords = len(self.warnings), len(self.keyword_strings)
        try:
            end = self.standard_literal(quote_pos, quote_pos, "", [], "")
            _, _, _, last = self.scan_code(end, [], _LINE)
        except (_Abort, SyntaxError):
            return False
        finally:  # the line is scanned again, as a statement or as a tag string
            del self.warnings[saved:]
            del self.keyword_strings[saved_keywords:]
        return last == ":"

    def check_not_followed_by_string(self, pos: int) -> None:
        """SPEC 1.6: ``tag"a" "b"`` is an error even when the tag string comes first."""
        s = self.s
        while True:
            m = _TOKEN.match(s, pos)
            if m is None:
                return
            kind = m.lastgroup
            if kind in ("cont", "comment"):
                pos = m.end()
                continue
            if kind == "nl":
                # Inside brackets or a field a newline does not end the expression,
                # but scan_code sees the next string and reports it there.
                return
            if kind == "quote" or (
                kind == "name" and m.end() < self.n and s[m.end()] in "'\""
                and m.group(kind) not in HARD_KEYWORDS
            ):
                self.fail(E.CONCATENATION, m.start(kind), m.end() + (kind == "name"))
            return

    # -- standard literals ------------------------------------------------------

    def standard_literal(
        self, start: int, quote_pos: int, prefix: str, found: list[TagString], prev: str
    ) -> int:
        """Skip a non-tag literal; returns the offset after it.  Fields of f- and
        t-strings are scanned, since tag strings may nest there (SPEC 1.7)."""
        if prev == "tag":
            self.fail(E.CONCATENATION, start, quote_pos + 1)
        s = self.s
        q = s[quote_pos]
        quote = q * 3 if s.startswith(q * 3, quote_pos) else q
        body = quote_pos + len(quote)
        if "f" in prefix or "t" in prefix:
            self.fstrings = self.fstrings or "f" in prefix
            return self.fstring(body, quote, "r" in prefix, found, start)
        m = _PLAIN_END[quote].match(s, body)
        if m is None:
            self.unterminated_at = start
            message = E.UNTERMINATED_TRIPLE_STRING if len(quote) == 3 else E.UNTERMINATED_STRING
            self.fail_standard(message.format(self.detected_line(self._line_end(body, quote))), start)
        return m.end()

    def fstring(self, body: int, quote: str, raw: bool, found: list[TagString], start: int) -> int:
        """An f-string (or t-string), after its opening quote; returns the offset after it.

        Outside any tag string, an error anywhere in it is CPython's to report,
        tag strings in its fields included: a malformed "tag string" there is
        nearly always a typo in the f-string (``f"{name'}"``, ``f"{obj.attr"``,
        ``f"{a" "b"``: before Python 3.12 a quote inside a field even ends the
        f-string), and a file with none but such typos must get CPython's own
        error.  The tag strings found in it go too: CPython reads the f-string
        as written.
        """
        if self.in_tag:
            return self.body(body, quote, raw, False, found, start)[0]
        mark = len(found)
        try:
            return self.body(body, quote, raw, False, found, start)[0]
        except (TagSyntaxError, _Abort):
            del found[mark:]
            raise _Abort from None

    def _line_end(self, pos: int, quote: str) -> int:
        if len(quote) == 3:
            return self.n
        newline = self.s.find("\n", pos)
        return self.n if newline < 0 else newline

    # -- tag strings ----------------------------------------------------------

    def tag_string(self, start: int, quote_pos: int) -> TagString:
        s = self.s
        q = s[quote_pos]
        quote = q * 3 if s.startswith(q * 3, quote_pos) else q
        body = quote_pos + len(quote)
        if not self.in_tag:
            self.outer_tag = start
        self.in_tag += 1
        try:
            end, parts = self.body(body, quote, True, True, [], start)
        finally:
            self.in_tag -= 1
        name = s[start:quote_pos]
        return _new(TagString, (
            self.text(name, name),
            _new(Span, (start, quote_pos)),
            _new(Span, (start, end)),
            quote,
            _new(Span, (body, end - len(quote))),
            tuple(parts),
        ))

    def body(
        self, pos: int, quote: str, raw: bool, is_tag: bool, found: list[TagString], start: int
    ) -> tuple[int, list[Part]]:
        """Scan an f-string-like body from ``pos``; returns (offset after the closing quote, parts).

        Parts are only built for tag strings; ``found`` receives tag strings
        nested in the fields of a standard f-string.
        """
        if self.nesting >= MAX_NESTING:
            self.fail_standard(E.TOO_DEEP, start)
        self.nesting += 1
        try:
            return self._body(pos, quote, raw, is_tag, found, start)
        finally:
            self.nesting -= 1

    def _body(
        self, pos: int, quote: str, raw: bool, is_tag: bool, found: list[TagString], start: int
    ) -> tuple[int, list[Part]]:
        s = self.s
        n = self.n
        single = len(quote) == 1
        qc = quote[0]
        chunk = _BODY_CHUNK[quote].match  # matches the empty string too
        parts: list[Part] = []
        seg = lit_start = pos  # start of unflushed literal text / of the current literal part
        pieces: list[str] = []  # literal text with doubled braces collapsed
        while True:
            pos = chunk(s, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                self.unterminated(start, quote, is_tag, n)
            c = s[pos]
            if c == "\\":
                if pos + 1 >= n:
                    self.unterminated(start, quote, is_tag, n)
                nxt = s[pos + 1]
                if nxt == "{" or nxt == "}":
                    pos += 1
                elif not raw and nxt == "N" and s.startswith("{", pos + 2):
                    close = s.find("}", pos + 3)
                    if close < 0:
                        self.unterminated(start, quote, is_tag, n)
                    pos = close + 1
                else:
                    pos += 2
                continue
            if c == "\n":  # only stops single-quoted bodies
                self.unterminated(start, quote, is_tag, pos)
            if c == qc:
                if single or s.startswith(quote, pos):
                    if is_tag:
                        text = s[seg:pos]
                        if pieces or "\\" in text:
                            self.flush_literal(parts, pieces, seg, lit_start, pos, False)
                        elif text:  # flush_literal's common case, inlined
                            text = self.text(text, text)
                            parts.append(_new(Literal, (text, text, _new(Span, (seg, pos)))))
                    return pos + len(quote), parts
                pos += 1
                continue
            if c == "{":
                if s.startswith("{", pos + 1):
                    pieces.append(s[seg : pos + 1])
                    seg = pos = pos + 2
                    continue
                if is_tag:
                    text = s[seg:pos]
                    if pieces or "\\" in text:
                        self.flush_literal(parts, pieces, seg, lit_start, pos, True)
                    elif text:  # flush_literal's common case, inlined
                        text = self.text(text, text)
                        parts.append(_new(Literal, (text, text, _new(Span, (seg, pos)))))
                field = self.field(pos, quote, is_tag, found)
                if is_tag:
                    parts.append(field)
                seg = lit_start = pos = field.span.end
                if pieces:
                    pieces = []
                continue
            # c == "}"
            if s.startswith("}", pos + 1):
                pieces.append(s[seg : pos + 1])
                seg = pos = pos + 2
                continue
            if is_tag:
                self.fail(E.SINGLE_CLOSE, pos)
            self.fail_standard(E.SINGLE_CLOSE, pos)

    def unterminated(self, start: int, quote: str, is_tag: bool, where: int) -> NoReturn:
        self.unterminated_at = start
        line = self.detected_line(where)
        if is_tag:
            message = E.UNTERMINATED_TRIPLE if len(quote) == 3 else E.UNTERMINATED
            self.fail(message.format(line), start)
        message = E.UNTERMINATED_TRIPLE_STRING if len(quote) == 3 else E.UNTERMINATED_STRING
        self.fail_standard(message.format(line), start)

    def flush_literal(
        self, parts: list[Part], pieces: list[str], seg: int, lit_start: int, end: int, before_field: bool
    ) -> None:
        raw = "".join(pieces) + self.s[seg:end] if pieces else self.s[seg:end]
        if not raw:
            return
        try:
            cooked = cook_checked(raw, named_escape_may_end=before_field) if "\\" in raw else raw
        except BadEscape as exc:
            where = self.raw_to_source(lit_start, exc.offset)
            until = self.raw_to_source(lit_start, exc.offset + exc.length)
            self.fail(E.BAD_ESCAPE.format(f"(unicode error) {exc}"), where, until)
        if before_field and raw.endswith("\\N") and _NAMED_ESCAPE_END.search(raw):  # endswith: cheap
            self.warn_named_escape(end)
        parts.append(_new(Literal, (raw, cooked, _new(Span, (lit_start, end)))))

    def warn_named_escape(self, brace: int) -> None:
        """``\\N`` right before the field opened at ``brace``: SPEC 2's warning."""
        name_end = self.s.find("}", brace)
        name = self.s[brace + 1 : name_end].strip() if name_end > 0 else ""
        message = E.NAMED_ESCAPE_WARNING.format(name=name, fix=named_escape_fix(name))
        self.warnings.append(CompileWarning(message, Span(brace - 2, brace + 1)))

    def raw_to_source(self, start: int, raw_offset: int) -> int:
        """Offset in the source of index ``raw_offset`` of a literal's collapsed text."""
        s = self.s
        pos = start
        for _ in range(raw_offset):
            pos += 2 if s[pos] in "{}" and s[pos + 1 : pos + 2] == s[pos] else 1
        return pos

    # -- replacement fields ---------------------------------------------------

    def field(self, brace: int, quote: str, is_tag: bool, found: list[TagString]) -> Field:
        """A replacement field from its ``{``.

        In a single-quoted tag string, a field whose expression runs on past
        the end of its line (PEP 701 allows it) and then fails is nearly always
        a ``}`` forgotten at the end of that line: reported there, not where
        the code after it happened to break the field (``def f(x):`` read as a
        format spec).  Errors of strings nested further in are their own,
        except an unterminated one (a quote in the code after it).
        """
        saved, self.field_newline = self.field_newline, -1
        level = self.nesting
        try:
            return self._field(brace, quote, is_tag, found)
        except TagSyntaxError as exc:
            newline = self.field_newline
            if newline < 0 or not is_tag or len(quote) != 1:
                raise
            if self.error_nesting != level and exc.kind is not ErrorKind.UNTERMINATED:
                raise
            raise self.error(E.EXPECTING_CLOSE, newline) from None
        finally:
            self.field_newline = saved

    def _field(self, brace: int, quote: str, is_tag: bool, found: list[TagString]) -> Field:
        s = self.s
        nested: list[TagString] = _NONE_FOUND  # (a simple field holds no tag string)
        comments: list[Span] = _NONE_FOUND  # type: ignore[assignment]  # (nor a comment)
        simple = _SIMPLE_FIELD.match(s, brace + 1)
        if simple is not None and not s.startswith(_EQUALITY, simple.end()):
            # The common ``{name}`` / ``{obj.attr!r:>10}``: no need to tokenize.
            pos = simple.end()
            first, last_end = simple.span(1)
        else:
            nested = [] if is_tag else found
            comments = []
            pos, first, last_end, _ = self.scan_code(brace + 1, nested, _FIELD, brace, quote, comments)
        term = s[pos]
        if first < 0:
            self.fail_field(is_tag, E.EMPTY_EXPRESSION.format(term), pos)
        expr = s[first:last_end]
        expr = self.text(expr, expr)
        if expr.startswith("lambda") and _LAMBDA.match(expr):
            self.fail_field(is_tag, E.LAMBDA, first, pos + 1)  # up to the ":", as CPython
        debug = None
        if term == "=":
            after = pos + 1
            pos = _match_end(_SPACE, s, after)
            comments = [*comments, *(Span(*m.span()) for m in _COMMENT.finditer(s, after, pos))]
            debug = self.without_comments(brace + 1, pos, comments)
            term = s[pos] if pos < self.n else ""
            if term not in ("!", ":", "}"):
                self.fail_field(is_tag, E.EXPECTING_AFTER_DEBUG, pos)
        conv = None
        conv_span = None
        if term == "!":
            m = _NAME.match(s, pos + 1)
            if m is None:
                after = _match_end(_WS, s, pos + 1)
                if after > pos + 1 and _NAME.match(s, after):
                    self.fail_field(is_tag, E.CONVERSION_SPACE, pos, after + 1)
                self.fail_field(is_tag, E.MISSING_CONVERSION, pos + 1)
            conv = m.group()
            if conv not in ("s", "r", "a"):
                self.fail_field(is_tag, E.INVALID_CONVERSION.format(conv), m.start(), m.end())
            conv_span = _new(Span, m.span())
            pos = _match_end(_SPACE, s, m.end())
            term = s[pos] if pos < self.n else ""
            if term not in (":", "}"):
                self.fail_field(is_tag, E.EXPECTING_CONV_END, pos)
        spec: tuple[Part, ...] | None = None
        spec_span = None
        if term == ":":
            spec_start = pos + 1
            # (a tag string's spec fields keep their own nested tag strings: ``found``
            # only collects those of a standard f-string)
            pos, spec_parts = self.spec(spec_start, quote, is_tag, found, brace)
            spec = tuple(spec_parts)
            spec_span = _new(Span, (spec_start, pos))
            term = "}"
        if term != "}":
            self.fail_field(is_tag, E.EXPECTING_FIELD_END, pos)
        return _new(Field, (
            expr,
            _new(Span, (first, last_end)),
            _new(Span, (brace, pos + 1)),
            debug,
            conv,
            conv_span,
            spec,
            spec_span,
            tuple(nested) if is_tag and nested else (),
        ))

    def without_comments(self, start: int, end: int, comments: list[Span]) -> str:
        """``s[start:end]`` without its comments: CPython's debug text for ``{expr=}``."""
        if not comments:
            return self.s[start:end]
        pieces = []
        for comment in comments:
            pieces.append(self.s[start : comment.start])
            start = comment.end
        pieces.append(self.s[start:end])
        return "".join(pieces)

    def fail_field(self, is_tag: bool, message: str, start: int, end: int | None = None) -> NoReturn:
        if is_tag:
            self.fail(message, start, end)
        self.fail_standard(message, start, end)

    def spec(
        self, pos: int, quote: str, is_tag: bool, found: list[TagString], brace: int
    ) -> tuple[int, list[Part]]:
        """A format spec up to its field's closing ``}``.  ``{`` always opens a
        nested field and ``}`` always closes (as in CPython 3.12+); the text is raw."""
        s = self.s
        n = self.n
        single = len(quote) == 1
        qc = quote[0]
        parts: list[Part] = []
        seg = pos
        chunk = _SPEC_CHUNK[qc].match  # up to the next character that matters (or none)
        while True:
            pos = chunk(s, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                self.fail_field(is_tag, E.EXPECTING_CLOSE, brace)
            c = s[pos]
            if c == "{" or c == "}":
                if pos > seg:
                    text = s[seg:pos]
                    text = self.text(text, text)
                    parts.append(_new(Literal, (text, text, _new(Span, (seg, pos)))))
                if c == "}":
                    return pos, parts
                if is_tag and _NAMED_ESCAPE_END.search(s, seg, pos):
                    self.warn_named_escape(pos)  # a spec is raw too: '\\N{' opens a field
                field = self.field(pos, quote, is_tag, found)
                parts.append(field)
                seg = pos = field.span.end
                continue
            if c == "\\":
                pos += 2 if pos + 1 < n and s[pos + 1] not in "{}" else 1
                continue
            if c == "\n" and single:
                self.fail_field(is_tag, E.SPEC_NEWLINE, pos)
            if c == qc and (single or s.startswith(quote, pos)):
                self.fail_field(is_tag, E.EXPECTING_CLOSE, pos)
            pos += 1
