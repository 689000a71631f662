"""Templates built per site: what a ``template_tag`` tag does for a tag string it met before.

A tag string passes the same ``Decoded`` objects at every evaluation, and its
interpolations carry the same expression texts, conversions and (most often)
format specs; only their values change.  So the ``Template`` that ``t"..."``
would build differs from one evaluation to the next only in its values, and
on Python 3.14, where ``string.templatelib.Template`` is built by the
interpreter's own ``t"..."`` instructions, one compiled function per site
builds it as the t-string itself does: its strings are one tuple, the same
object at every evaluation as a t-string's are (what libraries cache by:
tdom parses a template once per ``strings``), and its interpolations are made
by the interpreter, not by calls.

A site is known by its literal texts (the dictionary key: the ``Decoded``
arguments, which hash by their cached text), and each call is checked
against it: the same number of arguments in the same order, the same
expression texts and conversions, and the same format specs (or, for a site
whose specs vary, a ``str`` each).  A call that differs in any of these goes
the general way (``template_tags._template_of``), whatever its cause.  A site is
compiled the second time it is met, so a program that calls a tag with ever
new texts by hand pays one dictionary entry per call, up to ``LIMIT`` sites
per tag.  Raw tags (``rt"..."``), format specs with a backslash (``RawSpec``)
and Pythons before 3.14 take the general way.  See
docs/decisions/0120-the-bridge-builds-a-sites-templates-as-its-t-string-would.md.
"""

from __future__ import annotations

import ast
import sys
from typing import Any, Callable

from tagstr_runtime._types import Decoded, Interpolation

__all__ = ["LIMIT", "Sites"]

#: sites compiled per tag, at most (then: the general way for new ones)
LIMIT = 1024
_CONVERSIONS = {None: -1, "s": ord("s"), "r": ord("r"), "a": ord("a")}
_FILENAME = "<tagstr_runtime.bridge site>"


class _Site:
    """One tag string's shape, and the function that builds its template."""

    __slots__ = ("build", "count", "fields", "vary")

    def __init__(self, count: int, fields: tuple[Any, ...], vary: bool, build: Callable[..., object]) -> None:
        self.count = count  # number of arguments; -1: not a site (yet)
        #: (expression texts, conversions, format specs); with ``vary``, the specs are any texts
        self.fields = fields
        self.vary = vary
        self.build = build  # build(getvalues, specs)


#: a key met once (compiled when met again), or one that is no site (never compiled)
_ONCE = _Site(-1, (), False, print)
_NONE = _Site(-1, (), False, print)


class Sites:
    """The sites one tag met, by literal texts: those starting with one (``after_text``:
    ``D I D ...``) and those starting with a field (``after_field``: ``I D I ...``)."""

    __slots__ = ("after_field", "after_text")

    def __init__(self) -> None:
        self.after_text: dict[tuple[object, ...], _Site] = {}
        self.after_field: dict[tuple[object, ...], _Site] = {}

    def template(self, args: tuple[object, ...]) -> object:
        """The template for ``args``, built as its t-string builds it; ``None``: the general way
        (``args`` are no site's, or a site met for the first time)."""
        if len(args) < 2:
            return None
        if type(args[0]) is Decoded:
            key, interpolations, sites = args[::2], args[1::2], self.after_text
        else:
            key, interpolations, sites = args[1::2], args[::2], self.after_field
        try:
            site = sites.get(key)
        except TypeError:  # something unhashable where a literal part goes: not a site
            return None
        if site is None or site.count < 0:
            return self._met(key, args, sites, site)
        if site.count != len(args):
            return None
        try:
            getvalues, exprs, convs, specs = zip(*interpolations)
        except (TypeError, ValueError):  # not 4 items each: no site's interpolations
            return None
        fields = site.fields
        if (exprs, convs, specs) != fields:
            if (exprs, convs) != fields[:2] or not _texts(specs):
                return None
            if not site.vary:  # a spec with a nested field: one function for any texts
                site = _site(args, type(args[0]) is not Decoded, True)
                if site is None:
                    return None
                sites[key] = site
        return site.build(getvalues, specs)

    @staticmethod
    def _met(key: tuple[object, ...], args: tuple[object, ...], sites: dict[tuple[object, ...], _Site],
             site: _Site | None) -> None:
        """A key met the first time is remembered, the second time compiled (if it is a site)."""
        if site is None:
            if len(sites) < LIMIT:
                sites[key] = _ONCE
        elif site is _ONCE:
            sites[key] = _site(args, type(args[0]) is not Decoded, False) or _NONE
        return None


def _texts(specs: tuple[object, ...]) -> bool:
    return all(spec is None or type(spec) is str for spec in specs)


def _site(args: tuple[object, ...], first: bool, specs_vary: bool) -> _Site | None:
    """The site of ``args`` (a tag string's, alternating), compiled; ``None`` for anything else."""
    if sys.version_info < (3, 14):
        return None
    parts: list[ast.expr] = []
    exprs: list[str] = []
    convs: list[str | None] = []
    specs: list[object] = []
    for index, arg in enumerate(args):
        if (index % 2 == 0) is first:  # an interpolation's place
            if type(arg) is not Interpolation:
                return None
            _, expr, conv, spec = arg
            if type(expr) is not str or conv not in _CONVERSIONS or not (spec is None or type(spec) is str):
                return None
            k = len(exprs)
            exprs.append(expr)
            convs.append(conv)
            specs.append(spec)
            value = ast.Call(_item("g", k), [], [])
            if specs_vary:  # whatever text each call passes, or '' for None
                given = ast.BoolOp(ast.Or(), [_item("s", k), ast.Constant("")])
                format_spec: ast.expr | None = ast.JoinedStr([ast.FormattedValue(given, -1, None)])
            elif spec is None:
                format_spec = None
            else:
                format_spec = ast.JoinedStr([ast.Constant(spec)])
            field = ast.Interpolation(  # type: ignore[attr-defined, unused-ignore]
                value, expr, _CONVERSIONS[conv], format_spec
            )
            parts.append(field)
        else:
            if type(arg) is not Decoded:
                return None
            parts.append(ast.Constant(str.__str__(arg)))
    body = ast.Return(ast.TemplateStr(parts))  # type: ignore[attr-defined, unused-ignore]
    function = ast.FunctionDef(
        "build", ast.arguments([], [ast.arg("g"), ast.arg("s")], None, [], [], None, []), [body], [], None, None, [],
    )
    module = ast.fix_missing_locations(ast.Module([function], []))
    namespace: dict[str, Any] = {}
    exec(compile(module, _FILENAME, "exec", dont_inherit=True), namespace)
    return _Site(len(args), (tuple(exprs), tuple(convs), tuple(specs)), specs_vary, namespace["build"])


def _item(name: str, index: int) -> ast.expr:
    return ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(index), ast.Load())
